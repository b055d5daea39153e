package io.quarkiverse.pacer.runtime.throttle.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.quarkiverse.pacer.throttle.ThrottleLimit;
import io.quarkiverse.pacer.throttle.ThrottleOverride;

/**
 * How a runtime override is stored in Redis (every setting optional) and the values a limit or an override accepts.
 */
class LimitOverridesCodecTest {

    @Test
    void roundTripsEverySetting() {
        ThrottleOverride all = ThrottleOverride.of().withLimit(10).withWindow(Duration.ofSeconds(2)).withBurst(30)
                .withEnabled(false).withShadow(true);
        assertThat(LimitOverrides.encode(all)).isEqualTo("l=10;w=2000;b=30;e=false;s=true");
        assertThat(LimitOverrides.decode(LimitOverrides.encode(all))).isEqualTo(all);
    }

    @Test
    void roundTripsUnsetSettings() {
        ThrottleOverride limitOnly = ThrottleOverride.of().withLimit(3);
        assertThat(LimitOverrides.encode(limitOnly)).isEqualTo("l=3;w=;b=;e=;s=");
        assertThat(LimitOverrides.decode("l=3;w=;b=;e=;s=")).isEqualTo(limitOnly);
        assertThat(LimitOverrides.decode("")).isEqualTo(ThrottleOverride.of());
        assertThat(ThrottleOverride.of().isEmpty()).isTrue();
    }

    @Test
    void rejectsInvalidValues() {
        assertThatThrownBy(() -> LimitOverrides.decode("l=0")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("limit must be positive, was 0");
        assertThatThrownBy(() -> ThrottleOverride.of().withWindow(Duration.ofNanos(1_500_000)))
                .hasMessageContaining("whole milliseconds");
        assertThatThrownBy(() -> ThrottleLimit.of(0)).hasMessage("limit must be positive, was 0");
        assertThatThrownBy(() -> ThrottleLimit.of(5, Duration.ZERO)).hasMessageContaining("at least 1 ms");
        assertThat(ThrottleLimit.of(5, Duration.ofMinutes(1))).isEqualTo(ThrottleLimit.of(5, Duration.ofMinutes(1)))
                .hasToString("5 per PT1M");
        assertThat(ThrottleLimit.unlimited().isUnlimited()).isTrue();
        assertThat(ThrottleLimit.blocked().isBlocked()).isTrue();
    }
}
