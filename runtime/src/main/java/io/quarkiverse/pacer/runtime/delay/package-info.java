/**
 * Delay queues at runtime, shared by producers and consumers: the consumers the build recorded, key layout,
 * scripts, payload encoding, retry delays and metrics. Sub-packages by concern: {@code producer} (scheduling and
 * cancelling), {@code consumer} (claiming, invoking, acknowledging), {@code inspection} (depth, waiting messages,
 * dead letters), {@code integration} (JTA schedule-on-commit, forwarding to a Messaging channel).
 */
package io.quarkiverse.pacer.runtime.delay;
