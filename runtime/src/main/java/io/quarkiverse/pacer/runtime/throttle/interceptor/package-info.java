/**
 * The {@code @Throttled} interceptor and the per-method data it uses, prepared once at startup.
 */
package io.quarkiverse.pacer.runtime.throttle.interceptor;
