package io.quarkiverse.pacer.runtime.throttle.fallback;

import java.util.concurrent.atomic.LongAdder;

import org.jboss.logging.Logger;

import io.quarkiverse.pacer.runtime.config.ThrottleRuntimeConfig;
import io.quarkiverse.pacer.runtime.config.ThrottleRuntimeConfig.OnRedisFailure;
import io.quarkiverse.pacer.runtime.throttle.engine.DecisionStack;
import io.quarkiverse.pacer.runtime.throttle.engine.ThrottleOutcome;

/**
 * Decides without Redis when Redis fails or is too slow, as {@code quarkus.pacer.throttle.on-redis-failure} says:
 * allow, reject, or decide in memory ({@link LocalLimiter}). Logs the outage once, and its end.
 */
public final class RedisFallback {

    private static final Logger LOG = Logger.getLogger(RedisFallback.class);

    /** Retry-after of a decision rejected because Redis was unavailable. */
    private static final long RETRY_MICROS = 1_000_000;

    private final boolean allow;
    /** The in-memory limiter of {@code on-redis-failure=local}, else {@code null}. */
    private final LocalLimiter local;
    private final RedisOutageLog outageLog;
    private final LongAdder decisions = new LongAdder();

    public RedisFallback(ThrottleRuntimeConfig config, String redisClient) {
        OnRedisFailure onFailure = config.onRedisFailure();
        this.allow = onFailure == OnRedisFailure.ALLOW;
        this.local = onFailure == OnRedisFailure.LOCAL ? new LocalLimiter(config.expectedInstances()) : null;
        this.outageLog = new RedisOutageLog(LOG, redisClient, switch (onFailure) {
            case ALLOW -> "allowed";
            case REJECT -> "rejected";
            case LOCAL -> "decided in memory by each instance";
        });
    }

    /**
     * Redis decided {@code key}: ends an outage, and the in-memory state of {@code local} for that key. Only that key's:
     * on Redis Cluster one master can be down while the others answer, and its keys keep their local state until Redis
     * decides them again (or they sit idle).
     */
    public void redisAnswered(DecisionStack stack, String key) {
        outageLog.succeeded();
        if (local != null && !local.isEmpty()) {
            local.forget(stack, key);
        }
    }

    /** The decision of a call Redis could not decide. */
    public ThrottleOutcome decide(DecisionStack stack, String key, String token, Throwable failure, boolean acquire) {
        outageLog.failed(failure);
        decisions.increment();
        int size = stack.policies.length;
        long[] values;
        boolean allowed;
        if (local != null) {
            values = local.decide(stack, key, token == null ? "" : token, acquire);
            allowed = true;
            for (int i = 0; i < size; i++) {
                allowed &= values[4 * i] == 1 || stack.policies[i].shadow;
            }
        } else {
            values = new long[4 * size];
            for (int i = 0; i < size; i++) {
                values[4 * i] = allow ? 1 : 0;
                values[4 * i + 2] = allow ? 0 : RETRY_MICROS;
            }
            allowed = allow;
        }
        return new ThrottleOutcome(stack, key, token, allowed, values, true);
    }

    /** Ends the in-memory leases of a call that a fallback admitted. */
    public void release(ThrottleOutcome outcome) {
        if (local != null) {
            local.release(outcome.stack(), outcome.key(), outcome.token());
        }
    }

    /** Decisions made without Redis since startup. */
    public long decisions() {
        return decisions.sum();
    }
}
