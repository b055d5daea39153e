package io.quarkiverse.pacer.runtime.delay.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class NackOutcomeTest {

    @Test
    void readsTheCodesOfTheNackAndThrottledScripts() {
        // delayed-nack.lua returns {0|1|2|3, due}, delayed-throttled.lua {0|4, due}.
        assertThat(NackOutcome.of(0)).isEqualTo(NackOutcome.UNCHANGED);
        assertThat(NackOutcome.of(1)).isEqualTo(NackOutcome.RETRIED);
        assertThat(NackOutcome.of(2)).isEqualTo(NackOutcome.DEAD_LETTERED);
        assertThat(NackOutcome.of(3)).isEqualTo(NackOutcome.RELEASED);
        assertThat(NackOutcome.of(4)).isEqualTo(NackOutcome.THROTTLED);
        assertThat(NackOutcome.of(99)).isEqualTo(NackOutcome.UNCHANGED);
    }

    @Test
    void actionsAreTheScriptsArguments() {
        assertThat(NackAction.RETRY.argument).isEqualTo("retry");
        assertThat(NackAction.DEAD.argument).isEqualTo("dead");
        assertThat(NackAction.RELEASE.argument).isEqualTo("release");
    }
}
