package io.quarkiverse.pacer.deployment.support;

import io.quarkiverse.pacer.runtime.throttle.policy.ThrottleKeyBuilder;
import io.quarkiverse.pacer.runtime.throttle.policy.ThrottleKeyLayout;
import io.quarkiverse.pacer.throttle.ThrottledException;

/** Calls of {@code @Throttled} methods as tests count them. */
public final class ThrottleCalls {

    private ThrottleCalls() {
    }

    /** Whether the call was admitted ({@code false}: it threw {@link ThrottledException}). */
    public static boolean admitted(Runnable call) {
        try {
            call.run();
            return true;
        } catch (ThrottledException e) {
            return false;
        }
    }

    /** The Redis key of a single, keyed policy {@code policy} with the default prefix, to find its slot. */
    public static String redisKey(String policy, String key) {
        return ThrottleKeyLayout.baseKey("pacer", policy, ThrottleKeyBuilder.of(key), policy);
    }
}
