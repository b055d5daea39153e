package io.quarkiverse.pacer.deployment;

import static io.quarkiverse.pacer.deployment.PacerDotNames.THROTTLED_METHOD_INDEX;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;

import jakarta.inject.Singleton;

import org.jboss.jandex.AnnotationInstance;
import org.jboss.jandex.AnnotationTransformation;
import org.jboss.jandex.DotName;
import org.jboss.jandex.MethodInfo;

import io.quarkiverse.pacer.runtime.throttle.DefaultReactiveThrottler;
import io.quarkiverse.pacer.runtime.throttle.DefaultThrottler;
import io.quarkiverse.pacer.runtime.throttle.ThrottleMetrics;
import io.quarkiverse.pacer.runtime.throttle.ThrottleRecorder;
import io.quarkiverse.pacer.runtime.throttle.engine.ThrottleEngine;
import io.quarkiverse.pacer.runtime.throttle.engine.ThrottleResets;
import io.quarkiverse.pacer.runtime.throttle.engine.ThrottleWarmUp;
import io.quarkiverse.pacer.runtime.throttle.http.RateLimitHeadersFilter;
import io.quarkiverse.pacer.runtime.throttle.http.ThrottledExceptionMapper;
import io.quarkiverse.pacer.runtime.throttle.interceptor.InterceptedMethods;
import io.quarkiverse.pacer.runtime.throttle.interceptor.MethodIndex;
import io.quarkiverse.pacer.runtime.throttle.interceptor.ThrottledInterceptor;
import io.quarkiverse.pacer.runtime.throttle.lease.ConcurrencyLeases;
import io.quarkiverse.pacer.runtime.throttle.limits.EffectiveLimits;
import io.quarkiverse.pacer.runtime.throttle.limits.LimitOverrides;
import io.quarkiverse.pacer.runtime.throttle.policy.MethodDefinition;
import io.quarkiverse.pacer.runtime.throttle.policy.PolicyDefinition;
import io.quarkiverse.pacer.runtime.throttle.policy.PolicyRegistry;
import io.quarkiverse.pacer.runtime.throttle.policy.ThrottleDefinitions;
import io.quarkiverse.pacer.throttle.ClientAddressKeyResolver;
import io.quarkiverse.pacer.throttle.PrincipalKeyResolver;
import io.quarkiverse.pacer.throttle.ThrottleKey;
import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkiverse.pacer.throttle.ThrottledException;
import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.arc.deployment.AnnotationsTransformerBuildItem;
import io.quarkus.arc.deployment.SyntheticBeanBuildItem;
import io.quarkus.arc.deployment.UnremovableBeanBuildItem;
import io.quarkus.deployment.Capabilities;
import io.quarkus.deployment.Capability;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.annotations.ExecutionTime;
import io.quarkus.deployment.annotations.Record;
import io.quarkus.deployment.builditem.AdditionalIndexedClassesBuildItem;
import io.quarkus.deployment.metrics.MetricsCapabilityBuildItem;
import io.quarkus.deployment.recording.RecorderContext;
import io.quarkus.resteasy.reactive.spi.ContainerResponseFilterBuildItem;
import io.quarkus.resteasy.reactive.spi.ExceptionMapperBuildItem;
import io.quarkus.runtime.metrics.MetricsFactory;

/**
 * Rate limiting wiring: registers the interceptor, the programmatic beans and, with Quarkus REST, the 429 mapping and
 * the rate-limit headers; binds each {@code @Throttled} method to its definition and records the definitions that
 * {@link ThrottledMethodsProcessor} collected.
 */
class ThrottleProcessor {

    @BuildStep
    AdditionalIndexedClassesBuildItem indexThrottlingAnnotations() {
        return new AdditionalIndexedClassesBuildItem(Throttled.class.getName(), Throttled.List.class.getName(),
                ThrottleKey.class.getName(), MethodIndex.class.getName());
    }

    @BuildStep
    void registerInterceptor(Capabilities capabilities, BuildProducer<AdditionalBeanBuildItem> beans) {
        beans.produce(AdditionalBeanBuildItem.builder()
                .addBeanClasses(ThrottledInterceptor.class, MethodIndex.class, ThrottleEngine.class,
                        ThrottleWarmUp.class,
                        PolicyRegistry.class, InterceptedMethods.class, ThrottleResets.class, DefaultThrottler.class,
                        DefaultReactiveThrottler.class, ConcurrencyLeases.class, PrincipalKeyResolver.class,
                        EffectiveLimits.class, LimitOverrides.class)
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

    /**
     * Puts {@link MethodIndex} on each {@code @Throttled} method: the interceptor reads it from the
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
    void makeResolversUnremovable(ThrottledMethodsBuildItem throttled,
            BuildProducer<UnremovableBeanBuildItem> unremovable) {
        TreeSet<String> resolvers = resolverClasses(throttled);
        if (!resolvers.isEmpty()) {
            unremovable.produce(UnremovableBeanBuildItem.beanClassNames(resolvers));
        }
    }

    /** The {@code ThrottleKeyResolver} and {@code ThrottleLimitResolver} bean classes the definitions name, sorted. */
    private static TreeSet<String> resolverClasses(ThrottledMethodsBuildItem throttled) {
        TreeSet<String> resolvers = new TreeSet<>();
        for (MethodDefinition method : throttled.getMethods()) {
            if (method.getKeyResolver() != null) {
                resolvers.add(method.getKeyResolver());
            }
        }
        for (PolicyDefinition policy : throttled.getPolicies()) {
            if (policy.getLimitsResolver() != null) {
                resolvers.add(policy.getLimitsResolver());
            }
        }
        return resolvers;
    }

    @BuildStep
    @Record(ExecutionTime.STATIC_INIT)
    SyntheticBeanBuildItem recordThrottledMethods(ThrottledMethodsBuildItem throttled, ThrottleRecorder recorder,
            RecorderContext recorderContext) {
        // Class proxies: the runtime gets the classes themselves and never loads one by name.
        Map<String, Class<?>> resolverClasses = new TreeMap<>();
        for (String resolver : resolverClasses(throttled)) {
            resolverClasses.put(resolver, recorderContext.classProxy(resolver));
        }
        return SyntheticBeanBuildItem.configure(ThrottleDefinitions.class)
                .scope(Singleton.class)
                .unremovable()
                .supplier(recorder.definitions(throttled.getPolicies(), throttled.getMethods(), resolverClasses))
                .done();
    }
}
