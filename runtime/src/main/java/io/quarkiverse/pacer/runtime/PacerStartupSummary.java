package io.quarkiverse.pacer.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.quarkiverse.pacer.runtime.delay.consumer.ConsumerSettings;
import io.quarkiverse.pacer.runtime.delay.consumer.DelayedConsumers;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.runtime.throttle.policy.PolicyRegistry;
import io.quarkiverse.pacer.runtime.throttle.policy.ThrottlePolicy;
import io.quarkus.runtime.StartupEvent;

/**
 * Logs one INFO line at startup saying what Pacer enforces and consumes, so a glance at the log shows whether the
 * configuration overrides took effect. Runs after the policies are resolved and the consumers started.
 */
@Singleton
public class PacerStartupSummary {

    private static final Logger LOG = Logger.getLogger(PacerStartupSummary.class);

    /** Longest lists written in full; longer ones end with a count. */
    static final int MAX_LISTED = 12;

    void onStart(@Observes @Priority(5000) StartupEvent event, PolicyRegistry policies, DelayedConsumers consumers,
            PacerRedis redis) {
        String summary = summary(new TreeMap<>(policies.all()).values(), consumers.consumers());
        if (summary != null) {
            LOG.infof("Pacer on Redis client %s: %s", redis.clientDisplayName(), summary);
        }
    }

    static String summary(Iterable<ThrottlePolicy> policies, List<ConsumerSettings> queues) {
        List<String> policyTexts = new ArrayList<>();
        for (ThrottlePolicy policy : policies) {
            policyTexts.add(policy.name() + " " + policy.limit() + "/" + window(policy.windowMicros()) + " "
                    + policy.algorithm() + (policy.limitsResolver() == null ? "" : " limits per key")
                    + (policy.shadow() ? " shadow" : "") + (policy.enabled() ? "" : " disabled"));
        }
        List<String> queueTexts = new ArrayList<>();
        for (ConsumerSettings queue : queues) {
            queueTexts.add(queue.queue() + (queue.enabled() ? " (concurrency " + queue.concurrency() + ")"
                    : " (not consumed here)"));
        }
        if (policyTexts.isEmpty() && queueTexts.isEmpty()) {
            return null;
        }
        return count(policyTexts.size(), "throttle policy", "throttle policies") + list(policyTexts) + "; "
                + count(queueTexts.size(), "delay queue", "delay queues") + list(queueTexts);
    }

    private static String count(int n, String one, String many) {
        return n + " " + (n == 1 ? one : many);
    }

    private static String list(List<String> items) {
        if (items.isEmpty()) {
            return "";
        }
        if (items.size() <= MAX_LISTED) {
            return " [" + String.join(", ", items) + "]";
        }
        return " [" + String.join(", ", items.subList(0, MAX_LISTED)) + ", and " + (items.size() - MAX_LISTED)
                + " more]";
    }

    /** {@code 10s}, {@code 1h}, {@code 500ms}: the largest unit that divides the window exactly. */
    static String window(long micros) {
        long[] units = { 86_400_000_000L, 3_600_000_000L, 60_000_000L, 1_000_000L, 1_000L };
        String[] names = { "d", "h", "m", "s", "ms" };
        for (int i = 0; i < units.length; i++) {
            if (micros >= units[i] && micros % units[i] == 0) {
                return micros / units[i] + names[i];
            }
        }
        return micros + "µs";
    }
}
