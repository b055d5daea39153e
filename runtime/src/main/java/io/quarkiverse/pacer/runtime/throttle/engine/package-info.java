/**
 * The decision: one script call in Redis per decision (batched with others queued on the same connection), the
 * local short-circuit of keys Redis just rejected, resets, and the outcome handed back to callers.
 */
package io.quarkiverse.pacer.runtime.throttle.engine;
