package io.quarkiverse.pacer.test.support;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * One CPU core kept busy by a spinning shell process for as long as it is open, so a scenario runs on a machine that has
 * less to give than it seems, as a shared production host does.
 */
public final class BusyCore implements AutoCloseable {

    private final Process spinner;

    private BusyCore(Process spinner) {
        this.spinner = spinner;
    }

    public static BusyCore start() throws IOException {
        return new BusyCore(new ProcessBuilder("sh", "-c", "while :; do :; done").start());
    }

    @Override
    public void close() throws InterruptedException {
        spinner.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
}
