package io.quarkiverse.pacer.benchmarks.throttle;

/**
 * Another library's distributed rate limiter, driven with the same limits, keys and callers as Pacer.
 */
public interface RateLimiterPeer extends AutoCloseable {

    String name();

    /** Whether this is a baseline (the best that could be done) rather than another library. */
    default boolean isBaseline() {
        return false;
    }

    /** Creates (or configures) one limiter per key before a run; not timed. */
    void prepare(ThrottleLimits limits, String[] keys) throws Exception;

    /** One blocking permit acquisition on the key with index {@code keyIndex}; {@code true} when admitted. */
    boolean tryAcquire(int keyIndex);

    @Override
    void close();
}
