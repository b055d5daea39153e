package io.quarkiverse.pacer.runtime.scheduler;

/** Hands each {@code PACER} job its meters, once, when the scheduler starts the job. */
public interface SchedulerMetrics {

    /** The meters of the job {@code id}. */
    JobMetrics job(String id);
}
