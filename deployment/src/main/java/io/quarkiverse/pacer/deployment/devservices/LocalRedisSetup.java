package io.quarkiverse.pacer.deployment.devservices;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import io.quarkus.deployment.builditem.Startable;

/**
 * The lifecycle every local Redis setup of Pacer's Dev Services shares (one server, a cluster, a Sentinel setup):
 * start with a few attempts (a probed free port can be taken before {@code redis-server} binds it), stop the
 * processes if the JVM exits without {@link #close()}, and stop them on {@link #close()}.
 */
abstract class LocalRedisSetup implements Startable {

    private static final int START_ATTEMPTS = 3;

    private Thread shutdownHook;

    /** Starts every process of the setup on new free ports; throws {@link IllegalStateException} on failure. */
    abstract void startOnce();

    /** Stops whatever processes run and deletes their files; safe to call when nothing runs. */
    abstract void stopAll();

    @Override
    public final void start() {
        IllegalStateException last = null;
        for (int attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
            try {
                startOnce();
                shutdownHook = new Thread(this::stopAll, "pacer-" + getClass().getSimpleName() + "-shutdown");
                Runtime.getRuntime().addShutdownHook(shutdownHook);
                return;
            } catch (IllegalStateException e) {
                last = e;
                stopAll();
            }
        }
        throw last;
    }

    /** A new temporary directory for the files of one setup; {@code what} names the setup in the error. */
    static Path workDirectory(String prefix, String what) {
        try {
            return Files.createTempDirectory(prefix);
        } catch (IOException e) {
            throw new IllegalStateException("Pacer could not create a directory for " + what, e);
        }
    }

    @Override
    public String getContainerId() {
        return null;
    }

    @Override
    public void close() {
        if (shutdownHook != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException alreadyShuttingDown) {
                // the hook runs anyway
            }
            shutdownHook = null;
        }
        stopAll();
    }
}
