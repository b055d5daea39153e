package io.quarkiverse.pacer.runtime.throttle.limits;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import io.quarkiverse.pacer.runtime.config.PacerConfig;
import io.quarkiverse.pacer.runtime.config.ThrottleRuntimeConfig.LimitsConfig;
import io.quarkiverse.pacer.runtime.config.ThrottleRuntimeConfig.OnResolverFailure;
import io.quarkiverse.pacer.runtime.throttle.ResolverBeans;
import io.quarkiverse.pacer.runtime.throttle.engine.DecisionStack;
import io.quarkiverse.pacer.runtime.throttle.policy.MethodDefinition;
import io.quarkiverse.pacer.runtime.throttle.policy.PolicyRegistry;
import io.quarkiverse.pacer.runtime.throttle.policy.ThrottlePolicy;
import io.quarkiverse.pacer.runtime.throttle.policy.ThrottleRules;
import io.quarkiverse.pacer.throttle.ThrottleLimit;
import io.quarkiverse.pacer.throttle.ThrottleLimitResolver;
import io.quarkiverse.pacer.throttle.ThrottleOverride;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;

/**
 * Where a policy's limits come from at the moment of a call, in precedence order: a runtime override
 * ({@link LimitOverrides}) &gt; the key's own limit from the policy's {@link ThrottleLimitResolver} (cached per
 * key, {@link KeyLimitCache}) &gt; the configuration &gt; the annotation (both already in {@link PolicyRegistry}).
 * Hands out the {@link LiveStack} of each method and of each policy of the programmatic API.
 */
@Singleton
public class EffectiveLimits {

    private final PolicyRegistry policies;
    private final LimitOverrides overrides;
    private final LimitsConfig config;
    private final AtomicInteger cachedAnswers = new AtomicInteger();
    private final Map<String, KeyLimitCache> caches = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, LiveStack> singlePolicyStacks = new ConcurrentHashMap<>();

    EffectiveLimits(PolicyRegistry policies, LimitOverrides overrides, PacerConfig config) {
        this.policies = policies;
        this.overrides = overrides;
        this.config = config.throttle().limits();
    }

    /** Loads the runtime overrides before the first call (after the engine warmed Redis up). */
    void onStart(@Observes @Priority(20) StartupEvent event) {
        if (policies.configurationProblems().isEmpty() && !policies.all().isEmpty()) {
            overrides.start();
        }
    }

    public LimitOverrides overrides() {
        return overrides;
    }

    boolean rejectOnFailure() {
        return config.onFailure() == OnResolverFailure.REJECT;
    }

    /** How long a blocked key's rejection holds: until its limit is asked again. */
    long blockedRetryMicros() {
        return config.cacheTtl().toNanos() / 1000;
    }

    /** The live stack of a method's policies (disabled ones included: an override may enable them). */
    public LiveStack stackOf(ThrottlePolicy[] declared, int[] costs) {
        KeyLimitCache[] perKey = new KeyLimitCache[declared.length];
        for (int i = 0; i < declared.length; i++) {
            perKey[i] = cacheOf(declared[i]);
        }
        return new LiveStack(this, declared, costs, perKey);
    }

    /** The live stack of one policy, for the programmatic API. */
    public LiveStack stackOf(String policyName, int cost) {
        if (cost == 1) {
            LiveStack cached = singlePolicyStacks.get(policyName);
            if (cached != null) {
                return cached;
            }
        }
        DecisionStack base = policies.stackOf(policyName, cost);
        LiveStack stack = stackOf(base.policies, base.costs);
        if (cost == 1) {
            singlePolicyStacks.putIfAbsent(policyName, stack);
        }
        return stack;
    }

    private KeyLimitCache cacheOf(ThrottlePolicy policy) {
        if (policy.limitsResolver == null) {
            return null;
        }
        return caches.computeIfAbsent(policy.name, name -> new KeyLimitCache(name, resolver(policy),
                config.cacheTtl(), config.timeout(), config.cacheMaxSize(), cachedAnswers));
    }

