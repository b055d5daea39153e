package io.quarkiverse.pacer.runtime.throttle.http;

import java.util.Map;

import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;

import io.quarkiverse.pacer.runtime.throttle.limits.EffectiveLimits;
import io.quarkiverse.pacer.runtime.throttle.policy.PolicyRegistry;
import io.quarkiverse.pacer.runtime.throttle.policy.ThrottlePolicy;
import io.quarkiverse.pacer.throttle.ThrottleDecision;
import io.quarkiverse.pacer.throttle.ThrottledException;
import io.quarkus.arc.Arc;

/**
 * Maps {@link ThrottledException} to {@code 429 Too Many Requests} (registered only when Quarkus REST is present):
 * {@code Retry-After} in whole seconds rounded up, the IETF draft headers {@code RateLimit-Policy} and
 * {@code RateLimit} of the rejecting policies (see {@link RateLimitHeaders} for {@code q}, {@code w}, {@code r} and
 * {@code t}), and an {@code application/problem+json} body (RFC 9457).
 */
public class ThrottledExceptionMapper implements ExceptionMapper<ThrottledException> {

    static final String PROBLEM_JSON = "application/problem+json";

    // Both singletons, looked up at the first rejection (a container lookup per 429 showed in profiles): the mapper
    // may be created before the beans can be.
    private volatile PolicyRegistry registry;
    private volatile EffectiveLimits effectiveLimits;

    @Override
    public Response toResponse(ThrottledException exception) {
        ThrottleDecision worst = exception.decision();
        long retryAfterSeconds = Math.max(1, ceilSeconds(worst.retryAfter().toNanos() / 1000));
        RateLimitHeaders headers = new RateLimitHeaders();
        StringBuilder policiesJson = new StringBuilder();
        PolicyRegistry registry = this.registry;
        EffectiveLimits limits = this.effectiveLimits;
        if (registry == null || limits == null) {
            this.registry = registry = Arc.container().instance(PolicyRegistry.class).get();
            this.effectiveLimits = limits = Arc.container().instance(EffectiveLimits.class).get();
        }
        Map<String, ThrottlePolicy> policies = registry.all();
        for (ThrottleDecision decision : exception.decisions()) {
            if (policiesJson.length() > 0) {
                policiesJson.append(',');
            }
            ThrottlePolicy policy = policies.get(decision.policy());
            // The window the key is decided with now: a runtime override's, the key's own, else the policy's.
            headers.add(decision.policy(), decision.limit(), policy == null ? null : policy.algorithm,
                    policy == null ? 0 : limits.windowMicros(policy, decision.key()), decision.remaining(),
                    decision.resetAfter().toNanos() / 1000);
            policiesJson.append("{\"policy\":").append(jsonString(decision.policy()))
                    .append(",\"limit\":").append(decision.limit())
                    .append(",\"remaining\":").append(decision.remaining())
                    .append(",\"retryAfterSeconds\":")
                    .append(Math.max(1, ceilSeconds(decision.retryAfter().toNanos() / 1000))).append('}');
        }
        String body = "{\"type\":\"about:blank\",\"title\":\"Too Many Requests\",\"status\":429,\"detail\":"
                + jsonString(exception.getMessage()) + ",\"retryAfterSeconds\":" + retryAfterSeconds
                + ",\"policies\":[" + policiesJson + "]}";
        return Response.status(429)
                .header("Retry-After", retryAfterSeconds)
                .header(RateLimitHeaders.POLICY, headers.policy())
                .header(RateLimitHeaders.STATE, headers.state())
                .type(PROBLEM_JSON)
                .entity(body)
                .build();
    }

    static long ceilSeconds(long micros) {
        return RateLimitHeaders.ceilSeconds(micros);
    }

    private static String jsonString(String value) {
        StringBuilder json = new StringBuilder(value.length() + 2).append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> json.append("\\\"");
                case '\\' -> json.append("\\\\");
                case '\n' -> json.append("\\n");
                case '\r' -> json.append("\\r");
                case '\t' -> json.append("\\t");
                default -> {
                    if (c < 0x20) {
                        json.append(String.format("\\u%04x", (int) c));
                    } else {
                        json.append(c);
                    }
                }
            }
        }
        return json.append('"').toString();
    }
}
