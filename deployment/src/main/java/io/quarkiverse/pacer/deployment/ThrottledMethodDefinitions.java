package io.quarkiverse.pacer.deployment;

import static io.quarkiverse.pacer.deployment.MethodNames.display;
import static io.quarkiverse.pacer.deployment.MethodNames.idOf;
import static io.quarkiverse.pacer.deployment.PacerDotNames.CLIENT_ADDRESS_KEY_RESOLVER;
import static io.quarkiverse.pacer.deployment.PacerDotNames.COMPLETION_STAGE;
import static io.quarkiverse.pacer.deployment.PacerDotNames.MULTI;
import static io.quarkiverse.pacer.deployment.PacerDotNames.REQUEST_KEY_RESOLVER;
import static io.quarkiverse.pacer.deployment.PacerDotNames.THROTTLE_KEY;
import static io.quarkiverse.pacer.deployment.PacerDotNames.THROTTLE_KEY_RESOLVER;
import static io.quarkiverse.pacer.deployment.PacerDotNames.THROTTLE_LIMIT_RESOLVER;
import static io.quarkiverse.pacer.deployment.PacerDotNames.UNI;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.jboss.jandex.AnnotationInstance;
import org.jboss.jandex.DotName;
import org.jboss.jandex.IndexView;
import org.jboss.jandex.MethodInfo;
import org.jboss.jandex.MethodParameterInfo;
import org.jboss.jandex.Type;

import io.quarkiverse.pacer.runtime.throttle.policy.MethodDefinition;
import io.quarkiverse.pacer.runtime.throttle.policy.PolicyDefinition;
import io.quarkiverse.pacer.runtime.throttle.policy.ThrottleDurations;
import io.quarkiverse.pacer.runtime.throttle.policy.ThrottleRules;
import io.quarkiverse.pacer.runtime.throttle.policy.ThrottledReturnKind;
import io.quarkiverse.pacer.throttle.Algorithm;
import io.quarkiverse.pacer.throttle.OnLimit;
import io.quarkus.deployment.Capabilities;
import io.quarkus.deployment.Capability;

/**
 * Turns the {@code @Throttled} annotations in effect on one method into its {@link MethodDefinition} and the
 * {@link PolicyDefinition}s it uses, checking each member (limit, window, burst, cost, key, limits) on the way.
 */
final class ThrottledMethodDefinitions {

    private ThrottledMethodDefinitions() {
    }

    /**
     * The method's definition, or {@code null} when it adds to {@code problems}; a policy seen first here goes into
     * {@code policies}, one seen before must have the same settings.
     */
    /**
     * Whether a {@code key} class computes the key from the HTTP request alone: {@code ClientAddressKeyResolver}
     * or any other {@code RequestKeyResolver}.
     */
    static boolean isRequestKeyResolver(IndexView index, DotName resolver) {
        return resolver.equals(CLIENT_ADDRESS_KEY_RESOLVER) || TypeHierarchy.isSubtype(index, resolver,
                REQUEST_KEY_RESOLVER);
    }

