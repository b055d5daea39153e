package io.quarkiverse.pacer.it.endpoints;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkiverse.pacer.throttle.RequestKeyResolver;
import io.vertx.core.http.HttpServerRequest;

/** The {@code X-Api-Key} header as the throttling key: read from the request alone. */
@ApplicationScoped
public class ApiKeyResolver implements RequestKeyResolver {

    @Override
    public String resolve(HttpServerRequest request) {
        return request.getHeader("X-Api-Key");
    }
}
