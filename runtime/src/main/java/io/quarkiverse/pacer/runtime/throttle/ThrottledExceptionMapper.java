package io.quarkiverse.pacer.runtime.throttle;

import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;

import io.quarkiverse.pacer.throttle.ThrottleDecision;
import io.quarkiverse.pacer.throttle.ThrottledException;
import io.quarkus.arc.Arc;

/**
 * Maps {@link ThrottledException} to {@code 429 Too Many Requests} (registered only when Quarkus REST is present):
 * {@code Retry-After} in whole seconds rounded up, the IETF draft headers {@code RateLimit-Policy} and
 * {@code RateLimit} (structured fields: {@code "<policy>";q=<limit>;w=<window s>} and
 * {@code "<policy>";r=<remaining>;t=<seconds>}), and an {@code application/problem+json} body (RFC 9457).
 */
public class ThrottledExceptionMapper implements ExceptionMapper<ThrottledException> {

    static final String PROBLEM_JSON = "application/problem+json";

    @Override
    public Response toResponse(ThrottledException exception) {
        ThrottleDecision worst = exception.decision();
        long retryAfterSeconds = Math.max(1, ceilSeconds(worst.retryAfter().toNanos() / 1000));
        StringBuilder policyHeader = new StringBuilder();
        StringBuilder stateHeader = new StringBuilder();
        StringBuilder policiesJson = new StringBuilder();
        for (ThrottleDecision decision : exception.decisions()) {
            if (policyHeader.length() > 0) {
                policyHeader.append(", ");
                stateHeader.append(", ");
                policiesJson.append(',');
            }
            String quoted = sfString(decision.policy());
            policyHeader.append(quoted).append(";q=").append(decision.limit());
            long windowMicros = windowMicros(decision.policy());
            if (windowMicros > 0) {
                policyHeader.append(";w=").append(ceilSeconds(windowMicros));
            }
            long seconds = Math.max(ceilSeconds(decision.retryAfter().toNanos() / 1000),
                    ceilSeconds(decision.resetAfter().toNanos() / 1000));
            stateHeader.append(quoted).append(";r=").append(decision.remaining()).append(";t=").append(seconds);
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
                .header("RateLimit-Policy", policyHeader.toString())
                .header("RateLimit", stateHeader.toString())
                .type(PROBLEM_JSON)
                .entity(body)
                .build();
    }

    private static long windowMicros(String policy) {
        ThrottlePolicy enforced = Arc.container().instance(ThrottleEngine.class).get().policies().get(policy);
        return enforced == null ? 0 : enforced.windowMicros;
    }

    static long ceilSeconds(long micros) {
        return micros <= 0 ? 0 : (micros + 999_999) / 1_000_000;
    }

    /** A structured-field string (RFC 8941): printable ASCII with {@code "} and {@code \} escaped. */
    private static String sfString(String value) {
        StringBuilder quoted = new StringBuilder(value.length() + 2).append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '"' || c == '\\') {
                quoted.append('\\').append(c);
            } else if (c >= 0x20 && c < 0x7f) {
                quoted.append(c);
            } else {
                quoted.append('?');
            }
        }
        return quoted.append('"').toString();
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
