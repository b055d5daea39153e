package io.quarkiverse.pacer.runtime.throttle;

import jakarta.enterprise.context.Dependent;
import jakarta.interceptor.InvocationContext;

import io.quarkiverse.pacer.throttle.RequestKeyResolver;
import io.quarkiverse.pacer.throttle.ThrottleKeyResolver;
import io.quarkiverse.pacer.throttle.ThrottleLimit;
import io.quarkiverse.pacer.throttle.ThrottleLimitResolver;
import io.quarkus.arc.Arc;
import io.quarkus.arc.InjectableInstance;
import io.quarkus.arc.InstanceHandle;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpServerRequest;

/**
 * The application's {@link ThrottleKeyResolver} and {@link ThrottleLimitResolver} beans, selected by the classes the
 * build recorded (never by name, so a native image needs no reflection for them). A {@code @Dependent} resolver is
 * created for each call and destroyed after it, as Quarkus's cache does with its key generators; a bean of any other
 * scope is looked up once.
 */
public final class ResolverBeans {

    private ResolverBeans() {
    }

    /**
     * @param describe what declares the resolver, e.g. {@code of com.acme.Api#ping()}, for messages
     * @return the resolver; a {@link RequestKeyResolver} when the bean is one, whatever its scope
     */
    public static ThrottleKeyResolver keyResolver(Class<?> type, String describe) {
        InjectableInstance<?> instance = select(type, ThrottleKeyResolver.class, describe);
        if (!dependent(instance)) {
            return (ThrottleKeyResolver) instance.get();
        }
        return RequestKeyResolver.class.isAssignableFrom(type) ? new DependentRequestKeyResolver(instance)
                : new DependentKeyResolver(instance);
    }

    /** @param describe what declares the resolver, e.g. {@code of throttling policy "plans"}, for messages */
    public static ThrottleLimitResolver limitResolver(Class<?> type, String describe) {
        InjectableInstance<?> instance = select(type, ThrottleLimitResolver.class, describe);
        return dependent(instance) ? new DependentLimitResolver(instance) : (ThrottleLimitResolver) instance.get();
    }

    private static InjectableInstance<?> select(Class<?> type, Class<?> role, String describe) {
        InjectableInstance<?> instance = Arc.container().select(type);
        if (!instance.isResolvable()) {
            throw new IllegalStateException(role.getSimpleName() + " " + type.getName() + " " + describe
                    + " is not a CDI bean: add a bean-defining annotation such as @ApplicationScoped");
        }
        return instance;
    }

    private static boolean dependent(InjectableInstance<?> instance) {
        // The handle is lazy: asking for its bean creates no instance.
        return instance.getHandle().getBean().getScope() == Dependent.class;
    }

    private record DependentKeyResolver(InjectableInstance<?> instance) implements ThrottleKeyResolver {

        @Override
        public String resolve(InvocationContext invocation) {
            try (InstanceHandle<?> handle = instance.getHandle()) {
                return ((ThrottleKeyResolver) handle.get()).resolve(invocation);
            }
        }
    }

    private record DependentRequestKeyResolver(InjectableInstance<?> instance) implements RequestKeyResolver {

        @Override
        public String resolve(HttpServerRequest request) {
            try (InstanceHandle<?> handle = instance.getHandle()) {
                return ((RequestKeyResolver) handle.get()).resolve(request);
            }
        }

        @Override
        public String resolve(InvocationContext invocation) {
            try (InstanceHandle<?> handle = instance.getHandle()) {
                return ((RequestKeyResolver) handle.get()).resolve(invocation);
            }
        }
    }

    private record DependentLimitResolver(InjectableInstance<?> instance) implements ThrottleLimitResolver {

        @Override
        public ThrottleLimit resolve(String policy, String key) {
            try (InstanceHandle<?> handle = instance.getHandle()) {
                return ((ThrottleLimitResolver) handle.get()).resolve(policy, key);
            }
        }

        @Override
        public Uni<ThrottleLimit> resolveAsync(String policy, String key) {
            return Uni.createFrom().deferred(() -> {
                InstanceHandle<?> handle = instance.getHandle();
                return ((ThrottleLimitResolver) handle.get()).resolveAsync(policy, key)
                        .onTermination().invoke(handle::close);
            });
        }
    }
}
