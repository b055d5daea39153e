package io.quarkiverse.pacer.it.endpoints;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkiverse.pacer.throttle.ThrottleKey;
import io.quarkiverse.pacer.throttle.Throttled;

/** The same limit as {@link EndpointsResource#blocking}, on a CDI bean: decided by the interceptor alone. */
@ApplicationScoped
public class LimitedService {

    @Throttled(name = "it-endpoint-bean", limit = 2, window = "1h")
    public String call(@ThrottleKey String user) {
        return "hello " + user;
    }
}
