package io.quarkiverse.pacer.runtime;

import jakarta.interceptor.Interceptor;

/** When, at startup, Pacer begins to call the application's code. */
public final class PacerStartup {

    /**
     * The priority of the {@code StartupEvent} observers that start delivering delayed messages, firing recurring
     * schedules and running {@code PACER} jobs: after the application's own observers (default priority), so that no
     * {@code @Delayed} or {@code @Scheduled} method runs while the application's beans are still being set up.
     */
    public static final int RUN_APPLICATION_CODE = Interceptor.Priority.PLATFORM_AFTER;

    private PacerStartup() {
    }
}
