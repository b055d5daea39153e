/**
 * HTTP: {@code ThrottledException} as {@code 429 Too Many Requests} with {@code Retry-After} and the
 * {@code RateLimit} headers, those headers on successful responses, the request's own keys (client address, principal),
 * and the request filter deciding REST endpoints before their method is dispatched.
 */
package io.quarkiverse.pacer.runtime.throttle.http;
