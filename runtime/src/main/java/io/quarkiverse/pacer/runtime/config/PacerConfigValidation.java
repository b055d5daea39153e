package io.quarkiverse.pacer.runtime.config;

import java.util.ArrayList;
import java.util.List;

import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import io.quarkiverse.pacer.runtime.delay.consumer.DelayedConsumers;
import io.quarkiverse.pacer.runtime.throttle.policy.PolicyRegistry;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.runtime.configuration.ConfigurationException;

/**
 * Checks the whole Pacer configuration at startup, before any other Pacer startup work, and fails once with every
 * problem (throttling policies and delay queues alike), each naming its property: a user fixes them all in one go.
 */
@Singleton
public class PacerConfigValidation {

    void validate(@Observes @Priority(5) StartupEvent event, PacerConfig config, PolicyRegistry throttle) {
        List<String> problems = new ArrayList<>(throttle.configurationProblems());
        problems.addAll(DelayedConsumers.configurationProblems(config.delayed()));
        if (!problems.isEmpty()) {
            throw new ConfigurationException("Invalid Pacer configuration:\n - " + String.join("\n - ", problems));
        }
    }
}
