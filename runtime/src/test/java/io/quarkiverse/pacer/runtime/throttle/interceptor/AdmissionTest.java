package io.quarkiverse.pacer.runtime.throttle.interceptor;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class AdmissionTest {

    /** A timer of whole milliseconds that fires within its due millisecond still retries after the retry-after. */
    @Test
    void waitIsNeverShorterThanTheRetryAfter() {
        assertThat(Admission.waitFor(1)).isEqualTo(Duration.ofMillis(2));
        assertThat(Admission.waitFor(1_000)).isEqualTo(Duration.ofMillis(2));
        assertThat(Admission.waitFor(1_001)).isEqualTo(Duration.ofMillis(3));
        assertThat(Admission.waitFor(599_600)).isEqualTo(Duration.ofMillis(601));
    }
}
