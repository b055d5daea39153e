package io.quarkiverse.pacer.benchmarks;

import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.annotations.QuarkusMain;

/**
 * Entry point: starts a private {@code redis-server} on a free loopback port, points the Quarkus Redis client at it,
 * runs {@link BenchmarkApplication} in prod mode, then stops the server and exits with the application's code.
 */
@QuarkusMain
public class PacerBenchmarks {

    public static void main(String... args) {
        BenchmarkSettings settings = BenchmarkSettings.fromSystemProperties();
        BenchmarkRedisServer server = BenchmarkRedisServer.start(settings.redisServer());
        System.setProperty("quarkus.redis.hosts", server.uri());
        System.setProperty(BenchmarkApplication.PORT_PROPERTY, Integer.toString(server.port()));
        Quarkus.run(BenchmarkApplication.class, (exitCode, failure) -> {
            server.close();
            if (failure != null) {
                failure.printStackTrace();
            }
            System.exit(exitCode);
        }, args);
    }
}
