package io.quarkiverse.pacer.runtime.delay;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RetryDelayTest {

    @Test
    void doublesFromTwentyMillisecondsUpToOneSecond() {
        assertThat(RetryDelay.afterFailures(1, 0)).isEqualTo(20);
        assertThat(RetryDelay.afterFailures(2, 0)).isEqualTo(40);
        assertThat(RetryDelay.afterFailures(3, 0)).isEqualTo(80);
        assertThat(RetryDelay.afterFailures(6, 0)).isEqualTo(640);
        assertThat(RetryDelay.afterFailures(7, 0)).isEqualTo(1000);
        assertThat(RetryDelay.afterFailures(100, 0)).isEqualTo(1000);
        assertThat(RetryDelay.afterFailures(Integer.MAX_VALUE, 0)).isEqualTo(1000);
    }

    @Test
    void jitterAddsUpToAFifth() {
        assertThat(RetryDelay.afterFailures(1, 0.5)).isEqualTo(22);
        assertThat(RetryDelay.afterFailures(7, 0.999)).isEqualTo(1199);
        for (int failures = 1; failures < 20; failures++) {
            long base = RetryDelay.afterFailures(failures, 0);
            assertThat(RetryDelay.afterFailures(failures, 0.9999)).isBetween(base, base + base / 5);
        }
    }

    @Test
    void noFailureCountsAsTheFirst() {
        assertThat(RetryDelay.afterFailures(0, 0)).isEqualTo(20);
        assertThat(RetryDelay.afterFailures(-3, 0)).isEqualTo(20);
    }
}