    static MethodDefinition define(MethodInfo method, List<AnnotationInstance> annotations,
            boolean fromClass, IndexView index, Capabilities capabilities, Map<String, PolicyDefinition> policies,
            Map<String, String> policyOrigins, List<String> problems) {
        String where = fromClass
                ? "@Throttled declared on " + method.declaringClass().name() + " (applied to " + display(method) + ")"
                : "@Throttled declared on " + display(method);
        int before = problems.size();
        if (KotlinSuspend.isSuspend(method)) {
            problems.add(where + ": " + KotlinSuspend.PROBLEM);
        }
        MethodDefinition definition = new MethodDefinition();
        definition.setId(idOf(method));
        String resolver = null;
        boolean first = true;
        long maxWaitMillis = 0;
        OnLimit onLimit = OnLimit.REJECT;
        for (AnnotationInstance annotation : annotations) {
            String name = annotation.valueWithDefault(index, "name").asString();
            if (name.isEmpty()) {
                name = method.declaringClass().name().toString() + "#" + method.name();
            }
            String at = where + (annotations.size() > 1 ? " (policy \"" + name + "\")" : "");
            if (ThrottleRules.reservedNameProblem(name) != null) {
                problems.add(at + ": " + ThrottleRules.reservedNameProblem(name));
            }
            // limit has no default: an annotation without it is invalid, reported below.
            int limit = annotation.value("limit") == null ? 0 : annotation.value("limit").asInt();
            String window = annotation.valueWithDefault(index, "window").asString();
            Algorithm algorithm = Algorithm.valueOf(annotation.valueWithDefault(index, "algorithm").asEnum());
            int burst = annotation.valueWithDefault(index, "burst").asInt();
            int cost = annotation.valueWithDefault(index, "cost").asInt();
            boolean shadow = annotation.valueWithDefault(index, "shadow").asBoolean();
            OnLimit policyOnLimit = OnLimit.valueOf(annotation.valueWithDefault(index, "onLimit").asEnum());
            String maxWait = annotation.valueWithDefault(index, "maxWait").asString();
            DotName keyClass = annotation.valueWithDefault(index, "key").asClass().name();
            String key = keyClass.equals(THROTTLE_KEY_RESOLVER) ? null : keyClass.toString();
            DotName limitsClass = annotation.valueWithDefault(index, "limits").asClass().name();
            String limits = limitsClass.equals(THROTTLE_LIMIT_RESOLVER) ? null : limitsClass.toString();
            if (limits != null) {
                String problem = LimitResolverChecks.problem(index, limitsClass);
                if (problem != null) {
                    problems.add(at + ": limits = " + limits + " " + problem);
                }
            }

            if (limit <= 0) {
                problems.add(at + ": limit must be positive, was " + limit);
            }
            long windowMicros = 0;
            try {
                windowMicros = ThrottleDurations.parseWindowMicros(window);
            } catch (IllegalArgumentException e) {
                problems.add(at + ": window " + e.getMessage());
            }
            if (policyOnLimit == OnLimit.WAIT) {
                onLimit = OnLimit.WAIT;
            }
            try {
                Duration wait = ThrottleDurations.parseMaxWait(maxWait);
                maxWaitMillis = Math.max(maxWaitMillis, wait.toMillis());
            } catch (IllegalArgumentException e) {
                problems.add(at + ": maxWait " + e.getMessage());
            }
            if (burst < 0) {
                problems.add(at + ": burst must be positive (or 0 for the limit), was " + burst);
            }
            int effectiveBurst = ThrottleRules.effectiveBurst(limit, burst);
            int capacity = ThrottleRules.capacity(algorithm, limit, effectiveBurst);
            if (cost <= 0) {
                problems.add(at + ": cost must be positive, was " + cost);
            } else if (limit > 0 && cost > capacity) {
                problems.add(at + ": cost " + cost + " exceeds the capacity " + capacity + " ("
                        + (ThrottleRules.usesBurst(algorithm) ? "burst" : "limit") + "), so the call could never pass");
            }
            String inexact = ThrottleRules.exactnessProblem(algorithm, limit, effectiveBurst, windowMicros, window);
            if (inexact != null) {
                problems.add(at + ": " + inexact);
            }
            if (isRequestKeyResolver(index, keyClass) && !capabilities.isPresent(Capability.VERTX_HTTP)) {
                problems.add(at + ": key = " + (keyClass.equals(CLIENT_ADDRESS_KEY_RESOLVER)
                        ? "ClientAddressKeyResolver.class needs"
                        : keyClass + ".class is a RequestKeyResolver, which needs")
                        + " Quarkus Vert.x HTTP (for example quarkus-rest), which the application does not have");
            }
            if (first) {
                resolver = key;
            } else if (!Objects.equals(resolver, key)) {
                problems.add(at + ": stacked @Throttled annotations must use the same key resolver, found "
                        + (resolver == null ? "none" : resolver) + " and " + (key == null ? "none" : key));
            }
            first = false;
            if (definition.getPolicies().contains(name)) {
                problems.add(at + ": policy \"" + name + "\" is stacked twice on the same method");
                continue;
            }

            if (problems.size() == before) {
                PolicyDefinition policy = new PolicyDefinition(name, algorithm, limit, window, burst, shadow,
                        display(method), limits);
                PolicyDefinition existing = policies.get(name);
                if (existing == null) {
                    policies.put(name, policy);
                    policyOrigins.put(name, display(method));
                } else if (!sameSettings(existing, policy)) {
                    problems.add(at + ": policy \"" + name + "\" is also declared on " + policyOrigins.get(name)
                            + " with different settings (" + settings(existing) + " there, " + settings(policy)
                            + " here); one name must mean one policy");
                }
            }
            definition.getPolicies().add(name);
            definition.getCosts().add(cost);
        }
        definition.setOnLimit(onLimit);
        definition.setMaxWaitMillis(maxWaitMillis);
        definition.setKeyResolver(resolver);
        List<Integer> keyParameters = new ArrayList<>();
        for (MethodParameterInfo parameter : method.parameters()) {
            if (parameter.hasDeclaredAnnotation(THROTTLE_KEY)) {
                keyParameters.add((int) parameter.position());
            }
        }
        if (resolver != null && !keyParameters.isEmpty()) {
            problems.add(where + ": key = " + resolver + " and @ThrottleKey parameters both define the key; keep one");
        }
        definition.setKeyParameters(keyParameters);
        definition.setReturnKind(returnKind(method.returnType(), index));
        return problems.size() == before ? definition : null;
    }

