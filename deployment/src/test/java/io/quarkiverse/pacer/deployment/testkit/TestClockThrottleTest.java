package io.quarkiverse.pacer.deployment.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.test.PacerTestClock;
import io.quarkiverse.pacer.test.PacerTestThrottles;
import io.quarkiverse.pacer.throttle.Algorithm;
import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkiverse.pacer.throttle.Throttler;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The test clock moves every throttling algorithm's time: a token bucket refills by exactly the tokens of the time
 * moved, a fixed window starts over, and a CONCURRENCY lease nobody renews expires; Pacer's time is Redis time plus the
 * offset. The windows are an hour long, so real time never refills anything during the test.
 */
class TestClockThrottleTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Api.class));

    @ApplicationScoped
    static class Api {
        @Throttled(name = "bucket", limit = 2, window = "1h")
        public void bucket() {
        }

        @Throttled(name = "window", limit = 3, window = "1h", algorithm = Algorithm.FIXED_WINDOW)
        public void window() {
        }

        @Throttled(name = "lease", limit = 1, window = "1h", algorithm = Algorithm.CONCURRENCY)
        public void lease() {
        }
    }

    @Inject
    Throttler throttler;

    @Inject
    PacerTestClock clock;

    @Inject
    PacerTestThrottles throttles;

    @BeforeEach
    void clean() {
        clock.reset();
        throttles.resetAll();
    }

    @Test
    void bucketRefillsByTheTimeMoved() {
        assertThat(allowed("bucket", 3)).isEqualTo(2);

        clock.advance(Duration.ofMinutes(30)); // 2 tokens an hour: exactly one back
        assertThat(allowed("bucket", 3)).isEqualTo(1);

        clock.advance(Duration.ofHours(5)); // never more than the burst
        assertThat(allowed("bucket", 3)).isEqualTo(2);
    }

    @Test
    void fixedWindowStartsOver() {
        assertThat(allowed("window", 4)).isEqualTo(3);
        clock.advance(Duration.ofHours(1));
        assertThat(allowed("window", 4)).isEqualTo(3);
    }

    @Test
    void leaseNobodyRenewsExpires() {
        // acquire() holds a CONCURRENCY lease until its window ends, with no renewal: a holder that died.
        assertThat(throttler.acquire("lease", "job").allowed()).isTrue();
        assertThat(throttler.acquire("lease", "job").allowed()).isFalse();

        clock.advance(Duration.ofMinutes(59));
        assertThat(throttler.acquire("lease", "job").allowed()).isFalse();

        clock.advance(Duration.ofMinutes(1).plusMillis(1));
        assertThat(throttler.acquire("lease", "job").allowed()).isTrue();
        assertThat(throttler.acquire("lease", "job").allowed()).isFalse();
    }

    @Test
    void nowIsRedisTimePlusTheOffset() {
        Instant before = clock.now();
        clock.advance(Duration.ofDays(3));
        assertThat(clock.offset()).isEqualTo(Duration.ofDays(3));
        Duration moved = Duration.between(before, clock.now());
        assertThat(moved).isBetween(Duration.ofDays(3), Duration.ofDays(3).plusMinutes(1));

        clock.reset();
        assertThat(clock.offset()).isZero();
        assertThat(Duration.between(before, clock.now())).isBetween(Duration.ZERO, Duration.ofMinutes(1));
    }

    @Test
    void resetOfOnePolicyClearsEveryKeyOfItOnly() {
        for (String key : new String[] { "a", "b", "c" }) {
            assertThat(throttler.acquire("bucket", key, 2).allowed()).isTrue();
        }
        assertThat(allowed("window", 3)).isEqualTo(3);

        assertThat(throttles.reset("bucket")).isEqualTo(3);
        for (String key : new String[] { "a", "b", "c" }) {
            assertThat(throttler.acquire("bucket", key, 2).allowed()).as(key).isTrue();
        }
        assertThat(throttler.acquire("window", null).allowed()).as("other policy untouched").isFalse();
    }

    @Test
    void advanceRejectsNegativeAmounts() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> clock.advance(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("The Pacer test clock only moves forward: PT-1S");
    }

    private int allowed(String policy, int calls) {
        int allowed = 0;
        for (int i = 0; i < calls; i++) {
            if (throttler.acquire(policy, null).allowed()) {
                allowed++;
            }
        }
        return allowed;
    }
}
