package io.quarkiverse.pacer.benchmarks.throttle;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.distributed.BucketProxy;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.redis.lettuce.Bucket4jLettuce;
import io.github.bucket4j.redis.lettuce.cas.LettuceBasedProxyManager;
import io.lettuce.core.RedisClient;

/**
 * Bucket4j's token bucket stored in Redis through Lettuce (its compare-and-swap proxy manager, one multiplexed
 * connection as Lettuce intends).
 */
public final class Bucket4jLettucePeer implements RateLimiterPeer {

    private final RedisClient client;
    private final LettuceBasedProxyManager<byte[]> proxyManager;
    private BucketProxy[] buckets = new BucketProxy[0];

    public Bucket4jLettucePeer(String redisUri) {
        this.client = RedisClient.create(redisUri);
        this.proxyManager = Bucket4jLettuce.casBasedBuilder(client)
                .expirationAfterWrite(ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(
                        Duration.ofSeconds(10)))
                .build();
    }

    @Override
    public String name() {
        return "Bucket4j Lettuce";
    }

    @Override
    public void prepare(ThrottleLimits limits, String[] keys) {
        BucketConfiguration configuration = BucketConfiguration.builder()
                .addLimit(limit -> limits == ThrottleLimits.ADMITTED
                        ? limit.capacity(limits.limit()).refillGreedy(limits.limit(), limits.window())
                        : limit.capacity(limits.limit()).refillIntervally(limits.limit(), limits.window()))
                .build();
        buckets = new BucketProxy[keys.length];
        for (int i = 0; i < keys.length; i++) {
            byte[] key = ("bucket4j:" + limits.label() + ":" + keys[i]).getBytes(StandardCharsets.UTF_8);
            buckets[i] = proxyManager.builder().build(key, () -> configuration);
        }
    }

    @Override
    public boolean tryAcquire(int keyIndex) {
        return buckets[keyIndex].tryConsume(1);
    }

    @Override
    public void close() {
        client.shutdown();
    }
}
