package io.quarkiverse.pacer.deployment;

import java.util.List;

import io.quarkiverse.pacer.runtime.throttle.http.ThrottledEndpoint;
import io.quarkus.builder.item.SimpleBuildItem;

/** The {@code @Throttled} REST endpoints decided in their request filter, in definition order; empty without REST. */
public final class ThrottledEndpointsBuildItem extends SimpleBuildItem {

    private final List<ThrottledEndpoint> endpoints;

    ThrottledEndpointsBuildItem(List<ThrottledEndpoint> endpoints) {
        this.endpoints = List.copyOf(endpoints);
    }

    public List<ThrottledEndpoint> getEndpoints() {
        return endpoints;
    }
}
