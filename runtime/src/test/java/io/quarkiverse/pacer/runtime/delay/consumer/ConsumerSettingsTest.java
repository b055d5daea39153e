package io.quarkiverse.pacer.runtime.delay.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quarkiverse.pacer.runtime.config.DelayedRuntimeConfig;
import io.quarkiverse.pacer.runtime.config.PacerConfig;
import io.quarkiverse.pacer.runtime.delay.DelayedConsumerDefinition;
import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;

class ConsumerSettingsTest {

    @Test
    void annotationSettingsApplyWithoutConfiguration() {
        ConsumerSettings settings = ConsumerSettings.of(orders(), delayed(Map.of()));
        assertThat(settings).isEqualTo(new ConsumerSettings(settings.definition(), true, 4, 3, 250, 20_000, 100));
        assertThat(settings.queue()).isEqualTo("orders");
    }

    @Test
    void configurationOverridesEachSetting() {
        ConsumerSettings settings = ConsumerSettings.of(orders(), delayed(Map.of(
                "quarkus.pacer.delayed.batch-size", "7",
                "quarkus.pacer.delayed.\"orders\".concurrency", "9",
                "quarkus.pacer.delayed.\"orders\".max-attempts", "2",
                "quarkus.pacer.delayed.\"orders\".backoff", "5s",
                "quarkus.pacer.delayed.\"orders\".lease", "1m")));
        assertThat(settings).isEqualTo(new ConsumerSettings(settings.definition(), true, 9, 2, 5_000, 60_000, 7));
    }

    @Test
    void overridesOfAnotherQueueDoNotApply() {
        ConsumerSettings settings = ConsumerSettings.of(orders(), delayed(Map.of(
                "quarkus.pacer.delayed.\"invoices\".concurrency", "9",
                "quarkus.pacer.delayed.\"invoices\".enabled", "false")));
        assertThat(settings.concurrency()).isEqualTo(4);
        assertThat(settings.enabled()).isTrue();
    }

    @Test
    void disabledByTheQueueOrByTheInstance() {
        assertThat(ConsumerSettings.of(orders(), delayed(Map.of("quarkus.pacer.delayed.\"orders\".enabled", "false")))
                .enabled()).isFalse();
        assertThat(ConsumerSettings.of(orders(), delayed(Map.of("quarkus.pacer.delayed.consumer.enabled", "false")))
                .enabled()).isFalse();
        assertThat(ConsumerSettings.of(orders(), delayed(Map.of("quarkus.pacer.delayed.consumer.enabled", "false",
                "quarkus.pacer.delayed.\"orders\".concurrency", "2"))).enabled()).isFalse();
    }

    @Test
    void prefetchLimitAddsUpToABatchToTheRunningHandlers() {
        assertThat(settings(1, 100).prefetchLimit()).isEqualTo(1 + 8);
        assertThat(settings(16, 100).prefetchLimit()).isEqualTo(16 + 16);
        assertThat(settings(16, 5).prefetchLimit()).isEqualTo(16 + 5);
        assertThat(settings(1, 1).prefetchLimit()).isEqualTo(2);
    }

    @Test
    void leasesAreRenewedThreeTimesPerLeaseAtMostTwentyTimesASecond() {
        assertThat(withLease(30_000).renewalPeriodMillis()).isEqualTo(10_000);
        assertThat(withLease(ConsumerSettings.MIN_LEASE.toMillis()).renewalPeriodMillis()).isEqualTo(50);
    }

    private static ConsumerSettings settings(int concurrency, int batchSize) {
        return new ConsumerSettings(orders(), true, concurrency, 5, 1000, 30_000, batchSize);
    }

    private static ConsumerSettings withLease(long leaseMillis) {
        return new ConsumerSettings(orders(), true, 1, 5, 1000, leaseMillis, 100);
    }

    private static DelayedConsumerDefinition orders() {
        DelayedConsumerDefinition definition = new DelayedConsumerDefinition();
        definition.setQueue("orders");
        definition.setConcurrency(4);
        definition.setMaxAttempts(3);
        definition.setBackoffMillis(250);
        definition.setLeaseMillis(20_000);
        return definition;
    }

    private static DelayedRuntimeConfig delayed(Map<String, String> properties) {
        SmallRyeConfig config = new SmallRyeConfigBuilder()
                .withMapping(PacerConfig.class)
                .withConverter(Duration.class, 100, new DurationConverter()) // "5s", as Quarkus reads it
                .withSources(new PropertiesConfigSource(properties, "test", 100))
                .build();
        return config.getConfigMapping(PacerConfig.class).delayed();
    }
}
