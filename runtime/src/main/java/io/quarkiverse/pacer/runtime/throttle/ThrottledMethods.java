package io.quarkiverse.pacer.runtime.throttle;

import java.util.List;

import jakarta.inject.Singleton;
import jakarta.interceptor.InvocationContext;

import io.quarkiverse.pacer.throttle.ThrottleKeyResolver;
import io.quarkus.arc.Arc;
import io.quarkus.arc.InstanceHandle;

/**
 * Every {@code @Throttled} method prepared for the interceptor, in the order of {@link ThrottleDefinitions#methods()},
 * so the {@link ThrottledMethodIndex} binding the build put on a method finds it directly.
 */
@Singleton
public class ThrottledMethods {

    /** By definition index. */
    private final ThrottledMethod[] methods;

    ThrottledMethods(ThrottlePolicies policies, ThrottleLimits limits) {
        List<MethodDefinition> definitions = policies.definitions().methods();
        this.methods = new ThrottledMethod[definitions.size()];
        for (int i = 0; i < methods.length; i++) {
            methods[i] = prepare(definitions.get(i), policies, limits);
        }
    }

    /** The prepared method of an invocation, or {@code null} when it is not throttled. */
    ThrottledMethod of(InvocationContext invocation) {
        ThrottledMethodIndex index = invocation.getInterceptorBinding(ThrottledMethodIndex.class);
        return index == null ? null : methods[index.value()];
    }

    private static ThrottledMethod prepare(MethodDefinition definition, ThrottlePolicies policies,
            ThrottleLimits limits) {
        // Disabled policies too: a runtime override may switch them on.
        ThrottlePolicy[] declared = new ThrottlePolicy[definition.getPolicies().size()];
        for (int i = 0; i < declared.length; i++) {
            declared[i] = policies.all().get(definition.getPolicies().get(i));
        }
        int[] costArray = definition.getCosts().stream().mapToInt(Integer::intValue).toArray();
        LiveStack stack = limits.stackOf(declared, costArray);
        ThrottleKeyResolver resolver = definition.getKeyResolver() == null ? null : resolver(definition.getKeyResolver());
        int[] keyParameters = definition.getKeyParameters().stream().mapToInt(Integer::intValue).toArray();
        return new ThrottledMethod(definition.getId(), stack, ThrottledMethod.kindOf(returnType(definition)),
                definition.getOnLimit(),
                definition.getMaxWaitMillis() * 1000, keyParameters, resolver);
    }

    /** The erased return type; {@code void.class} stands for every type that is not a class or interface. */
    private static Class<?> returnType(MethodDefinition definition) {
        if (definition.getReturnType() == null) {
            return void.class;
        }
        try {
            return Class.forName(definition.getReturnType(), false, Thread.currentThread().getContextClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("The return type of " + definition.getId() + " is missing", e);
        }
    }

    private static ThrottleKeyResolver resolver(String className) {
        try {
            Class<?> type = Class.forName(className, false, Thread.currentThread().getContextClassLoader());
            InstanceHandle<?> handle = Arc.container().instance(type);
            if (!handle.isAvailable()) {
                throw new IllegalStateException("ThrottleKeyResolver " + className + " is not a CDI bean");
            }
            return (ThrottleKeyResolver) handle.get();
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("ThrottleKeyResolver " + className + " is missing", e);
        }
    }
}
