package io.quarkiverse.pacer.runtime.delay;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ReturnOutcomeTest {

    @Test
    void readsTheCodesOfTheNackAndThrottledScripts() {
        // delayed-nack.lua returns {0|1|2|3, due}, delayed-throttled.lua {0|4, due}.
        assertThat(ReturnOutcome.of(0)).isEqualTo(ReturnOutcome.UNCHANGED);
        assertThat(ReturnOutcome.of(1)).isEqualTo(ReturnOutcome.RETRIED);
        assertThat(ReturnOutcome.of(2)).isEqualTo(ReturnOutcome.DEAD_LETTERED);
        assertThat(ReturnOutcome.of(3)).isEqualTo(ReturnOutcome.RELEASED);
        assertThat(ReturnOutcome.of(4)).isEqualTo(ReturnOutcome.THROTTLED);
        assertThat(ReturnOutcome.of(99)).isEqualTo(ReturnOutcome.UNCHANGED);
    }

    @Test
    void actionsAreTheScriptsArguments() {
        assertThat(ReturnAction.RETRY.argument).isEqualTo("retry");
        assertThat(ReturnAction.DEAD.argument).isEqualTo("dead");
        assertThat(ReturnAction.RELEASE.argument).isEqualTo("release");
    }
}
