package io.quarkiverse.pacer.it.endpoints;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkiverse.pacer.throttle.OnLimit;
import io.quarkiverse.pacer.throttle.PrincipalKeyResolver;
import io.quarkiverse.pacer.throttle.ThrottleKey;
import io.quarkiverse.pacer.throttle.Throttled;

/** The limits of {@link EndpointsResource}'s endpoints, on a CDI bean: decided by the interceptor alone. */
@ApplicationScoped
public class LimitedService {

    @Throttled(name = "it-endpoint-bean", limit = 2, window = "1h")
    public String call(@ThrottleKey String user) {
        return "hello " + user;
    }

    @Throttled(name = "it-endpoint-wait-bean", limit = 1, window = "600ms", onLimit = OnLimit.WAIT, maxWait = "5s")
    public String callWaiting(@ThrottleKey String user) {
        return "hello " + user;
    }

    @Throttled(name = "it-endpoint-principal-bean", limit = 2, window = "1h", key = PrincipalKeyResolver.class)
    public String callByPrincipal() {
        return "hello";
    }

    @Throttled(name = "it-endpoint-api-key-bean", limit = 2, window = "1h", key = ApiKeyResolver.class)
    public String callByApiKey() {
        return "hello";
    }
}
