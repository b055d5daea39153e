package io.quarkiverse.pacer.runtime.dev.ui;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import io.quarkiverse.pacer.runtime.config.PacerConfig;
import io.quarkiverse.pacer.runtime.config.ThrottleRuntimeConfig.PolicyConfig;
import io.quarkiverse.pacer.runtime.throttle.limits.EffectiveLimits;
import io.quarkiverse.pacer.runtime.throttle.policy.DecisionCounts;
import io.quarkiverse.pacer.runtime.throttle.policy.MethodDefinition;
import io.quarkiverse.pacer.runtime.throttle.policy.PolicyDefinition;
import io.quarkiverse.pacer.runtime.throttle.policy.PolicyRegistry;
import io.quarkiverse.pacer.runtime.throttle.policy.ThrottleDefinitions;
import io.quarkiverse.pacer.runtime.throttle.policy.ThrottleDurations;
import io.quarkiverse.pacer.runtime.throttle.policy.ThrottlePolicy;
import io.quarkiverse.pacer.runtime.throttle.policy.ThrottleRules;
import io.quarkiverse.pacer.throttle.ReactiveThrottler;
import io.quarkiverse.pacer.throttle.ThrottleDecision;
import io.quarkiverse.pacer.throttle.ThrottleOverride;
import io.smallrye.common.annotation.NonBlocking;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * The Dev UI's JSON-RPC methods of the throttling page (dev mode only): effective policies with the source of each
 * value, runtime overrides, decision counts, and a key inspector that peeks without taking a permit.
 */
public class PacerThrottlingJsonRpcService {

    private final PolicyRegistry policies;
    private final EffectiveLimits limits;
    private final ReactiveThrottler throttler;
    private final ThrottleDefinitions definitions;
    private final PacerConfig config;

    PacerThrottlingJsonRpcService(PolicyRegistry policies, EffectiveLimits limits, ReactiveThrottler throttler,
            ThrottleDefinitions definitions, PacerConfig config) {
        this.policies = policies;
        this.limits = limits;
        this.throttler = throttler;
        this.definitions = definitions;
        this.config = config;
    }

    /**
     * The policies in force, each value with where it comes from: a runtime override, the key's resolver (limits per
     * key), the configuration, the annotation or a default.
     */
    @NonBlocking
    public JsonArray getPolicies() {
        Map<String, PolicyDefinition> declared = new TreeMap<>();
        definitions.policies().forEach(d -> declared.put(d.getName(), d));
        Map<String, List<String>> usedBy = new TreeMap<>();
        for (MethodDefinition method : definitions.methods()) {
            for (String policy : method.getPolicies()) {
                usedBy.computeIfAbsent(policy, p -> new ArrayList<>()).add(method.getId());
            }
        }
        Map<String, ThrottleOverride> overrides = limits.overridesInForce();
        JsonArray rows = new JsonArray();
        for (ThrottlePolicy configured : new TreeMap<>(policies.all()).values()) {
            ThrottleOverride runtime = overrides.get(configured.name());
            ThrottlePolicy policy = limits.withOverride(configured, runtime);
            PolicyDefinition definition = declared.get(policy.name());
            PolicyConfig override = config.throttle().policies().get(policy.name());
            String property = "quarkus.pacer.throttle.\"" + policy.name() + "\".";
            String annotation = definition == null ? "default" : "@Throttled on " + definition.getDeclaredOn();
            String perKey = policy.limitsResolver() == null ? null : "per key: " + policy.limitsResolver();
            JsonObject sources = new JsonObject()
                    .put("algorithm", override != null && override.algorithm().isPresent() ? property + "algorithm"
                            : annotation)
                    .put("limit", source(runtime != null && runtime.limit() != null, perKey,
                            override != null && override.limit().isPresent() ? property + "limit" : annotation))
                    .put("window", source(runtime != null && runtime.window() != null, perKey,
                            override != null && override.window().isPresent() ? property + "window" : annotation))
                    .put("shadow", source(runtime != null && runtime.shadow() != null, null,
                            override != null && override.shadow().isPresent() ? property + "shadow" : annotation))
                    .put("enabled", source(runtime != null && runtime.enabled() != null, null,
                            override != null && !override.enabled() ? property + "enabled" : "default"));
            String window = runtime != null && runtime.window() != null ? runtime.window().toMillis() + "ms"
                    : override != null && override.window().isPresent() ? override.window().get().toMillis() + "ms"
                            : definition != null ? definition.getWindow() : null;
            boolean enabled = runtime != null && runtime.enabled() != null ? runtime.enabled() : policy.enabled();
            JsonObject row = new JsonObject()
                    .put("name", policy.name())
                    .put("algorithm", policy.algorithm().name())
                    .put("limit", policy.limit())
                    .put("window", window)
                    .put("windowMillis", policy.windowMicros() / 1000.0)
                    .put("shadow", policy.shadow())
                    .put("enabled", enabled)
                    .put("limitsResolver", policy.limitsResolver())
                    .put("override", runtime == null ? null : JsonObject.mapFrom(overrideJson(runtime)))
                    .put("declaredOn", definition == null ? "configuration" : definition.getDeclaredOn())
                    .put("usedBy", new JsonArray(usedBy.getOrDefault(policy.name(), List.of())));
            if (ThrottleRules.usesBurst(policy.algorithm())) {
                row.put("burst", policy.burst());
                sources.put("burst", source(runtime != null && runtime.burst() != null, perKey,
                        override != null && override.burst().isPresent() ? property + "burst"
                                : definition != null && definition.getBurst() > 0 ? annotation : "default (= limit)"));
            }
            rows.add(row.put("sources", sources));
        }
        return rows;
    }

