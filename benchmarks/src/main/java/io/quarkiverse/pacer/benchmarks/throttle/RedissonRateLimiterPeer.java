package io.quarkiverse.pacer.benchmarks.throttle;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.redisson.Redisson;
import org.redisson.api.RFuture;
import org.redisson.api.RRateLimiter;
import org.redisson.api.RateType;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * Redisson's {@code RRateLimiter} (one limiter object per key, {@link RateType#OVERALL}, so all clients share it).
 */
public final class RedissonRateLimiterPeer implements RateLimiterPeer {

    private final RedissonClient redisson;
    private RRateLimiter[] limiters = new RRateLimiter[0];

    public RedissonRateLimiterPeer(String redisUri, int connections) {
        Config config = new Config();
        config.useSingleServer()
                .setAddress(redisUri)
                .setConnectionPoolSize(connections)
                .setConnectionMinimumIdleSize(connections);
        this.redisson = Redisson.create(config);
    }

    public RedissonClient client() {
        return redisson;
    }

    @Override
    public String name() {
        return "Redisson RRateLimiter";
    }

    @Override
    public void prepare(ThrottleLimits limits, String[] keys) throws Exception {
        limiters = new RRateLimiter[keys.length];
        List<RFuture<Boolean>> pending = new ArrayList<>(keys.length);
        for (int i = 0; i < keys.length; i++) {
            limiters[i] = redisson.getRateLimiter("redisson-rl:" + limits.label() + ":" + keys[i]);
            pending.add(limiters[i].trySetRateAsync(RateType.OVERALL, limits.limit(), limits.window()));
        }
        for (RFuture<Boolean> future : pending) {
            future.toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
    }

    @Override
    public boolean tryAcquire(int keyIndex) {
        return limiters[keyIndex].tryAcquire();
    }

    @Override
    public void close() {
        redisson.shutdown();
    }
}
