/**
 * The limits of a policy at the moment of a call: runtime overrides shared through Redis, per-key limits from
 * a {@code ThrottleLimitResolver} (cached), and the live stack of a method's policies that combines them.
 */
package io.quarkiverse.pacer.runtime.throttle.limits;
