package io.quarkiverse.pacer.deployment;

import static io.quarkiverse.pacer.deployment.PacerDotNames.CLIENT_ADDRESS_KEY_RESOLVER;
import static io.quarkiverse.pacer.deployment.PacerDotNames.THROTTLED;
import static io.quarkiverse.pacer.deployment.PacerDotNames.THROTTLED_INTERCEPTOR;
import static io.quarkiverse.pacer.deployment.PacerDotNames.THROTTLED_LIST;
import static io.quarkiverse.pacer.deployment.PacerDotNames.THROTTLED_METHOD_INDEX;
import static io.quarkiverse.pacer.deployment.PacerDotNames.THROTTLE_KEY;
import static io.quarkiverse.pacer.deployment.PacerDotNames.THROTTLE_KEY_RESOLVER;
import static io.quarkiverse.pacer.deployment.PacerDotNames.THROTTLE_LIMIT_RESOLVER;

import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;

import jakarta.enterprise.inject.spi.DeploymentException;
import jakarta.inject.Singleton;

import org.jboss.jandex.AnnotationInstance;
import org.jboss.jandex.AnnotationTarget;
import org.jboss.jandex.AnnotationTransformation;
import org.jboss.jandex.ClassInfo;
import org.jboss.jandex.DotName;
import org.jboss.jandex.IndexView;
import org.jboss.jandex.MethodInfo;
import org.jboss.jandex.MethodParameterInfo;
import org.jboss.jandex.Type;
import org.jboss.logging.Logger;

import io.quarkiverse.pacer.runtime.throttle.ConcurrencyLeases;
import io.quarkiverse.pacer.runtime.throttle.DefaultReactiveThrottler;
import io.quarkiverse.pacer.runtime.throttle.DefaultThrottler;
import io.quarkiverse.pacer.runtime.throttle.MethodDefinition;
import io.quarkiverse.pacer.runtime.throttle.PolicyDefinition;
import io.quarkiverse.pacer.runtime.throttle.RateLimitHeadersFilter;
import io.quarkiverse.pacer.runtime.throttle.ThrottleDefinitions;
import io.quarkiverse.pacer.runtime.throttle.ThrottleDurations;
import io.quarkiverse.pacer.runtime.throttle.ThrottleEngine;
import io.quarkiverse.pacer.runtime.throttle.ThrottleLimitOverrides;
import io.quarkiverse.pacer.runtime.throttle.ThrottleLimits;
import io.quarkiverse.pacer.runtime.throttle.ThrottleMetrics;
import io.quarkiverse.pacer.runtime.throttle.ThrottlePolicies;
import io.quarkiverse.pacer.runtime.throttle.ThrottleRecorder;
import io.quarkiverse.pacer.runtime.throttle.ThrottleResets;
import io.quarkiverse.pacer.runtime.throttle.ThrottleRules;
import io.quarkiverse.pacer.runtime.throttle.ThrottledExceptionMapper;
import io.quarkiverse.pacer.runtime.throttle.ThrottledInterceptor;
import io.quarkiverse.pacer.runtime.throttle.ThrottledMethodIndex;
import io.quarkiverse.pacer.runtime.throttle.ThrottledMethods;
import io.quarkiverse.pacer.throttle.Algorithm;
import io.quarkiverse.pacer.throttle.ClientAddressKeyResolver;
import io.quarkiverse.pacer.throttle.OnLimit;
import io.quarkiverse.pacer.throttle.PrincipalKeyResolver;
import io.quarkiverse.pacer.throttle.ThrottleKey;
import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkiverse.pacer.throttle.ThrottledException;
import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.arc.deployment.AnnotationsTransformerBuildItem;
import io.quarkus.arc.deployment.SyntheticBeanBuildItem;
import io.quarkus.arc.deployment.UnremovableBeanBuildItem;
import io.quarkus.arc.deployment.ValidationPhaseBuildItem;
import io.quarkus.arc.deployment.ValidationPhaseBuildItem.ValidationErrorBuildItem;
import io.quarkus.deployment.Capabilities;
import io.quarkus.deployment.Capability;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.annotations.ExecutionTime;
import io.quarkus.deployment.annotations.Record;
import io.quarkus.deployment.builditem.AdditionalIndexedClassesBuildItem;
import io.quarkus.deployment.builditem.CombinedIndexBuildItem;
import io.quarkus.deployment.metrics.MetricsCapabilityBuildItem;
import io.quarkus.resteasy.reactive.spi.ContainerResponseFilterBuildItem;
import io.quarkus.resteasy.reactive.spi.ExceptionMapperBuildItem;
import io.quarkus.runtime.metrics.MetricsFactory;

