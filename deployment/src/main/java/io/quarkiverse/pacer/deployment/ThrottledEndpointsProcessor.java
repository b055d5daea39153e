package io.quarkiverse.pacer.deployment;

import static io.quarkiverse.pacer.deployment.PacerDotNames.CACHE_RESULT;
import static io.quarkiverse.pacer.deployment.PacerDotNames.COOKIE_PARAM;
import static io.quarkiverse.pacer.deployment.PacerDotNames.CURRENT_IDENTITY_ASSOCIATION;
import static io.quarkiverse.pacer.deployment.PacerDotNames.DEFAULT_VALUE;
import static io.quarkiverse.pacer.deployment.PacerDotNames.ENCODED;
import static io.quarkiverse.pacer.deployment.PacerDotNames.HEADER_PARAM;
import static io.quarkiverse.pacer.deployment.PacerDotNames.HTTP_METHOD;
import static io.quarkiverse.pacer.deployment.PacerDotNames.PATH_PARAM;
import static io.quarkiverse.pacer.deployment.PacerDotNames.PRINCIPAL_KEY_RESOLVER;
import static io.quarkiverse.pacer.deployment.PacerDotNames.QUERY_PARAM;
import static io.quarkiverse.pacer.deployment.PacerDotNames.REST_COOKIE;
import static io.quarkiverse.pacer.deployment.PacerDotNames.REST_HEADER;
import static io.quarkiverse.pacer.deployment.PacerDotNames.REST_PATH;
import static io.quarkiverse.pacer.deployment.PacerDotNames.REST_QUERY;
import static io.quarkiverse.pacer.deployment.PacerDotNames.STRING;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import jakarta.inject.Singleton;

import org.jboss.jandex.AnnotationInstance;
import org.jboss.jandex.AnnotationTarget;
import org.jboss.jandex.AnnotationValue;
import org.jboss.jandex.ClassInfo;
import org.jboss.jandex.DotName;
import org.jboss.jandex.IndexView;
import org.jboss.jandex.MethodInfo;
import org.jboss.jandex.Type;
import org.jboss.logging.Logger;

import io.quarkiverse.pacer.runtime.throttle.http.EndpointKeyParameter;
import io.quarkiverse.pacer.runtime.throttle.http.EndpointKeyParameter.Source;
import io.quarkiverse.pacer.runtime.throttle.http.ThrottledEndpoint;
import io.quarkiverse.pacer.runtime.throttle.http.ThrottledEndpoint.KeySource;
import io.quarkiverse.pacer.runtime.throttle.http.ThrottledEndpointFilter;
import io.quarkiverse.pacer.runtime.throttle.http.ThrottledEndpoints;
import io.quarkiverse.pacer.runtime.throttle.http.ThrottledEndpointsRecorder;
import io.quarkiverse.pacer.runtime.throttle.interceptor.AdvanceDecisions;
import io.quarkiverse.pacer.runtime.throttle.policy.MethodDefinition;
import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.arc.deployment.SyntheticBeanBuildItem;
import io.quarkus.arc.deployment.UnremovableBeanBuildItem;
import io.quarkus.deployment.Capabilities;
import io.quarkus.deployment.Capability;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.annotations.ExecutionTime;
import io.quarkus.deployment.annotations.Record;
import io.quarkus.deployment.builditem.CombinedIndexBuildItem;
import io.quarkus.resteasy.reactive.spi.ContainerRequestFilterBuildItem;

/**
 * With Quarkus REST: finds the {@code @Throttled} resource methods whose key the request carries before the method
 * runs (path, query, header and cookie parameters of type {@code String}, a {@code RequestKeyResolver} such as the
 * client address, the principal, or one key per policy; not {@code @CacheResult} methods, whose cache hits take no
 * permit) and decides them in a non-blocking request filter, on the HTTP event loop, before a blocking method is
 * dispatched to a worker thread. Every other {@code @Throttled} method is decided by the interceptor alone.
 */
class ThrottledEndpointsProcessor {

    private static final Logger LOG = Logger.getLogger(ThrottledEndpointsProcessor.class);

