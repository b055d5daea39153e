package io.quarkiverse.pacer.deployment.scheduler;

import io.quarkiverse.pacer.test.support.RedisCommands;
import io.quarkus.test.QuarkusUnitTest;

/** The application of a {@code PACER} scheduler test: its job classes, on the composite scheduler, with Redis access. */
final class PacerSchedulerApp {

    private PacerSchedulerApp() {
    }

    static QuarkusUnitTest withJobs(Class<?>... classes) {
        return new QuarkusUnitTest()
                .overrideConfigKey("quarkus.scheduler.use-composite-scheduler", "true")
                .withApplicationRoot(jar -> jar.addClasses(classes).addClass(RedisCommands.class));
    }
}
