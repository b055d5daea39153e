package io.quarkiverse.pacer.runtime.scheduler;

import io.quarkus.scheduler.common.runtime.SyntheticScheduled;
import io.vertx.core.json.JsonObject;

/**
 * The definition of a programmatic {@code PACER} job whose task is a class, as stored in Redis: its schedule (the
 * {@code Scheduled} of Quarkus's job definition, in Quarkus's JSON form) and the names of its task and skip predicate
 * classes, and whether the task runs on a virtual thread. Exactly one of {@code taskClass} and {@code asyncTaskClass} is
 * set; {@code skipPredicateClass} may be {@code null}.
 */
record StoredJobDefinition(SyntheticScheduled scheduled, String taskClass, String asyncTaskClass, String skipPredicateClass,
        boolean virtualThread) {

    String identity() {
        return scheduled.identity();
    }

    String toJson() {
        JsonObject json = new JsonObject().put("scheduled", new JsonObject(scheduled.toJson()));
        if (taskClass != null) {
            json.put("task", taskClass);
        } else {
            json.put("asyncTask", asyncTaskClass);
        }
        if (skipPredicateClass != null) {
            json.put("skipPredicate", skipPredicateClass);
        }
        if (virtualThread) {
            json.put("virtualThread", true);
        }
        return json.encode();
    }

    /** @throws RuntimeException if {@code text} is not a stored job */
    static StoredJobDefinition fromJson(String text) {
        JsonObject json = new JsonObject(text);
        StoredJobDefinition job = new StoredJobDefinition(SyntheticScheduled.fromJson(json.getJsonObject("scheduled").encode()),
                json.getString("task"), json.getString("asyncTask"), json.getString("skipPredicate"),
                json.getBoolean("virtualThread", false));
        if ((job.taskClass == null) == (job.asyncTaskClass == null)) {
            throw new IllegalArgumentException("exactly one of task and asyncTask must be set");
        }
        return job;
    }
}
