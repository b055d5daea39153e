package io.quarkiverse.pacer.runtime.scheduler;

import java.util.Map;
import java.util.TreeMap;

/**
 * The classes the build found that can be the task or skip predicate of a programmatic {@code PACER} job (classes
 * implementing {@code Consumer<ScheduledExecution>}, {@code Function<ScheduledExecution, Uni<Void>>} or
 * {@code Scheduled.SkipPredicate}), by name: a job stored in Redis names its classes, and an instance recreates it from
 * this map, never by loading a class by name (which a native executable could not do).
 */
public final class JobTaskClasses {

    private final Map<String, Class<?>> classes;

    public JobTaskClasses(Map<String, Class<?>> classes) {
        this.classes = Map.copyOf(classes);
    }

    /** The class of this name, or {@code null} if the build did not find it. */
    Class<?> get(String name) {
        return classes.get(name);
    }

    boolean contains(Class<?> type) {
        return classes.get(type.getName()) == type;
    }

    @Override
    public String toString() {
        return new TreeMap<>(classes).keySet().toString();
    }
}
