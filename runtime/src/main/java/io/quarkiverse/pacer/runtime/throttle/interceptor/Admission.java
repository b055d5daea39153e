package io.quarkiverse.pacer.runtime.throttle.interceptor;

import java.time.Duration;

import io.quarkiverse.pacer.runtime.throttle.engine.DecisionStack;
import io.quarkiverse.pacer.runtime.throttle.engine.ThrottleEngine;
import io.quarkiverse.pacer.runtime.throttle.engine.ThrottleMode;
import io.quarkiverse.pacer.runtime.throttle.engine.ThrottleOutcome;
import io.quarkiverse.pacer.runtime.throttle.http.RateLimitHeaders;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;

/**
 * The reactive decision of one call of a {@code @Throttled} method, with its {@code WAIT}: one home for the interceptor
 * and for decisions made before a REST endpoint's method runs ({@link AdvanceDecisions}), so both decide alike.
 */
final class Admission {

    private Admission() {
    }

    /**
     * Decides at subscription; rejections (after an optional wait on a timer) fail the returned Uni with
     * {@code ThrottledException}. A permitted outcome is remembered in {@code request} for the success headers.
     */
    static Uni<ThrottleOutcome> permitted(ThrottleEngine engine, ThrottledMethod method, DecisionStack stack, String key,
            Context request) {
        return engine.decide(stack, key, ThrottleMode.ACQUIRE).onItem().transformToUni(outcome -> {
            if (outcome.allowed()) {
                RateLimitHeaders.remember(request, outcome);
                return Uni.createFrom().item(outcome);
            }
            long retryAfter = outcome.retryAfterMicros();
            if (!method.waits(retryAfter)) {
                return Uni.createFrom().failure(outcome.exception());
            }
            return Uni.createFrom().voidItem()
                    .onItem().delayIt().by(waitFor(retryAfter))
                    .onItem().transformToUni(ignored -> engine.decide(stack, key, ThrottleMode.ACQUIRE))
                    .onItem().transformToUni(retried -> {
                        if (!retried.allowed()) {
                            return Uni.createFrom().failure(retried.exception());
                        }
                        RateLimitHeaders.remember(request, retried);
                        return Uni.createFrom().item(retried);
                    });
        });
    }

    /**
     * The wait before trying again: the retry-after rounded up to whole milliseconds, plus one, because timers count
     * whole milliseconds and may fire within the millisecond they are due; a retry that came even a little early would
     * be rejected again.
     */
    static Duration waitFor(long retryAfterMicros) {
        return Duration.ofMillis((retryAfterMicros + 999) / 1000 + 1);
    }
}
