package io.quarkiverse.pacer.runtime.throttle.policy;

import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.inject.Singleton;

import io.quarkiverse.pacer.runtime.config.PacerConfig;
import io.quarkiverse.pacer.runtime.redis.LuaScript;
import io.quarkiverse.pacer.runtime.throttle.engine.DecisionStack;
import io.quarkiverse.pacer.runtime.throttle.engine.ThrottleScripts;
import io.quarkiverse.pacer.runtime.throttle.engine.ThrottleScripts.Entry;
import io.quarkiverse.pacer.throttle.Algorithm;
import io.quarkus.runtime.configuration.ConfigurationException;

/**
 * The policies in force: the build-time definitions with the configuration overrides applied, resolved once when the
 * bean is created. An invalid configuration leaves no policies; its problems are reported at startup
 * ({@code PacerConfigValidation}) together with the other Pacer settings.
 */
@Singleton
public class PolicyRegistry {

    private final ThrottleDefinitions definitions;
    private final List<String> problems;
    private final Map<String, ThrottlePolicy> policies;
    private final ConcurrentHashMap<String, DecisionStack> singlePolicyStacks = new ConcurrentHashMap<>();

    PolicyRegistry(PacerConfig config, ThrottleDefinitions definitions) {
        this.definitions = definitions;
        List<String> found = new ArrayList<>();
        this.policies = ConfiguredPolicies.resolve(config, definitions, found);
        this.problems = List.copyOf(found);
    }

    /** Every problem of the throttling configuration, each naming its property; empty when it is valid. */
    public List<String> configurationProblems() {
        return problems;
    }

    /**
     * The policies in force by name.
     *
     * @throws ConfigurationException when the configuration is invalid (startup fails with it first)
     */
    public Map<String, ThrottlePolicy> all() {
        if (!problems.isEmpty()) {
            throw new ConfigurationException("Invalid Pacer throttling configuration:\n - "
                    + String.join("\n - ", problems));
        }
        return policies;
    }

    public ThrottleDefinitions definitions() {
        return definitions;
    }

    /** The stack of one policy, for the programmatic API. */
    public DecisionStack stackOf(String policyName, int cost) {
        if (cost <= 0) {
            throw new IllegalArgumentException("cost must be positive, was " + cost);
        }
        if (cost == 1) {
            DecisionStack cached = singlePolicyStacks.get(policyName);
            if (cached != null) {
                return cached;
            }
        }
        ThrottlePolicy policy = all().get(policyName);
        if (policy == null) {
            throw new IllegalArgumentException("Unknown throttling policy \"" + policyName
                    + "\": declare it with @Throttled(name = \"" + policyName
                    + "\", ...) or configure quarkus.pacer.throttle.\""
                    + policyName + "\".limit and .window");
        }
        if (cost > policy.capacity()) {
            throw new IllegalArgumentException("cost " + cost + " exceeds the capacity " + policy.capacity()
                    + " of throttling policy \"" + policyName + "\": it could never be granted");
        }
        DecisionStack stack = new DecisionStack(new ThrottlePolicy[] { policy }, new int[] { cost });
        if (cost == 1) {
            singlePolicyStacks.putIfAbsent(policyName, stack);
        }
        return stack;
    }

    /**
     * The scripts of the annotated stacks and of each policy alone (programmatic API), each for one call and for a
     * batch of calls, the single-policy script of each policy's algorithm, and the one with every
     * algorithm (for other clients speaking the script's protocol), in a stable order.
     */
    public Collection<LuaScript> scriptsInUse() {
        Map<String, LuaScript> scripts = new TreeMap<>();
        scripts.put(ThrottleScripts.ALL.name(), ThrottleScripts.ALL);
        Map<String, ThrottlePolicy> policies = all();
        for (ThrottlePolicy policy : policies.values()) {
            EnumSet<Algorithm> algorithm = EnumSet.of(policy.algorithm);
            for (LuaScript script : List.of(ThrottleScripts.of(algorithm), ThrottleScripts.of(algorithm, Entry.BATCH))) {
                scripts.put(script.name(), script);
            }
            for (LuaScript single : new LuaScript[] { ThrottleScripts.singlePolicy(policy.algorithm),
                    ThrottleScripts.singlePolicyBatch(policy.algorithm) }) {
                if (single != null) {
                    scripts.put(single.name(), single);
                }
            }
        }
        for (MethodDefinition method : definitions.methods()) {
            EnumSet<Algorithm> algorithms = EnumSet.noneOf(Algorithm.class);
            for (String name : method.getPolicies()) {
                ThrottlePolicy policy = policies.get(name);
                if (policy != null && policy.enabled) {
                    algorithms.add(policy.algorithm);
                }
            }
            if (!algorithms.isEmpty()) {
                for (LuaScript script : List.of(ThrottleScripts.of(algorithms), ThrottleScripts.of(algorithms, Entry.BATCH))) {
                    scripts.put(script.name(), script);
                }
            }
        }
        return scripts.values();
    }
}
