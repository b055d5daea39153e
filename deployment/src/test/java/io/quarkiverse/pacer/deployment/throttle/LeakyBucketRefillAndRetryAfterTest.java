package io.quarkiverse.pacer.deployment.throttle;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/**
 * LEAKY_BUCKET refills continuously at 5 permits per 5 s, measured on the Redis clock: once empty, the retry-after is at
 * most one permit interval (1 s), is never early (a retry before it is still rejected), and a retry once Redis time
 * has passed it is admitted. The key's TTL covers the state.
 */
class LeakyBucketRefillAndRetryAfterTest extends BucketRefillAndRetryAfter {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClass(BucketRefillAndRetryAfter.class))
            .overrideConfigKey("quarkus.pacer.throttle.\"refill\".limit", "5")
            .overrideConfigKey("quarkus.pacer.throttle.\"refill\".window", "5s")
            .overrideConfigKey("quarkus.pacer.throttle.\"refill\".algorithm", "LEAKY_BUCKET");

    @Override
    String keySuffix() {
        return "lb";
    }
}
