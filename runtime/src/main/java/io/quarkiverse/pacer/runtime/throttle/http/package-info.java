/**
 * HTTP: {@code ThrottledException} as {@code 429 Too Many Requests} with {@code Retry-After} and the
 * {@code RateLimit} headers, those headers on successful responses, and the client address key.
 */
package io.quarkiverse.pacer.runtime.throttle.http;
