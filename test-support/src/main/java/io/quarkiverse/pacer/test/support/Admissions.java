package io.quarkiverse.pacer.test.support;

import io.quarkiverse.pacer.throttle.ThrottledException;

/** Counts how many of a number of sequential calls of a {@code @Throttled} method were admitted. */
public final class Admissions {

    private Admissions() {
    }

    /** Calls {@code call} {@code attempts} times; a {@link ThrottledException} counts as rejected. */
    public static int count(int attempts, Runnable call) {
        int admitted = 0;
        for (int i = 0; i < attempts; i++) {
            try {
                call.run();
                admitted++;
            } catch (ThrottledException rejected) {
                // counted by what passed
            }
        }
        return admitted;
    }
}
