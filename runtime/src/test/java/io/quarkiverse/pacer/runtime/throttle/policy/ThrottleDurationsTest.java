package io.quarkiverse.pacer.runtime.throttle.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class ThrottleDurationsTest {

    @Test
    void acceptsTheDocumentedForms() {
        assertThat(ThrottleDurations.parse("500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(ThrottleDurations.parse("1s")).isEqualTo(Duration.ofSeconds(1));
        assertThat(ThrottleDurations.parse("5m")).isEqualTo(Duration.ofMinutes(5));
        assertThat(ThrottleDurations.parse("2h")).isEqualTo(Duration.ofHours(2));
        assertThat(ThrottleDurations.parse("1d")).isEqualTo(Duration.ofDays(1));
        assertThat(ThrottleDurations.parse("PT30S")).isEqualTo(Duration.ofSeconds(30));
        assertThat(ThrottleDurations.parse(" 1s ")).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void rejectsWhatIsNoDurationQuotingTheText() {
        assertThatThrownBy(() -> ThrottleDurations.parse("soon")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("\"soon\" is not a duration (use e.g. 500ms, 1s, 5m, 1h, 1d or ISO-8601 such as PT30S)");
        assertThatThrownBy(() -> ThrottleDurations.parse("1x")).hasMessageContaining("\"1x\" is not a duration");
        assertThatThrownBy(() -> ThrottleDurations.parse("")).hasMessage("an empty duration");
        assertThatThrownBy(() -> ThrottleDurations.parse(null)).hasMessage("an empty duration");
    }

    @Test
    void windowIsPositiveWholeMillisecondsAndAtMostTenYears() {
        assertThat(ThrottleDurations.parseWindowMicros("1ms")).isEqualTo(1_000);
        assertThat(ThrottleDurations.parseWindowMicros("1s")).isEqualTo(1_000_000);
        assertThat(ThrottleDurations.parseWindowMicros("3650d")).isEqualTo(3650L * 86_400_000_000L);
        assertThatThrownBy(() -> ThrottleDurations.parseWindowMicros("0s"))
                .hasMessage("\"0s\" is shorter than the minimum window of 1ms");
        assertThatThrownBy(() -> ThrottleDurations.parseWindowMicros("-PT1S"))
                .hasMessage("\"-PT1S\" is shorter than the minimum window of 1ms");
        assertThatThrownBy(() -> ThrottleDurations.parseWindowMicros("PT0.0015S"))
                .hasMessage("\"PT0.0015S\" is not a whole number of milliseconds");
        assertThatThrownBy(() -> ThrottleDurations.parseWindowMicros("3651d"))
                .hasMessage("\"3651d\" is longer than the maximum window of 3650d");
    }

    @Test
    void maxWaitMayBeZeroButNotNegative() {
        assertThat(ThrottleDurations.parseMaxWait("0s")).isZero();
        assertThat(ThrottleDurations.parseMaxWait("250ms")).isEqualTo(Duration.ofMillis(250));
        assertThatThrownBy(() -> ThrottleDurations.parseMaxWait("-PT1S")).hasMessage("\"-PT1S\" is negative");
    }
}
