package io.quarkiverse.pacer.runtime.throttle.policy;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.quarkiverse.pacer.throttle.Algorithm;

class ThrottleRulesTest {

    @Test
    void burstZeroMeansTheLimit() {
        assertThat(ThrottleRules.effectiveBurst(10, 0)).isEqualTo(10);
        assertThat(ThrottleRules.effectiveBurst(10, 3)).isEqualTo(3);
    }

    @Test
    void bucketsHoldTheBurstTheOthersTheLimit() {
        assertThat(ThrottleRules.capacity(Algorithm.TOKEN_BUCKET, 10, 25)).isEqualTo(25);
        assertThat(ThrottleRules.capacity(Algorithm.LEAKY_BUCKET, 10, 25)).isEqualTo(25);
        for (Algorithm algorithm : new Algorithm[] { Algorithm.FIXED_WINDOW, Algorithm.SLIDING_WINDOW,
                Algorithm.SLIDING_LOG, Algorithm.CONCURRENCY }) {
            assertThat(ThrottleRules.capacity(algorithm, 10, 25)).as(algorithm.name()).isEqualTo(10);
            assertThat(ThrottleRules.usesBurst(algorithm)).as(algorithm.name()).isFalse();
        }
    }

    @Test
    void productsBelowTwoToThe52AreExact() {
        long day = 86_400_000_000L;
        assertThat(ThrottleRules.exactnessProblem(Algorithm.TOKEN_BUCKET, 1000, 1000, day, "1d")).isNull();
        assertThat(ThrottleRules.exactnessProblem(Algorithm.SLIDING_WINDOW, 1000, 1000, day, "1d")).isNull();
    }

    @Test
    void productsFromTwoToThe52AreRejectedNamingTheFactor() {
        long window = 1L << 32;
        int limit = 1 << 20;
        assertThat(ThrottleRules.exactnessProblem(Algorithm.SLIDING_WINDOW, limit, 1, window, "w"))
                .startsWith("limit " + limit + " times window w is too large for exact arithmetic with SLIDING_WINDOW");
        assertThat(ThrottleRules.exactnessProblem(Algorithm.TOKEN_BUCKET, 1, limit, window, "w"))
                .startsWith("burst " + limit + " times window w is too large");
        // LEAKY_BUCKET forms burst * ceil(window / limit).
        assertThat(ThrottleRules.exactnessProblem(Algorithm.LEAKY_BUCKET, 1, limit, window, "w"))
                .startsWith("burst " + limit + " times window w is too large");
        assertThat(ThrottleRules.exactnessProblem(Algorithm.LEAKY_BUCKET, limit, limit, window, "w")).isNull();
    }

    @Test
    void theAlgorithmsThatOnlyAddAWindowHaveNoBound() {
        long window = 3650 * 86_400_000_000L;
        for (Algorithm algorithm : new Algorithm[] { Algorithm.FIXED_WINDOW, Algorithm.SLIDING_LOG,
                Algorithm.CONCURRENCY }) {
            assertThat(ThrottleRules.exactnessProblem(algorithm, Integer.MAX_VALUE, Integer.MAX_VALUE, window, "w"))
                    .as(algorithm.name()).isNull();
        }
    }

    @Test
    void invalidSettingsAreLeftToTheirOwnChecks() {
        assertThat(ThrottleRules.exactnessProblem(Algorithm.TOKEN_BUCKET, 0, 0, 1L << 52, "w")).isNull();
        assertThat(ThrottleRules.exactnessProblem(Algorithm.TOKEN_BUCKET, 1, 1, 0, "w")).isNull();
    }
}
