/**
 * The producer side: {@code DelayedQueue}/{@code ReactiveDelayedQueue}, one script call per message (coalesced
 * with others of its shard), bulk scheduling, durable writes, and the retry that rides out a short Redis outage.
 */
package io.quarkiverse.pacer.runtime.delay.producer;
