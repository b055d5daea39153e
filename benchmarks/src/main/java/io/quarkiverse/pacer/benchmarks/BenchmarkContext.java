package io.quarkiverse.pacer.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * What every scenario group shares: settings, the redis-server, an administration connection and the result table.
 */
public final class BenchmarkContext implements AutoCloseable {

    private final BenchmarkSettings settings;
    private final int port;
    private final ResultTable table;
    private final RespConnection admin;
    private final RedisBenchmarkTool redisBenchmark;

    public BenchmarkContext(BenchmarkSettings settings, int port, ResultTable table) {
        this.settings = settings;
        this.port = port;
        this.table = table;
        try {
            this.admin = RespConnection.open(port);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.redisBenchmark = new RedisBenchmarkTool(settings.redisBenchmark(), port);
    }

    public BenchmarkSettings settings() {
        return settings;
    }

    public int port() {
        return port;
    }

    public String redisUri() {
        return "redis://127.0.0.1:" + port;
    }

    public ResultTable table() {
        return table;
    }

    public RedisBenchmarkTool redisBenchmark() {
        return redisBenchmark;
    }

    /** One administration command on the harness's own connection (never on a measured client). */
    public synchronized Object admin(String... command) {
        return admin.command(command);
    }

    /** Empties Redis so each run starts from the same state; script caches survive. */
    public void flushAll() {
        admin("FLUSHALL");
    }

    /** {@code SLOWLOG GET -1}: every entry as {@code [id, unix time, micros, [args...], ...]}. */
    @SuppressWarnings("unchecked")
    public List<Object> slowlog() {
        return (List<Object>) admin("SLOWLOG", "GET", "-1");
    }

    @Override
    public synchronized void close() {
        admin.close();
    }
}
