package io.quarkiverse.pacer.runtime.throttle.http;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.jboss.resteasy.reactive.server.core.ResteasyReactiveRequestContext;
import org.jboss.resteasy.reactive.server.mapping.RuntimeResource;
import org.jboss.resteasy.reactive.server.spi.ResteasyReactiveResourceInfo;

import io.quarkiverse.pacer.runtime.throttle.http.ThrottledEndpoint.KeySource;
import io.quarkiverse.pacer.runtime.throttle.interceptor.AdvanceDecisions;
import io.quarkiverse.pacer.runtime.throttle.policy.ThrottleKeyBuilder;
import io.vertx.ext.web.RoutingContext;

/**
 * The REST endpoints decided in their request filter ({@link ThrottledEndpointFilter}), recorded at build time, and
 * how to form each one's key from the request before the method runs.
 */
public class ThrottledEndpoints {

    /** Marks a matched resource method that is not decided in advance. */
    private static final Object NONE = new Object();

    /** By {@code declaringClass#name(parameter types)}. */
    private final Map<String, EndpointKey> bySignature = new HashMap<>();
    /** By the matched resource method (one object per resource method, for the application's lifetime). */
    private final Map<RuntimeResource, Object> byTarget = new ConcurrentHashMap<>();

    public ThrottledEndpoints(List<ThrottledEndpoint> endpoints) {
        for (ThrottledEndpoint endpoint : endpoints) {
            bySignature.put(signature(endpoint.getDeclaringClass(), endpoint.getMethodName(),
                    endpoint.getParameterTypes().toArray(String[]::new)), new EndpointKey(endpoint));
        }
    }

    /** The key of the request's matched method, or {@code null} when that method is not decided in advance. */
    EndpointKey of(ResteasyReactiveRequestContext request) {
        RuntimeResource target = request.getTarget();
        if (target == null) {
            return null;
        }
        Object found = byTarget.get(target);
        if (found == null) {
            found = byTarget.computeIfAbsent(target, ignored -> find(request.getResteasyReactiveResourceInfo()));
        }
        return found == NONE ? null : (EndpointKey) found;
    }

    private Object find(ResteasyReactiveResourceInfo info) {
        if (info == null) {
            return NONE;
        }
        String declaring = info.getActualDeclaringClassName() != null ? info.getActualDeclaringClassName()
                : info.getResourceClass().getName();
        Class<?>[] types = info.getParameterTypes();
        String[] names = new String[types.length];
        for (int i = 0; i < types.length; i++) {
            names[i] = types[i].getName();
        }
        EndpointKey key = bySignature.get(signature(declaring, info.getName(), names));
        return key == null ? NONE : key;
    }

    private static String signature(String declaringClass, String name, String[] parameterTypes) {
        return declaringClass + '#' + name + '(' + String.join(",", parameterTypes) + ')';
    }

    /** One endpoint's key, formed from the request as Quarkus REST forms the method's arguments. */
    static final class EndpointKey {

        final int methodIndex;
        private final int parameterCount;
        private final EndpointKeyParameter[] parameters;
        private final int[] positions;
        private final KeySource source;

        EndpointKey(ThrottledEndpoint endpoint) {
            this.methodIndex = endpoint.getMethodIndex();
            this.parameterCount = endpoint.getParameterTypes().size();
            this.parameters = endpoint.getKeyParameters().toArray(EndpointKeyParameter[]::new);
            this.positions = new int[parameters.length];
            for (int i = 0; i < parameters.length; i++) {
                positions[i] = parameters[i].getPosition();
            }
            this.source = endpoint.getKeySource();
        }

        /** Keyed by the principal: the key is {@link RequestPrincipal#key()}, formed once the identity is known. */
        boolean byPrincipal() {
            return source == KeySource.PRINCIPAL;
        }

        /** The key of a request, unless {@link #byPrincipal()}. */
        String key(ResteasyReactiveRequestContext request, AdvanceDecisions decisions) {
            if (source == KeySource.REQUEST_RESOLVER) {
                return ThrottleKeyBuilder.of(decisions.requestKeyResolver(methodIndex)
                        .resolve(request.serverRequest().unwrap(RoutingContext.class).request()));
            }
            if (parameters.length == 0) {
                return ThrottleKeyBuilder.GLOBAL;
            }
            Object[] arguments = new Object[parameterCount];
            for (EndpointKeyParameter parameter : parameters) {
                arguments[parameter.getPosition()] = value(request, parameter);
            }
            return ThrottleKeyBuilder.of(arguments, positions);
        }

        /** The parameter's value as Quarkus REST extracts it for a {@code String} parameter. */
        private static Object value(ResteasyReactiveRequestContext request, EndpointKeyParameter parameter) {
            Object value = switch (parameter.getSource()) {
                case PATH -> request.getPathParameter(parameter.getName(), parameter.isEncoded());
                case QUERY -> request.getQueryParameter(parameter.getName(), true, parameter.isEncoded());
                case HEADER -> request.getHeader(parameter.getName(), true);
                case COOKIE -> request.getCookieParameter(parameter.getName());
            };
            return value != null ? value : parameter.getDefaultValue();
        }
    }
}
