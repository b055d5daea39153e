package io.quarkiverse.pacer.runtime.throttle.fallback;

import java.util.concurrent.TimeUnit;

import org.jboss.logging.Logger;

/**
 * Logs Redis outages of throttling on transitions only, at most one line per {@link #QUIET_NANOS}: one WARN when
 * decisions start falling back, one INFO (with the number of fallback decisions) when Redis answers again. A flapping
 * connection therefore cannot flood the log; what was not logged is counted in the next line.
 */
final class RedisOutageLog {

    static final long QUIET_NANOS = TimeUnit.SECONDS.toNanos(5);

    private final Logger log;
    private final String client;
    private final String consequence;
    /** Read on every decision without locking: the healthy path costs one volatile read. */
    private volatile boolean quiet = true;
    private boolean degraded;
    private boolean warned;
    private long fallbacks;
    private long degradedSinceNanos;
    private long lastLineNanos = System.nanoTime() - QUIET_NANOS;

    RedisOutageLog(Logger log, String client, String consequence) {
        this.log = log;
        this.client = client;
        this.consequence = consequence;
    }

    /** A decision fell back; {@code true} when this is the start of an outage (Redis answered the decision before). */
    synchronized boolean failed(Throwable cause) {
        quiet = false;
        fallbacks++;
        boolean started = !degraded;
        long now = System.nanoTime();
        if (started) {
            degraded = true;
            degradedSinceNanos = now;
        }
        if (!warned && now - lastLineNanos >= QUIET_NANOS) {
            warned = true;
            lastLineNanos = now;
            log.warnf("Pacer throttling cannot get decisions from Redis (client %s): %s; calls are %s until it"
                    + " answers again (%d fallback decisions so far)", client, cause.toString(), consequence, fallbacks);
        } else {
            log.debugf("Throttle decision fell back: %s", cause);
        }
        return started;
    }

    /** Redis decided; {@code true} when this ends an outage. */
    boolean succeeded() {
        if (quiet) {
            return false;
        }
        return recovered();
    }

    private synchronized boolean recovered() {
        boolean ended = degraded;
        degraded = false;
        long now = System.nanoTime();
        if (warned && now - lastLineNanos >= QUIET_NANOS) {
            log.infof("Pacer throttling gets decisions from Redis again (client %s) after %d fallback decisions"
                    + " over %d ms", client, fallbacks, TimeUnit.NANOSECONDS.toMillis(now - degradedSinceNanos));
            lastLineNanos = now;
            warned = false;
            fallbacks = 0;
            quiet = true;
        } else if (!warned) {
            // Too short to have been reported: nothing to say.
            fallbacks = 0;
            quiet = true;
        }
        return ended;
    }
}
