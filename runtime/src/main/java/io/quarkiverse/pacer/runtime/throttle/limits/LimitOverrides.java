package io.quarkiverse.pacer.runtime.throttle.limits;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.quarkiverse.pacer.runtime.config.PacerConfig;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.runtime.redis.RedisSubscription;
import io.quarkiverse.pacer.throttle.ThrottleOverride;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

/**
 * The runtime overrides of policies ({@code Throttler.override}), shared by every instance through Redis: one hash,
 * {@code <prefix>:throttle-overrides}, field = policy name, value = the override. The hash has no TTL: its owner is
 * the override API, and clearing the last override deletes it (an empty hash does not exist in Redis).
 * <p>
 * A change is announced on the channel of the same name; each instance then reads the hash again. It also reads it at
 * startup (overrides survive restarts) and every {@link #REFRESH_MILLIS} ms, so an instance that missed a message
 * (its subscription was down) still enforces every change within that period.
 */
@Singleton
public class LimitOverrides implements RedisSubscription.Listener {

    private static final Logger LOG = Logger.getLogger(LimitOverrides.class);

    /** The safety-net re-read: the bound on how late an instance that missed the announcement applies a change. */
    static final long REFRESH_MILLIS = 1_000;
    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(2);

    private final PacerRedis redis;
    private final Vertx vertx;
    private final String key;
    private final RedisSubscription subscription;
    private volatile Map<String, ThrottleOverride> current = Map.of();
    /** Bumped on every change of {@link #current}: effective stacks are rebuilt when it moved. */
    private final AtomicLong version = new AtomicLong();
    private long timerId = -1;
    private boolean closed;

    LimitOverrides(PacerRedis redis, PacerConfig config, Vertx vertx) {
        this.redis = redis;
        this.vertx = vertx;
        this.key = config.keyPrefix() + ":throttle-overrides";
        this.subscription = new RedisSubscription(redis, List.of(key),
                "throttling overrides; changes apply at the next periodic re-read", this);
    }

    /** Loads the overrides (bounded: an unreachable Redis delays startup by at most 2 s) and starts listening. */
    void start() {
        synchronized (this) {
            if (closed || timerId >= 0) {
                return;
            }
            // Claimed before the first read, which must not hold the lock: its answer is applied under it.
            timerId = 0;
        }
        try {
            refresh().await().atMost(STARTUP_TIMEOUT.multipliedBy(2));
        } catch (RuntimeException e) {
            LOG.warnf("Pacer could not read the throttling overrides from Redis (%s) at startup: %s; it retries every"
                    + " %d ms", key, e.toString(), REFRESH_MILLIS);
        }
        subscription.open();
        long timer = vertx.setPeriodic(REFRESH_MILLIS, id -> {
            subscription.open();
            refresh().subscribe().with(ignored -> {
            }, failure -> LOG.debugf("Cannot re-read the throttling overrides (%s): %s", key, failure));
        });
        synchronized (this) {
            timerId = timer;
            if (closed) {
                vertx.cancelTimer(timer);
            }
        }
    }

    /** Changes on every change of the overrides. */
    long version() {
        return version.get();
    }

    /** The override of a policy, or {@code null}. */
    ThrottleOverride of(String policy) {
        return current.get(policy);
    }

    /** Every override in force here, by policy name, sorted. */
    public Map<String, ThrottleOverride> all() {
        return new TreeMap<>(current);
    }

    /** Stores the override, applies it here, then announces it; completes when every instance was told. */
    Uni<Void> set(String policy, ThrottleOverride override) {
        return redis.send(Request.cmd(Command.HSET).arg(key).arg(policy).arg(encode(override)))
                .chain(this::refresh).chain(this::announce);
    }

    /** Removes the override (and the hash with the last one), applies it here, then announces it. */
    Uni<Void> clear(String policy) {
        return redis.send(Request.cmd(Command.HDEL).arg(key).arg(policy)).chain(this::refresh).chain(this::announce);
    }

    private Uni<Void> announce() {
        return redis.send(Request.cmd(Command.PUBLISH).arg(key).arg("changed")).replaceWithVoid();
    }

    /** Reads the hash and applies it. */
    Uni<Void> refresh() {
        return redis.send(Request.cmd(Command.HGETALL).arg(key)).invoke(this::apply).replaceWithVoid();
    }

    private void apply(Response hash) {
        Map<String, ThrottleOverride> read = new HashMap<>();
        if (hash != null) {
            for (String policy : hash.getKeys()) {
                String text = hash.get(policy).toString();
                try {
                    read.put(policy, decode(text));
                } catch (RuntimeException e) {
                    LOG.warnf("Ignoring the throttling override of policy \"%s\" in %s: cannot read \"%s\" (%s)",
                            policy, key, text, e.getMessage());
                }
            }
        }
        synchronized (this) {
            if (!read.equals(current)) {
                LOG.infof("Throttling overrides in force: %s", read.isEmpty() ? "none" : new TreeMap<>(read));
                current = Map.copyOf(read);
                version.incrementAndGet();
            }
        }
    }

    @Override
    public void onMessage(String channel, String message) {
        refresh().subscribe().with(ignored -> {
        }, failure -> LOG.debugf("Cannot re-read the throttling overrides (%s): %s", key, failure));
    }

    @Override
    public void onSubscribed() {
        // Changes announced while not subscribed were missed.
        onMessage(key, "subscribed");
    }

    /** {@code l=10;w=1000;b=;e=;s=}: limit, window in ms, burst, enabled, shadow; empty = not overridden. */
    static String encode(ThrottleOverride override) {
        return "l=" + text(override.limit()) + ";w=" + (override.window() == null ? "" : override.window().toMillis())
                + ";b=" + text(override.burst()) + ";e=" + text(override.enabled()) + ";s=" + text(override.shadow());
    }

    static ThrottleOverride decode(String text) {
        Map<String, String> fields = new HashMap<>();
        for (String field : text.split(";")) {
            int equals = field.indexOf('=');
            if (equals > 0 && equals < field.length() - 1) {
                fields.put(field.substring(0, equals), field.substring(equals + 1));
            }
        }
        String window = fields.get("w");
        return new ThrottleOverride(integer(fields.get("l")), window == null ? null
                : Duration.ofMillis(Long.parseLong(window)), integer(fields.get("b")), bool(fields.get("e")),
                bool(fields.get("s")));
    }

    private static String text(Object value) {
        return value == null ? "" : value.toString();
    }

    private static Integer integer(String text) {
        return text == null ? null : Integer.valueOf(text);
    }

    private static Boolean bool(String text) {
        return text == null ? null : Boolean.valueOf(text);
    }

    @PreDestroy
    void close() {
        synchronized (this) {
            closed = true;
            if (timerId > 0) {
                vertx.cancelTimer(timerId);
            }
        }
        subscription.close();
    }
}
