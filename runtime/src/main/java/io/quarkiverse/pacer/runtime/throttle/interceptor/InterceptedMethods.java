package io.quarkiverse.pacer.runtime.throttle.interceptor;

import java.util.List;

import jakarta.inject.Singleton;
import jakarta.interceptor.InvocationContext;

import org.jboss.logging.Logger;

import io.quarkiverse.pacer.runtime.throttle.ResolverBeans;
import io.quarkiverse.pacer.runtime.throttle.limits.EffectiveLimits;
import io.quarkiverse.pacer.runtime.throttle.limits.LiveStack;
import io.quarkiverse.pacer.runtime.throttle.policy.MethodDefinition;
import io.quarkiverse.pacer.runtime.throttle.policy.PolicyRegistry;
import io.quarkiverse.pacer.runtime.throttle.policy.ThrottleDefinitions;
import io.quarkiverse.pacer.runtime.throttle.policy.ThrottlePolicy;
import io.quarkiverse.pacer.throttle.ThrottleKeyResolver;

/**
 * Every {@code @Throttled} method prepared for the interceptor, in the order of {@link ThrottleDefinitions#methods()},
 * so the {@link MethodIndex} binding the build put on a method finds it directly.
 */
@Singleton
public class InterceptedMethods {

    private static final Logger LOG = Logger.getLogger(InterceptedMethods.class);

    /** By definition index. */
    private final ThrottledMethod[] methods;

    /** By definition index: why a method could not be prepared, or {@code null}. */
    private final RuntimeException[] problems;

    InterceptedMethods(PolicyRegistry policies, EffectiveLimits limits) {
        ThrottleDefinitions definitions = policies.definitions();
        List<MethodDefinition> methodDefinitions = definitions.methods();
        this.methods = new ThrottledMethod[methodDefinitions.size()];
        this.problems = new RuntimeException[methods.length];
        for (int i = 0; i < methods.length; i++) {
            MethodDefinition definition = methodDefinitions.get(i);
            try {
                methods[i] = prepare(definition, definitions, policies, limits);
            } catch (RuntimeException e) {
                // One method that cannot be prepared fails its own calls only, with this cause.
                problems[i] = e;
                LOG.errorf(e, "@Throttled method %s cannot be enforced: %s", definition.getId(), e.getMessage());
            }
        }
    }

    /** The prepared method of an invocation, or {@code null} when it is not throttled. */
    ThrottledMethod of(InvocationContext invocation) {
        MethodIndex index = invocation.getInterceptorBinding(MethodIndex.class);
        return index == null ? null : byIndex(index.value());
    }

    /** The prepared method of the definition at {@code index}. */
    ThrottledMethod byIndex(int index) {
        ThrottledMethod method = methods[index];
        if (method == null) {
            throw new IllegalStateException(problems[index].getMessage(), problems[index]);
        }
        return method;
    }

    private static ThrottledMethod prepare(MethodDefinition definition, ThrottleDefinitions definitions,
            PolicyRegistry policies, EffectiveLimits limits) {
        // Disabled policies too: a runtime override may switch them on.
        ThrottlePolicy[] declared = new ThrottlePolicy[definition.getPolicies().size()];
        for (int i = 0; i < declared.length; i++) {
            declared[i] = policies.all().get(definition.getPolicies().get(i));
        }
        int[] costArray = definition.getCosts().stream().mapToInt(Integer::intValue).toArray();
        LiveStack stack = limits.stackOf(declared, costArray);
        ThrottleKeyResolver resolver = definition.getKeyResolver() == null ? null
                : ResolverBeans.keyResolver(definitions.resolverClass(definition.getKeyResolver()),
                        "of " + definition.getId());
        int[] keyParameters = definition.getKeyParameters().stream().mapToInt(Integer::intValue).toArray();
        return new ThrottledMethod(definition.getId(), stack, definition.getReturnKind(), definition.getOnLimit(),
                definition.getMaxWaitMillis() * 1000, keyParameters, resolver);
    }
}
