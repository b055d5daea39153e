package io.quarkiverse.pacer.runtime.throttle;

import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import io.quarkiverse.pacer.runtime.throttle.policy.MethodDefinition;
import io.quarkiverse.pacer.runtime.throttle.policy.PolicyDefinition;
import io.quarkiverse.pacer.runtime.throttle.policy.ThrottleDefinitions;
import io.quarkus.runtime.annotations.Recorder;

/**
 * Hands the build-time findings to the runtime; no scanning or reflection happens at runtime.
 */
@Recorder
public class ThrottleRecorder {

    /**
     * @param resolverClasses the resolver bean classes the definitions name, as class proxies of the build: the
     *        runtime selects their beans by class, never by name
     */
    public Supplier<ThrottleDefinitions> definitions(List<PolicyDefinition> policies, List<MethodDefinition> methods,
            Map<String, Class<?>> resolverClasses) {
        ThrottleDefinitions definitions = new ThrottleDefinitions(policies, methods, resolverClasses);
        return () -> definitions;
    }
}
