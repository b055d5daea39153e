package io.quarkiverse.pacer.runtime.delay.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

class ConsumerCountersTest {

    @Test
    void claimsAreCounted() {
        ConsumerCounters counters = new ConsumerCounters();
        counters.claimed(3, 1);
        counters.claimed(7, 0);
        counters.claimed(0, 2);
        counters.lateness(40);
        counters.lateness(15);
        assertThat(counters.snapshot("orders"))
                .isEqualTo(new DelayedConsumerStats("orders", 3, 7, 10, 0, 0, 0, 0, 3, 40, 0));
    }

    @Test
    void shardsAddUpExceptTheLargestClaimAndTheLateness() {
        DelayedConsumerStats a = new DelayedConsumerStats("orders", 1, 5, 5, 4, 1, 1, 0, 2, 30, 1);
        DelayedConsumerStats b = new DelayedConsumerStats("orders", 2, 3, 6, 6, 2, 1, 1, 0, 90, 2);
        assertThat(ConsumerCounters.sum("orders", List.of(a, b)))
                .isEqualTo(new DelayedConsumerStats("orders", 3, 5, 11, 10, 3, 2, 1, 2, 90, 3));
        assertThat(ConsumerCounters.sum("orders", List.of()))
                .isEqualTo(new DelayedConsumerStats("orders", 0, 0, 0, 0, 0, 0, 0, 0, 0, 0));
    }
}
