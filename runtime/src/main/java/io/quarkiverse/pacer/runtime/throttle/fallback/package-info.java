/**
 * What a decision does while Redis is unreachable or slow: {@code on-redis-failure} ({@code allow},
 * {@code reject}, or an in-memory limiter per instance), and the log of outages.
 */
package io.quarkiverse.pacer.runtime.throttle.fallback;
