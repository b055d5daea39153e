/**
 * Pacer's own connections to Redis: long-lived pipelined connections on the configured client (per master on
 * Redis Cluster, routed by slot), batching of queued requests into one script call, scripts loaded by SHA with the
 * {@code NOSCRIPT} fallback, pub/sub subscriptions, and the failures a caller can tell apart.
 */
package io.quarkiverse.pacer.runtime.redis;
