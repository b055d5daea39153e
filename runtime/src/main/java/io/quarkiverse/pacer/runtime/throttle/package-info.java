/**
 * Throttling at runtime, wired together: the programmatic {@code Throttler}/{@code ReactiveThrottler} beans,
 * the recorder that receives the build's definitions, metrics, and the resolver beans the application declares.
 * Sub-packages by concern: {@code policy} (what a policy is), {@code limits} (its limits at the moment of a call),
 * {@code interceptor} ({@code @Throttled} methods), {@code engine} (the decision in Redis), {@code lease}
 * ({@code CONCURRENCY} permits), {@code fallback} (when Redis fails), {@code http} (429 and rate-limit headers).
 */
package io.quarkiverse.pacer.runtime.throttle;