    private ThrottleLimitResolver resolver(ThrottlePolicy policy) {
        return ResolverBeans.limitResolver(policies.definitions().resolverClass(policy.limitsResolver),
                "of throttling policy \"" + policy.name + "\"");
    }

    /**
     * Why {@code override} cannot apply to {@code policyName}, or {@code null} when it can: the policy must exist and
     * the limits it results in must fit the script's exact arithmetic and the cost of each of its methods.
     */
    String problem(String policyName, ThrottleOverride override) {
        ThrottlePolicy policy = policies.all().get(policyName);
        if (policy == null) {
            return "Unknown throttling policy \"" + policyName + "\"";
        }
        ThrottlePolicy overridden = apply(policy, override);
        String problem = limitsProblem(overridden);
        if (problem != null) {
            return problem;
        }
        for (MethodDefinition method : policies.definitions().methods()) {
            int at = method.getPolicies().indexOf(policyName);
            if (at >= 0 && method.getCosts().get(at) > overridden.capacity()) {
                return "the capacity " + overridden.capacity() + " of throttling policy \"" + policyName
                        + "\" would be below the cost " + method.getCosts().get(at) + " of " + method.getId();
            }
        }
        return null;
    }

    /** The policy with an override's limit, window, burst and shadow (enabled is the caller's concern). */
    static ThrottlePolicy apply(ThrottlePolicy policy, ThrottleOverride override) {
        if (override == null) {
            return policy;
        }
        int limit = override.limit() != null ? override.limit() : policy.limit;
        long window = override.window() != null ? override.window().toNanos() / 1000 : policy.windowMicros;
        int burst = override.burst() != null ? override.burst() : policy.declaredBurst;
        boolean shadow = override.shadow() != null ? override.shadow() : policy.shadow;
        return policy.withLimits(limit, window, burst, shadow);
    }

    /** Why the limits of a policy variant cannot be computed exactly by the script, or {@code null}. */
    static String limitsProblem(ThrottlePolicy policy) {
        return ThrottleRules.exactnessProblem(policy.algorithm, policy.limit, policy.burst, policy.windowMicros,
                Duration.ofNanos(policy.windowMicros * 1000).toString());
    }

    /** Validates, stores and announces an override. */
    public Uni<Void> override(String policy, ThrottleOverride override) {
        String problem = problem(policy, override);
        if (problem != null) {
            return Uni.createFrom().failure(new IllegalArgumentException("Cannot override throttling policy \"" + policy
                    + "\" with " + override + ": " + problem));
        }
        return overrides.set(policy, override);
    }

    public Uni<Void> clearOverride(String policy) {
        if (!policies.all().containsKey(policy)) {
            return Uni.createFrom().failure(new IllegalArgumentException("Unknown throttling policy \"" + policy + "\""));
        }
        return overrides.clear(policy);
    }

    /**
     * The window decisions of {@code policy} for a key use now: the runtime override's, else the key's own (its
     * resolver's cached answer), else the policy's; in µs.
     */
    public long windowMicros(ThrottlePolicy policy, String encodedKey) {
        ThrottleOverride override = overrides.of(policy.name);
        if (override != null && override.window() != null) {
            return override.window().toNanos() / 1000;
        }
        KeyLimitCache cache = caches.get(policy.name);
        Object answer = cache == null ? null : cache.cached(encodedKey);
        if (answer instanceof ThrottleLimit limit && limit.window().isPresent()) {
            return limit.window().get().toNanos() / 1000;
        }
        return policy.windowMicros;
    }

    /** The runtime overrides in force on this instance, by policy name, for the Dev UI. */
    public Map<String, ThrottleOverride> overridesInForce() {
        return overrides.all();
    }

    /** The policy with a runtime override's limit, window, burst and shadow, for the Dev UI. */
    public ThrottlePolicy withOverride(ThrottlePolicy policy, ThrottleOverride override) {
        return apply(policy, override);
    }
}