    private static boolean sameSettings(PolicyDefinition a, PolicyDefinition b) {
        return a.getAlgorithm() == b.getAlgorithm() && a.getLimit() == b.getLimit()
                && ThrottleDurations.parseWindowMicros(a.getWindow()) == ThrottleDurations.parseWindowMicros(b.getWindow())
                && ThrottleRules.effectiveBurst(a.getLimit(), a.getBurst()) == ThrottleRules.effectiveBurst(b.getLimit(),
                        b.getBurst())
                && a.isShadow() == b.isShadow() && Objects.equals(a.getLimitsResolver(), b.getLimitsResolver());
    }

    private static String settings(PolicyDefinition policy) {
        return policy.getAlgorithm() + " limit=" + policy.getLimit() + " window=" + policy.getWindow()
                + (policy.getBurst() == 0 ? "" : " burst=" + policy.getBurst())
                + (policy.isShadow() ? " shadow" : "")
                + (policy.getLimitsResolver() == null ? "" : " limits=" + policy.getLimitsResolver());
    }

    /** How a method returns, from its declared type, for the interceptor to block or decide at subscription. */
    private static ThrottledReturnKind returnKind(Type type, IndexView index) {
        DotName erased = erasedClass(type);
        if (erased == null) {
            return ThrottledReturnKind.BLOCKING;
        } else if (TypeHierarchy.isSubtype(index, erased, UNI)) {
            return ThrottledReturnKind.UNI;
        } else if (TypeHierarchy.isSubtype(index, erased, COMPLETION_STAGE)) {
            return ThrottledReturnKind.COMPLETION_STAGE;
        } else if (TypeHierarchy.isSubtype(index, erased, MULTI)) {
            return ThrottledReturnKind.MULTI;
        }
        return ThrottledReturnKind.BLOCKING;
    }

    /** The erased class of a type; {@code null} for primitives, {@code void} and arrays. */
    private static DotName erasedClass(Type type) {
        return switch (type.kind()) {
            case CLASS, PARAMETERIZED_TYPE -> type.name();
            case TYPE_VARIABLE -> type.asTypeVariable().bounds().isEmpty() ? null
                    : erasedClass(type.asTypeVariable().bounds().get(0));
            default -> null;
        };
    }
}
