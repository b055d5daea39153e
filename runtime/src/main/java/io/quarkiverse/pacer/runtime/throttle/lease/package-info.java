/**
 * {@code CONCURRENCY} permits: leases renewed while a call runs, released when it ends, and the programmatic
 * {@code ThrottlePermit} with its fencing token.
 */
package io.quarkiverse.pacer.runtime.throttle.lease;
