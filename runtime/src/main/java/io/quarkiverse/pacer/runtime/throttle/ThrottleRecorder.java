package io.quarkiverse.pacer.runtime.throttle;

import java.util.List;
import java.util.function.Supplier;

import io.quarkus.runtime.annotations.Recorder;

/**
 * Hands the build-time findings to the runtime; no scanning or reflection happens at runtime.
 */
@Recorder
public class ThrottleRecorder {

    public Supplier<ThrottleDefinitions> definitions(List<PolicyDefinition> policies, List<MethodDefinition> methods) {
        return () -> new ThrottleDefinitions(policies, methods);
    }
}