/**
 * Rate limiting: finds {@code @Throttled} methods with Jandex, validates them (every problem reported at once, naming
 * the annotation, class and method), records their precomputed definitions, and registers the interceptor, the
 * programmatic beans and, with Quarkus REST, the 429 mapping.
 */
class ThrottleProcessor {

    private static final Logger LOG = Logger.getLogger(ThrottleProcessor.class);

    @BuildStep
    AdditionalIndexedClassesBuildItem indexThrottlingAnnotations() {
        return new AdditionalIndexedClassesBuildItem(Throttled.class.getName(), Throttled.List.class.getName(),
                ThrottleKey.class.getName(), ThrottledMethodIndex.class.getName());
    }

    @BuildStep
    void registerInterceptor(Capabilities capabilities, BuildProducer<AdditionalBeanBuildItem> beans) {
        beans.produce(AdditionalBeanBuildItem.builder()
                .addBeanClasses(ThrottledInterceptor.class, ThrottledMethodIndex.class, ThrottleEngine.class,
                        ThrottlePolicies.class, ThrottledMethods.class, ThrottleResets.class, DefaultThrottler.class,
                        DefaultReactiveThrottler.class, ConcurrencyLeases.class, PrincipalKeyResolver.class,
                        ThrottleLimits.class, ThrottleLimitOverrides.class)
                .setUnremovable()
                .build());
        if (capabilities.isPresent(Capability.VERTX_HTTP)) {
            beans.produce(AdditionalBeanBuildItem.unremovableOf(ClientAddressKeyResolver.class));
        }
    }

    @BuildStep
    void registerMetrics(Optional<MetricsCapabilityBuildItem> metrics, BuildProducer<AdditionalBeanBuildItem> beans) {
        if (metrics.isPresent() && metrics.get().metricsSupported(MetricsFactory.MICROMETER)) {
            beans.produce(AdditionalBeanBuildItem.unremovableOf(ThrottleMetrics.class));
        }
    }

    @BuildStep
    void mapThrottledExceptionTo429(Capabilities capabilities, BuildProducer<ExceptionMapperBuildItem> mappers) {
        if (capabilities.isPresent(Capability.REST)) {
            mappers.produce(new ExceptionMapperBuildItem(ThrottledExceptionMapper.class.getName(),
                    ThrottledException.class.getName(), jakarta.ws.rs.Priorities.USER, false));
        }
    }

    @BuildStep
    void sendRateLimitHeadersOnSuccess(Capabilities capabilities,
            BuildProducer<ContainerResponseFilterBuildItem> filters) {
        if (capabilities.isPresent(Capability.REST)) {
            filters.produce(new ContainerResponseFilterBuildItem.Builder(RateLimitHeadersFilter.class.getName())
                    .build());
        }
    }

