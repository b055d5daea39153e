package io.quarkiverse.pacer.runtime.throttle.http;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;

import io.quarkiverse.pacer.runtime.throttle.engine.ThrottleOutcome;

/**
 * Adds {@code RateLimit-Policy} and {@code RateLimit} to the successful responses of throttled REST endpoints
 * (registered when Quarkus REST is present), from the decision the interceptor remembered for the request, which it
 * does unless {@code quarkus.pacer.throttle.headers-on-success=false}. Rejections get theirs from
 * {@link ThrottledExceptionMapper}.
 */
public class RateLimitHeadersFilter implements ContainerResponseFilter {

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        ThrottleOutcome outcome = RateLimitHeaders.remembered();
        if (outcome == null || response.getHeaders().containsKey(RateLimitHeaders.STATE)) {
            return;
        }
        RateLimitHeaders headers = RateLimitHeaders.of(outcome);
        if (!headers.isEmpty()) {
            response.getHeaders().putSingle(RateLimitHeaders.POLICY, headers.policy());
            response.getHeaders().putSingle(RateLimitHeaders.STATE, headers.state());
        }
    }
}