    /** A value's source in precedence order: runtime override, then the resolver (for keys it answers), then this. */
    private static String source(boolean overridden, String perKey, String otherwise) {
        if (overridden) {
            return "runtime override";
        }
        return perKey == null ? otherwise : perKey + ", else " + otherwise;
    }

    private static Map<String, Object> overrideJson(ThrottleOverride override) {
        Map<String, Object> json = new TreeMap<>();
        json.put("limit", override.limit());
        json.put("windowMillis", override.window() == null ? null : override.window().toMillis());
        json.put("burst", override.burst());
        json.put("enabled", override.enabled());
        json.put("shadow", override.shadow());
        return json;
    }

    /**
     * Overrides a policy on every instance until cleared; blank values are not overridden. {@code window} is a
     * duration such as {@code 500ms}, {@code 1s}, {@code 1m}.
     */
    public Uni<JsonObject> setOverride(String policy, String limit, String window, String burst, String enabled,
            String shadow) {
        return Uni.createFrom().deferred(() -> {
            ThrottleOverride override = new ThrottleOverride(integer(limit),
                    blank(window) ? null : Duration.ofNanos(ThrottleDurations.parseWindowMicros(window.trim()) * 1000),
                    integer(burst), bool(enabled), bool(shadow));
            return throttler.override(policy, override)
                    .replaceWith(() -> new JsonObject().put("policy", policy).put("override", true));
        });
    }

    /** Removes a policy's runtime override on every instance. */
    public Uni<JsonObject> clearOverride(String policy) {
        return Uni.createFrom().deferred(() -> throttler.clearOverride(policy))
                .replaceWith(() -> new JsonObject().put("policy", policy).put("override", false));
    }

    private static boolean blank(String text) {
        return text == null || text.isBlank();
    }

    private static Integer integer(String text) {
        return blank(text) ? null : Integer.valueOf(text.trim());
    }

    private static Boolean bool(String text) {
        return blank(text) ? null : Boolean.valueOf(text.trim());
    }

    /** How the decisions of each policy came out in this instance since startup. */
    @NonBlocking
    public JsonArray getDecisionCounts() {
        JsonArray rows = new JsonArray();
        for (ThrottlePolicy policy : new TreeMap<>(policies.all()).values()) {
            DecisionCounts counts = policy.counts();
            rows.add(new JsonObject()
                    .put("policy", policy.name())
                    .put("permitted", counts.permitted())
                    .put("rejected", counts.rejected())
                    .put("rejectedByOther", counts.rejectedByOther())
                    .put("fallback", counts.fallback()));
        }
        return rows;
    }

    /**
     * Peeks at every enabled policy for one key (blank: the global key) without taking a permit: remaining permits
     * and when the state resets. Policies whose methods all use one global key are peeked at that key (marked
     * {@code global}), since any other key is never used for them.
     */
    public Uni<JsonArray> inspectKey(String key) {
        String effectiveKey = key == null || key.isBlank() ? null : key;
        Set<String> global = globalPolicies();
        List<Uni<JsonObject>> peeks = new ArrayList<>();
        for (ThrottlePolicy policy : new TreeMap<>(policies.all()).values()) {
            if (!policy.enabled()) {
                continue;
            }
            boolean isGlobal = global.contains(policy.name());
            peeks.add(throttler.peek(policy.name(), isGlobal ? null : effectiveKey)
                    .map(decision -> decision(policy, decision).put("global", isGlobal)));
        }
        if (peeks.isEmpty()) {
            return Uni.createFrom().item(new JsonArray());
        }
        return Uni.join().all(peeks).andFailFast().map(JsonArray::new);
    }

    /** Policies only declared on methods without {@code @ThrottleKey} parameters or key resolver. */
    private Set<String> globalPolicies() {
        Set<String> keyed = new HashSet<>();
        Set<String> global = new HashSet<>();
        for (MethodDefinition method : definitions.methods()) {
            boolean hasKey = !method.getKeyParameters().isEmpty() || method.getKeyResolver() != null;
            (hasKey ? keyed : global).addAll(method.getPolicies());
        }
        global.removeAll(keyed);
        return global;
    }

    private static JsonObject decision(ThrottlePolicy policy, ThrottleDecision decision) {
        return new JsonObject()
                .put("policy", policy.name())
                .put("algorithm", policy.algorithm().name())
                .put("limit", decision.limit())
                .put("capacity", policy.capacity())
                .put("remaining", decision.remaining())
                .put("allowed", decision.allowed())
                .put("retryAfterMillis", decision.retryAfter().toNanos() / 1_000_000.0)
                .put("resetAfterMillis", decision.resetAfter().toNanos() / 1_000_000.0)
                .put("key", decision.key());
    }

    /** Deletes the state of {@code policy} for {@code key} (blank: the global key): the key gets its full capacity. */
    public Uni<JsonObject> resetKey(String policy, String key) {
        String effectiveKey = key == null || key.isBlank() ? null : key;
        return throttler.reset(policy, effectiveKey)
                .replaceWith(() -> new JsonObject().put("policy", policy).put("key", effectiveKey).put("reset", true));
    }
}
