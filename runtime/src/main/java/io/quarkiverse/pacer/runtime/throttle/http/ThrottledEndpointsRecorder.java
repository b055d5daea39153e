package io.quarkiverse.pacer.runtime.throttle.http;

import java.util.List;
import java.util.function.Supplier;

import io.quarkus.runtime.annotations.Recorder;

/** Hands the REST endpoints decided in their request filter, found at build time, to the runtime. */
@Recorder
public class ThrottledEndpointsRecorder {

    public Supplier<ThrottledEndpoints> endpoints(List<ThrottledEndpoint> endpoints) {
        ThrottledEndpoints found = new ThrottledEndpoints(endpoints);
        return () -> found;
    }
}