    /**
     * Quarkus REST requires every non-blocking request filter to run before all blocking ones, and fails the build
     * otherwise: first of all, so no application's filter priorities can break its build. Quarkus Security's checks
     * are not filters; they run before.
     */
    private static final int FILTER_PRIORITY = Integer.MIN_VALUE / 2;

    @BuildStep
    ThrottledEndpointsBuildItem findThrottledEndpoints(Capabilities capabilities, ThrottledMethodsBuildItem throttled,
            CombinedIndexBuildItem combinedIndex) {
        List<ThrottledEndpoint> endpoints = new ArrayList<>();
        if (!capabilities.isPresent(Capability.REST)) {
            return new ThrottledEndpointsBuildItem(endpoints);
        }
        IndexView index = combinedIndex.getIndex();
        // Computing: resolvers may implement RequestKeyResolver through classes outside the application's index.
        IndexView hierarchy = combinedIndex.getComputingIndex();
        for (int i = 0; i < throttled.getMethods().size(); i++) {
            MethodDefinition definition = throttled.getMethods().get(i);
            MethodInfo method = find(index, throttled.getMethodKeys().get(i));
            if (method == null || !isResourceMethod(index, method)) {
                continue;
            }
            ThrottledEndpoint endpoint = endpoint(i, definition, method, hierarchy);
            if (endpoint != null) {
                endpoints.add(endpoint);
                LOG.debugf("@Throttled endpoint %s is decided in its request filter", definition.getId());
            } else {
                LOG.debugf("@Throttled endpoint %s is decided by the interceptor: its key is formed by the method call",
                        definition.getId());
            }
        }
        return new ThrottledEndpointsBuildItem(endpoints);
    }

    @BuildStep
    void registerEndpointFilter(ThrottledEndpointsBuildItem endpoints, BuildProducer<AdditionalBeanBuildItem> beans,
            BuildProducer<ContainerRequestFilterBuildItem> filters, BuildProducer<UnremovableBeanBuildItem> unremovable) {
        if (endpoints.getEndpoints().isEmpty()) {
            return;
        }
        if (endpoints.getEndpoints().stream().anyMatch(endpoint -> endpoint.getKeySource() == KeySource.PRINCIPAL)) {
            // Looked up by the filter, to read the request's identity without blocking.
            unremovable.produce(UnremovableBeanBuildItem.beanTypes(CURRENT_IDENTITY_ASSOCIATION));
        }
        beans.produce(AdditionalBeanBuildItem.unremovableOf(AdvanceDecisions.class));
        filters.produce(new ContainerRequestFilterBuildItem.Builder(ThrottledEndpointFilter.class.getName())
                .setNonBlockingRequired(true)
                .setPriority(FILTER_PRIORITY)
                .build());
    }

    @BuildStep
    @Record(ExecutionTime.STATIC_INIT)
    void recordThrottledEndpoints(ThrottledEndpointsBuildItem endpoints, ThrottledEndpointsRecorder recorder,
            BuildProducer<SyntheticBeanBuildItem> beans) {
        if (endpoints.getEndpoints().isEmpty()) {
            return;
        }
        beans.produce(SyntheticBeanBuildItem.configure(ThrottledEndpoints.class)
                .scope(Singleton.class)
                .unremovable()
                .supplier(recorder.endpoints(endpoints.getEndpoints()))
                .done());
    }

    private static MethodInfo find(IndexView index, MethodKey key) {
        ClassInfo declaring = index.getClassByName(key.declaringClass());
        if (declaring == null) {
            return null;
        }
        for (MethodInfo method : declaring.methods()) {
            if (MethodKey.of(method).equals(key)) {
                return method;
            }
        }
        return null;
    }

    /** A method with an HTTP method annotation ({@code @GET}, ... or one annotated {@code @HttpMethod}). */
    private static boolean isResourceMethod(IndexView index, MethodInfo method) {
        for (AnnotationInstance annotation : method.declaredAnnotations()) {
            ClassInfo type = index.getClassByName(annotation.name());
            if (type != null && type.hasDeclaredAnnotation(HTTP_METHOD)) {
                return true;
            }
            if (annotation.name().toString().startsWith("jakarta.ws.rs.")
                    && List.of("GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS")
                            .contains(annotation.name().local())) {
                return true;
            }
        }
        return false;
    }