    @BuildStep
    ThrottledMethodsBuildItem collectThrottledMethods(CombinedIndexBuildItem combinedIndex, Capabilities capabilities) {
        IndexView index = combinedIndex.getIndex();
        Map<MethodInfo, List<AnnotationInstance>> onMethods = new LinkedHashMap<>();
        Map<ClassInfo, List<AnnotationInstance>> onClasses = new LinkedHashMap<>();
        for (AnnotationInstance annotation : index.getAnnotations(THROTTLED)) {
            collect(annotation, annotation.target(), onMethods, onClasses);
        }
        for (AnnotationInstance container : index.getAnnotations(THROTTLED_LIST)) {
            for (AnnotationInstance annotation : container.value().asNestedArray()) {
                collect(annotation, container.target(), onMethods, onClasses);
            }
        }

        List<String> problems = new ArrayList<>();
        // Effective annotations per method: the method's own win over its class's.
        Map<MethodInfo, List<AnnotationInstance>> effective = new LinkedHashMap<>();
        Map<MethodInfo, Boolean> fromClass = new LinkedHashMap<>();
        List<MethodInfo> annotatedMethods = new ArrayList<>(onMethods.keySet());
        annotatedMethods.sort(Comparator.comparing(ThrottleProcessor::idOf));
        for (MethodInfo method : annotatedMethods) {
            if (Modifier.isPrivate(method.flags())) {
                problems.add("@Throttled declared on " + display(method)
                        + ": private methods cannot be intercepted; make it package-private, protected or public");
                continue;
            }
            effective.put(method, onMethods.get(method));
            fromClass.put(method, false);
        }
        for (Map.Entry<ClassInfo, List<AnnotationInstance>> entry : onClasses.entrySet()) {
            for (MethodInfo method : entry.getKey().methods()) {
                if (isBusinessMethod(method) && !onMethods.containsKey(method)) {
                    effective.put(method, entry.getValue());
                    fromClass.put(method, true);
                }
            }
        }

        Map<String, PolicyDefinition> policies = new TreeMap<>();
        Map<String, String> policyOrigins = new TreeMap<>();
        List<MethodDefinition> methods = new ArrayList<>();
        List<MethodKey> methodKeys = new ArrayList<>();
        // Sorted, so the first declaration of a shared policy name (and so every message) is reproducible.
        List<Map.Entry<MethodInfo, List<AnnotationInstance>>> sorted = new ArrayList<>(effective.entrySet());
        sorted.sort(Comparator.comparing(entry -> idOf(entry.getKey())));
        for (Map.Entry<MethodInfo, List<AnnotationInstance>> entry : sorted) {
            MethodDefinition definition = defineMethod(entry.getKey(), entry.getValue(), fromClass.get(entry.getKey()),
                    index, capabilities, policies, policyOrigins, problems);
            if (definition != null) {
                methods.add(definition);
                methodKeys.add(MethodKey.of(entry.getKey()));
            }
        }

        for (AnnotationInstance key : index.getAnnotations(THROTTLE_KEY)) {
            if (key.target().kind() != AnnotationTarget.Kind.METHOD_PARAMETER) {
                continue;
            }
            MethodParameterInfo parameter = key.target().asMethodParameter();
            if (!effective.containsKey(parameter.method())) {
                problems.add("@ThrottleKey declared on parameter " + parameter.position() + " of "
                        + display(parameter.method()) + ": the method has no @Throttled (add one, or remove @ThrottleKey)");
            }
        }

        // Already in id order (see above): the position of a definition is the index its method is bound to.
        for (MethodDefinition method : methods) {
            LOG.debugf("@Throttled method %s: policies %s", method.getId(), method.getPolicies());
        }
        return new ThrottledMethodsBuildItem(new ArrayList<>(policies.values()), methods, methodKeys, problems);
    }

    @BuildStep
    void validateThrottledMethods(ThrottledMethodsBuildItem throttled, BuildProducer<ValidationErrorBuildItem> errors) {
        if (!throttled.getProblems().isEmpty()) {
            errors.produce(new ValidationErrorBuildItem(new DeploymentException(
                    "Invalid @Throttled usage:\n - " + String.join("\n - ", throttled.getProblems()))));
        }
    }

