package io.quarkiverse.pacer.deployment.throttle;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import jakarta.inject.Inject;

import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.runtime.throttle.engine.ThrottleEngine;
import io.quarkiverse.pacer.throttle.ThrottleDecision;
import io.quarkiverse.pacer.throttle.Throttler;
import io.quarkus.arc.Arc;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A peek takes nothing, so it reports the state as it is: an untouched key has every permit and nothing to reset
 * (it once reported the reset time of the permit it did not take, e.g. 200 ms for an untouched 5/s token bucket).
 */
class ThrottlePeekUntouchedStateTest {

    @RegisterExtension
    static final QuarkusUnitTest config = withPolicies(new QuarkusUnitTest(), "token-bucket", "leaky-bucket",
            "fixed-window", "sliding-window", "sliding-log", "concurrency");

    static QuarkusUnitTest withPolicies(QuarkusUnitTest test, String... algorithms) {
        for (String algorithm : algorithms) {
            test.overrideConfigKey("quarkus.pacer.throttle.\"" + algorithm + "\".limit", "5")
                    .overrideConfigKey("quarkus.pacer.throttle.\"" + algorithm + "\".window", "1s")
                    .overrideConfigKey("quarkus.pacer.throttle.\"" + algorithm + "\".algorithm", algorithm);
        }
        return test;
    }

    @Inject
    Throttler throttler;

    @Test
    void untouchedKeyHasEverythingAndNothingToReset() {
        SoftAssertions softly = new SoftAssertions();
        for (String policy : new String[] { "token-bucket", "leaky-bucket", "fixed-window", "sliding-window",
                "sliding-log", "concurrency" }) {
            ThrottleDecision peek = throttler.peek(policy, "untouched");
            softly.assertThat(peek.allowed()).as(policy).isTrue();
            softly.assertThat(peek.remaining()).as(policy).isEqualTo(5);
            softly.assertThat(peek.resetAfter()).as(policy).isEqualTo(Duration.ZERO);
            softly.assertThat(peek.retryAfter()).as(policy).isEqualTo(Duration.ZERO);
        }
        softly.assertAll();
    }

    @Test
    void peekAfterOnePermitReportsThatPermitOnly() {
        SoftAssertions softly = new SoftAssertions();
        for (String policy : new String[] { "token-bucket", "sliding-log", "concurrency" }) {
            ThrottleDecision taken = throttler.acquire(policy, "one-taken", 1);
            ThrottleDecision peek = throttler.peek(policy, "one-taken");
            softly.assertThat(peek.remaining()).as(policy).isEqualTo(4);
            softly.assertThat(peek.resetAfter()).as(policy).isPositive().isLessThanOrEqualTo(taken.resetAfter());
        }
        softly.assertAll();
    }

    /** With the default 250 ms budget: every decision was made by Redis, none by the fallback. */
    @AfterEach
    void everyDecisionCameFromRedis() {
        assertThat(Arc.container().instance(ThrottleEngine.class).get().fallbackDecisions()).as("fallback decisions")
                .isZero();
    }
}
