/**
 * The consumer side: one loop per queue shard claims due messages in batches, invokes the {@code @Delayed}
 * method, acknowledges or gives messages back (retry, dead letter, throttled), renews leases and wakes up on
 * producers' notifications.
 */
package io.quarkiverse.pacer.runtime.delay.consumer;
