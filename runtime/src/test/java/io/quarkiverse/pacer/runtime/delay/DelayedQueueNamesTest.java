package io.quarkiverse.pacer.runtime.delay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class DelayedQueueNamesTest {

    @Test
    void ordinaryNamesAreValid() {
        for (String name : new String[] { "orders", "a", "orders:eu", "orders#1", "with space", "ünïcode", "a.b-c_d" }) {
            assertThat(DelayedQueueNames.isValid(name)).as(name).isTrue();
            assertThatCode(() -> DelayedQueueNames.check(name)).doesNotThrowAnyException();
        }
    }

    @Test
    void emptyOrMissingNameIsInvalid() {
        assertThat(DelayedQueueNames.isValid("")).isFalse();
        assertThat(DelayedQueueNames.isValid(null)).isFalse();
        assertThatThrownBy(() -> DelayedQueueNames.check("")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Delay queue name must not be empty");
        assertThatThrownBy(() -> DelayedQueueNames.check(null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Delay queue name must not be empty");
    }

    @Test
    void bracesWouldBreakTheHashTag() {
        for (String name : new String[] { "{orders}", "a{b", "a}b", "}" }) {
            assertThat(DelayedQueueNames.isValid(name)).as(name).isFalse();
            assertThatThrownBy(() -> DelayedQueueNames.check(name)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("Delay queue name must not contain '{' or '}': " + name);
        }
    }
}
