package io.quarkiverse.pacer.runtime.scheduler;

import java.util.Map;
import java.util.function.Supplier;

import io.quarkus.runtime.annotations.Recorder;

/** Hands the build's findings on programmatic jobs to the runtime. */
@Recorder
public class PacerSchedulerRecorder {

    /**
     * @param classes the task and skip predicate classes by name, as class proxies of the build: the runtime never
     *        loads a class by name
     */
    public Supplier<JobTaskClasses> taskClasses(Map<String, Class<?>> classes) {
        JobTaskClasses taskClasses = new JobTaskClasses(classes);
        return () -> taskClasses;
    }
}