    /** The endpoint when its key is known from the request alone, else {@code null}. */
    private static ThrottledEndpoint endpoint(int methodIndex, MethodDefinition definition, MethodInfo method,
            IndexView hierarchy) {
        if (method.hasDeclaredAnnotation(CACHE_RESULT) || method.declaringClass().hasDeclaredAnnotation(CACHE_RESULT)) {
            return null; // a cached result takes no permit: only the interceptor, inside the cache's, knows
        }
        ThrottledEndpoint endpoint = new ThrottledEndpoint();
        endpoint.setMethodIndex(methodIndex);
        endpoint.setDeclaringClass(method.declaringClass().name().toString());
        endpoint.setMethodName(method.name());
        List<String> types = new ArrayList<>();
        for (Type type : method.parameterTypes()) {
            types.add(type.name().toString());
        }
        endpoint.setParameterTypes(types);
        if (definition.getKeyResolver() != null) {
            DotName resolver = DotName.createSimple(definition.getKeyResolver());
            if (resolver.equals(PRINCIPAL_KEY_RESOLVER)) {
                endpoint.setKeySource(KeySource.PRINCIPAL);
            } else if (ThrottledMethodDefinitions.isRequestKeyResolver(hierarchy, resolver)) {
                endpoint.setKeySource(KeySource.REQUEST_RESOLVER);
            } else {
                return null; // other resolvers read the invocation
            }
            return endpoint;
        }
        boolean encodedMethod = method.hasDeclaredAnnotation(ENCODED) || method.declaringClass().hasDeclaredAnnotation(
                ENCODED);
        for (int position : definition.getKeyParameters()) {
            EndpointKeyParameter parameter = keyParameter(method, position, encodedMethod);
            if (parameter == null) {
                return null;
            }
            endpoint.getKeyParameters().add(parameter);
        }
        return endpoint;
    }

    /**
     * A {@code String} parameter bound to a path, query, header or cookie value by name, or {@code null} (converted
     * types, bodies, bean parameters, and names Quarkus REST derives itself stay with the interceptor).
     */
    private static EndpointKeyParameter keyParameter(MethodInfo method, int position, boolean encodedMethod) {
        if (!method.parameterType(position).name().equals(STRING)) {
            return null;
        }
        String parameterName = method.parameterName(position);
        Map<DotName, Source> sources = Map.of(PATH_PARAM, Source.PATH, REST_PATH, Source.PATH, QUERY_PARAM,
                Source.QUERY, REST_QUERY, Source.QUERY, HEADER_PARAM, Source.HEADER, REST_HEADER, Source.HEADER,
                COOKIE_PARAM, Source.COOKIE, REST_COOKIE, Source.COOKIE);
        Source source = null;
        String name = null;
        boolean encoded = encodedMethod;
        String defaultValue = null;
        for (AnnotationInstance annotation : method.parameters().get(position).declaredAnnotations()) {
            if (annotation.target().kind() != AnnotationTarget.Kind.METHOD_PARAMETER) {
                continue;
            }
            Source found = sources.get(annotation.name());
            if (found != null) {
                if (source != null) {
                    return null;
                }
                source = found;
                AnnotationValue value = annotation.value();
                name = value != null && !value.asString().isEmpty() ? value.asString() : null;
                if (name == null && !annotation.name().equals(REST_HEADER)) {
                    // @RestPath, @RestQuery and @RestCookie default to the parameter's name.
                    name = annotation.name().equals(REST_PATH) || annotation.name().equals(REST_QUERY)
                            || annotation.name().equals(REST_COOKIE) ? parameterName : null;
                }
            } else if (annotation.name().equals(ENCODED)) {
                encoded = true;
            } else if (annotation.name().equals(DEFAULT_VALUE)) {
                defaultValue = annotation.value().asString();
            }
        }
        if (source == null || name == null) {
            return null;
        }
        return new EndpointKeyParameter(position, source, name, encoded, defaultValue);
    }
}
