package io.quarkiverse.pacer.runtime.throttle.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.quarkiverse.pacer.throttle.Algorithm;

class RateLimitHeadersTest {

    @Test
    void onePolicyGivesItsQuotaWindowRemainingAndResetInWholeSeconds() {
        RateLimitHeaders headers = new RateLimitHeaders().add("search", 100, Algorithm.SLIDING_WINDOW, 60_000_000, 42,
                1_500_000);
        assertThat(headers.policy()).isEqualTo("\"search\";q=100;w=60");
        assertThat(headers.state()).isEqualTo("\"search\";r=42;t=2");
        assertThat(headers.isEmpty()).isFalse();
    }

    @Test
    void stackedPoliciesAreListMembersInOrder() {
        RateLimitHeaders headers = new RateLimitHeaders()
                .add("minute", 100, Algorithm.TOKEN_BUCKET, 60_000_000, 99, 600_000)
                .add("second", 5, Algorithm.FIXED_WINDOW, 1_000_000, 4, 1_000_000);
        assertThat(headers.policy()).isEqualTo("\"minute\";q=100;w=60, \"second\";q=5;w=1");
        assertThat(headers.state()).isEqualTo("\"minute\";r=99;t=1, \"second\";r=4;t=1");
    }

    @Test
    void concurrencyHasNoWindowAndRemainingNeverGoesNegative() {
        RateLimitHeaders headers = new RateLimitHeaders().add("in-flight", 3, Algorithm.CONCURRENCY, 30_000_000, -1,
                0);
        assertThat(headers.policy()).isEqualTo("\"in-flight\";q=3");
        assertThat(headers.state()).isEqualTo("\"in-flight\";r=0;t=0");
    }

    @Test
    void noPolicyIsEmpty() {
        assertThat(new RateLimitHeaders().isEmpty()).isTrue();
    }

    @Test
    void secondsRoundUp() {
        assertThat(RateLimitHeaders.ceilSeconds(0)).isZero();
        assertThat(RateLimitHeaders.ceilSeconds(-5)).isZero();
        assertThat(RateLimitHeaders.ceilSeconds(1)).isEqualTo(1);
        assertThat(RateLimitHeaders.ceilSeconds(1_000_000)).isEqualTo(1);
        assertThat(RateLimitHeaders.ceilSeconds(1_000_001)).isEqualTo(2);
    }

    @Test
    void policyNamesAreStructuredFieldStrings() {
        assertThat(RateLimitHeaders.sfString("a\"b\\c")).isEqualTo("\"a\\\"b\\\\c\"");
        assertThat(RateLimitHeaders.sfString("é\n")).isEqualTo("\"??\"");
    }
}