    /**
     * Puts {@link ThrottledMethodIndex} on each {@code @Throttled} method: the interceptor reads it from the
     * invocation's bindings to find the method's definition, which is recorded at the same position.
     */
    @BuildStep
    AnnotationsTransformerBuildItem bindDefinitionIndexes(ThrottledMethodsBuildItem throttled) {
        Map<MethodKey, Integer> indexes = new HashMap<>();
        for (int i = 0; i < throttled.getMethodKeys().size(); i++) {
            indexes.put(throttled.getMethodKeys().get(i), i);
        }
        Set<DotName> classes = new HashSet<>();
        indexes.keySet().forEach(key -> classes.add(key.declaringClass()));
        // The class first: it rules out almost every method of the bean archive without building its key.
        Predicate<MethodInfo> throttledMethod = method -> classes.contains(method.declaringClass().name())
                && indexes.containsKey(MethodKey.of(method));
        return new AnnotationsTransformerBuildItem(AnnotationTransformation.forMethods()
                .whenMethod(throttledMethod)
                .transform(context -> context.add(AnnotationInstance.builder(THROTTLED_METHOD_INDEX)
                        .add("value", indexes.get(MethodKey.of(context.declaration().asMethod())))
                        .build())));
    }

    @BuildStep
    void makeKeyResolversUnremovable(ThrottledMethodsBuildItem throttled,
            BuildProducer<UnremovableBeanBuildItem> unremovable) {
        TreeSet<String> resolvers = new TreeSet<>();
        for (MethodDefinition method : throttled.getMethods()) {
            if (method.getKeyResolver() != null) {
                resolvers.add(method.getKeyResolver());
            }
        }
        if (!resolvers.isEmpty()) {
            unremovable.produce(UnremovableBeanBuildItem.beanClassNames(resolvers));
        }
    }

    @BuildStep
    void makeLimitResolversUnremovable(ThrottledMethodsBuildItem throttled,
            BuildProducer<UnremovableBeanBuildItem> unremovable) {
        TreeSet<String> resolvers = limitResolvers(throttled);
        if (!resolvers.isEmpty()) {
            unremovable.produce(UnremovableBeanBuildItem.beanClassNames(resolvers));
        }
    }

    /** A {@code limits} class must be a bean: a plain class would only fail at the first call. */
    @BuildStep
    void validateLimitResolverBeans(ThrottledMethodsBuildItem throttled, ValidationPhaseBuildItem validation,
            BuildProducer<ValidationErrorBuildItem> errors) {
        List<String> problems = new ArrayList<>();
        for (PolicyDefinition policy : throttled.getPolicies()) {
            String resolver = policy.getLimitsResolver();
            if (resolver != null && validation.getContext().beans().withBeanClass(DotName.createSimple(resolver))
                    .isEmpty()) {
                problems.add("@Throttled declared on " + policy.getDeclaredOn() + " (policy \"" + policy.getName()
                        + "\"): limits = " + resolver + " is not a CDI bean; annotate it with @ApplicationScoped or"
                        + " @Singleton");
            }
        }
        if (!problems.isEmpty()) {
            errors.produce(new ValidationErrorBuildItem(new DeploymentException(
                    "Invalid @Throttled usage:\n - " + String.join("\n - ", problems))));
        }
    }

    private static TreeSet<String> limitResolvers(ThrottledMethodsBuildItem throttled) {
        TreeSet<String> resolvers = new TreeSet<>();
        for (PolicyDefinition policy : throttled.getPolicies()) {
            if (policy.getLimitsResolver() != null) {
                resolvers.add(policy.getLimitsResolver());
            }
        }
        return resolvers;
    }

    @BuildStep
    @Record(ExecutionTime.STATIC_INIT)
    SyntheticBeanBuildItem recordThrottledMethods(ThrottledMethodsBuildItem throttled, ThrottleRecorder recorder) {
        return SyntheticBeanBuildItem.configure(ThrottleDefinitions.class)
                .scope(Singleton.class)
                .unremovable()
                .supplier(recorder.definitions(throttled.getPolicies(), throttled.getMethods()))
                .done();
    }

