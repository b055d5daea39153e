package io.quarkiverse.pacer.runtime.throttle.policy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;
import org.jboss.logging.Logger;

import io.quarkiverse.pacer.runtime.config.PacerConfig;
import io.quarkiverse.pacer.runtime.config.ThrottleRuntimeConfig;
import io.quarkiverse.pacer.runtime.config.ThrottleRuntimeConfig.PolicyConfig;
import io.quarkiverse.pacer.throttle.Algorithm;

/**
 * Combines the build-time policy definitions with the configuration overrides and checks the result, collecting
 * every problem, each naming its property.
 */
final class ConfiguredPolicies {

    private static final Logger LOG = Logger.getLogger(ConfiguredPolicies.class);

    private ConfiguredPolicies() {
    }

    /**
     * @param problems receives every problem of the throttling configuration
     * @return the policies in force by name, empty when there is any problem
     */
    static Map<String, ThrottlePolicy> resolve(PacerConfig config, ThrottleDefinitions definitions,
            List<String> problems) {
        ThrottleRuntimeConfig throttle = config.throttle();
        String keyPrefix = config.keyPrefix();
        if (!ThrottleKeyLayout.isValidKeyPrefix(keyPrefix)) {
            problems.add("quarkus.pacer.key-prefix must not contain '{' or '}' (Pacer places the Redis Cluster hash"
                    + " tag itself), was \"" + keyPrefix + "\"");
        }
        reservedPolicySettings(problems);
        Map<String, String> groups = ThrottleKeyLayout.globalGroups(globalStacks(definitions));
        Map<String, ThrottlePolicy> resolved = new HashMap<>();
        for (PolicyDefinition definition : definitions.policies()) {
            ThrottlePolicy policy = resolve(definition, throttle.policies().get(definition.getName()), keyPrefix,
                    groups.getOrDefault(definition.getName(), definition.getName()), problems);
            if (policy != null) {
                resolved.put(policy.name, policy);
            }
        }
        for (String name : new TreeSet<>(throttle.policies().keySet())) {
            if (name.equals(ThrottleRuntimeConfig.LOCAL_REJECTIONS) || name.equals(ThrottleRuntimeConfig.LIMITS)) {
                // quarkus.pacer.throttle.local-rejections.* and .limits.* are setting groups, not policies.
                continue;
            }
            if (!resolved.containsKey(name) && definitions.policies().stream().noneMatch(d -> d.getName().equals(name))) {
                PolicyConfig override = throttle.policies().get(name);
                if (override.limit().isEmpty() || override.window().isEmpty()) {
                    problems.add(property(name, override.limit().isEmpty() ? "limit" : "window")
                            + " is required: no @Throttled declares policy \"" + name + "\"");
                    continue;
                }
                PolicyDefinition configured = new PolicyDefinition(name, Algorithm.TOKEN_BUCKET, 0, null, 0, false,
                        "configuration", null);
                ThrottlePolicy policy = resolve(configured, override, keyPrefix, name, problems);
                if (policy != null) {
                    resolved.put(name, policy);
                }
            }
        }
        for (MethodDefinition method : definitions.methods()) {
            for (int i = 0; i < method.getPolicies().size(); i++) {
                ThrottlePolicy policy = resolved.get(method.getPolicies().get(i));
                int cost = method.getCosts().get(i);
                if (policy != null && cost > policy.capacity()) {
                    problems.add(property(policy.name, ThrottleRules.usesBurst(policy.algorithm) ? "burst" : "limit")
                            + ": the capacity " + policy.capacity() + " is below the cost " + cost + " of "
                            + method.getId() + ", which could never pass");
                }
            }
        }
        if (!problems.isEmpty()) {
            return Map.of();
        }
        for (ThrottlePolicy policy : resolved.values()) {
            LOG.debugf("Throttling policy %s: %s, limit %d per %d µs, burst %d%s%s", policy.name, policy.algorithm,
                    policy.limit, policy.windowMicros, policy.burst, policy.shadow ? ", shadow" : "",
                    policy.enabled ? "" : ", disabled");
        }
        return Map.copyOf(resolved);
    }

    /** The policies of every method that throttles on the global key, in declaration order. */
    private static List<List<String>> globalStacks(ThrottleDefinitions definitions) {
        List<List<String>> stacks = new ArrayList<>();
        for (MethodDefinition method : definitions.methods()) {
            if (method.getKeyParameters().isEmpty() && method.getKeyResolver() == null) {
                stacks.add(method.getPolicies());
            }
        }
        return stacks;
    }

    private static ThrottlePolicy resolve(PolicyDefinition definition, PolicyConfig override, String keyPrefix,
            String groupLeader, List<String> problems) {
        String name = definition.getName();
        int before = problems.size();
        int limit = definition.getLimit();
        Algorithm algorithm = definition.getAlgorithm();
        long windowMicros = 0;
        int burst = definition.getBurst();
        boolean shadow = definition.isShadow();
        boolean enabled = true;
        String windowText = definition.getWindow();
        if (override != null) {
            limit = override.limit().orElse(limit);
            if (override.limit().isPresent() && limit <= 0) {
                problems.add(property(name, "limit") + " must be positive, was " + limit);
            }
            algorithm = override.algorithm().orElse(algorithm);
            if (override.burst().isPresent()) {
                burst = override.burst().getAsInt();
                if (burst <= 0) {
                    problems.add(property(name, "burst") + " must be positive, was " + burst);
                }
            }
            shadow = override.shadow().orElse(shadow);
            enabled = override.enabled();
            if (override.window().isPresent()) {
                windowText = ThrottleDurations.text(override.window().get());
                try {
                    windowMicros = ThrottleDurations.windowMicros(override.window().get(), windowText);
                } catch (IllegalArgumentException e) {
                    problems.add(property(name, "window") + ": " + e.getMessage());
                }
            }
        }
        if (problems.size() != before) {
            return null;
        }
        if (windowMicros == 0) {
            windowMicros = ThrottleDurations.parseWindowMicros(windowText);
        }
        String inexact = ThrottleRules.exactnessProblem(algorithm, limit, ThrottleRules.effectiveBurst(limit, burst),
                windowMicros, windowText);
        if (inexact != null) {
            problems.add(property(name, "limit") + ": " + inexact);
            return null;
        }
        return new ThrottlePolicy(name, algorithm, limit, windowMicros, burst, shadow, enabled, keyPrefix, groupLeader,
                definition.getLimitsResolver());
    }

    /**
     * A policy's settings under a reserved name ({@code quarkus.pacer.throttle."limits".limit}): the configuration
     * maps them to the setting group of that name, where they would be ignored without a word.
     */
    private static void reservedPolicySettings(List<String> problems) {
        Config config = ConfigProvider.getConfig();
        for (String name : List.of(ThrottleRuntimeConfig.LIMITS, ThrottleRuntimeConfig.LOCAL_REJECTIONS)) {
            for (String setting : List.of("limit", "window", "burst", "algorithm", "shadow", "reentrant")) {
                if (config.getConfigValue("quarkus.pacer.throttle." + name + "." + setting).getValue() != null
                        || config.getConfigValue(property(name, setting)).getValue() != null) {
                    problems.add(property(name, setting) + ": " + ThrottleRules.reservedNameProblem(name));
                }
            }
        }
    }

    static String property(String policy, String setting) {
        return "quarkus.pacer.throttle.\"" + policy + "\"." + setting;
    }
}