    private static void collect(AnnotationInstance annotation, AnnotationTarget target,
            Map<MethodInfo, List<AnnotationInstance>> onMethods, Map<ClassInfo, List<AnnotationInstance>> onClasses) {
        if (target.kind() == AnnotationTarget.Kind.METHOD) {
            onMethods.computeIfAbsent(target.asMethod(), m -> new ArrayList<>()).add(annotation);
        } else if (target.kind() == AnnotationTarget.Kind.CLASS
                && !target.asClass().name().equals(THROTTLED_INTERCEPTOR)) {
            onClasses.computeIfAbsent(target.asClass(), c -> new ArrayList<>()).add(annotation);
        }
    }

    private static boolean isBusinessMethod(MethodInfo method) {
        int flags = method.flags();
        return !method.isConstructor() && !method.isStaticInitializer() && !Modifier.isPrivate(flags)
                && !Modifier.isStatic(flags) && (flags & 0x1000) == 0 && (flags & 0x0040) == 0;
    }

    private static MethodDefinition defineMethod(MethodInfo method, List<AnnotationInstance> annotations,
            boolean fromClass, IndexView index, Capabilities capabilities, Map<String, PolicyDefinition> policies,
            Map<String, String> policyOrigins, List<String> problems) {
        String where = fromClass
                ? "@Throttled declared on " + method.declaringClass().name() + " (applied to " + display(method) + ")"
                : "@Throttled declared on " + display(method);
        int before = problems.size();
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
            if (keyClass.equals(CLIENT_ADDRESS_KEY_RESOLVER)
                    && !capabilities.isPresent(Capability.VERTX_HTTP)) {
                problems.add(at + ": key = ClientAddressKeyResolver.class needs Quarkus Vert.x HTTP (for example"
                        + " quarkus-rest), which the application does not have");
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
        definition.setReturnType(className(method.returnType()));
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

    /** The erased class of a return type, for the runtime to tell reactive methods apart; {@code null} otherwise. */
    private static String className(Type type) {
        return switch (type.kind()) {
            case CLASS, PARAMETERIZED_TYPE -> type.name().toString();
            case TYPE_VARIABLE -> type.asTypeVariable().bounds().isEmpty() ? null
                    : className(type.asTypeVariable().bounds().get(0));
            default -> null;
        };
    }

    /** {@code com.acme.Api#ping()}, as messages show a method. */
    static String display(MethodInfo method) {
        return method.declaringClass().name() + "#" + method.name() + "()";
    }

    /**
     * {@code com.acme.Api#search(java.lang.String,int)}: orders the methods reproducibly and names them in messages
     * and the Dev UI. Only the build computes it; the runtime finds a method by its {@link ThrottledMethodIndex}.
     */
    static String idOf(MethodInfo method) {
        StringBuilder id = new StringBuilder(method.declaringClass().name().toString()).append('#')
                .append(method.name()).append('(');
        for (int i = 0; i < method.parametersCount(); i++) {
            if (i > 0) {
                id.append(',');
            }
            id.append(typeName(method.parameterType(i)));
        }
        return id.append(')').toString();
    }

    private static String typeName(Type type) {
        switch (type.kind()) {
            case ARRAY:
                return typeName(type.asArrayType().constituent()) + "[]".repeat(type.asArrayType().deepDimensions());
            case PRIMITIVE:
                return type.asPrimitiveType().name().toString();
            case TYPE_VARIABLE:
                List<Type> bounds = type.asTypeVariable().bounds();
                return bounds.isEmpty() ? "java.lang.Object" : typeName(bounds.get(0));
            default:
                DotName name = type.name();
                return name.toString();
        }
    }
}
