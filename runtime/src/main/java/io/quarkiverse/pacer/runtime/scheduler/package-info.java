/**
 * The {@code PACER} implementation of Quarkus's scheduler API: {@code @Scheduled(executeWith = "PACER")} methods and
 * programmatic jobs run each tick once across all instances. {@link io.quarkiverse.pacer.runtime.scheduler.PacerScheduler}
 * is the {@code Scheduler} bean, one {@link io.quarkiverse.pacer.runtime.scheduler.ClusterJob} per schedule reads and
 * claims its ticks through {@link io.quarkiverse.pacer.runtime.scheduler.JobStateStore} (the job's state in Redis, time
 * from Redis), {@link io.quarkiverse.pacer.runtime.scheduler.FireTimes} computes the ticks and
 * {@link io.quarkiverse.pacer.runtime.scheduler.DueTick} what a due tick comes to (both shared with the recurring
 * schedules of delay queues), and
 * {@link io.quarkiverse.pacer.runtime.scheduler.JobRun} runs a claimed tick; each job reports to its
 * {@link io.quarkiverse.pacer.runtime.scheduler.JobMetrics} (Micrometer meters when present, else nothing). A
 * programmatic job ({@link io.quarkiverse.pacer.runtime.scheduler.PacerJobDefinition}) whose task is a class is stored as
 * a {@link io.quarkiverse.pacer.runtime.scheduler.StoredJobDefinition} in the
 * {@link io.quarkiverse.pacer.runtime.scheduler.JobDefinitionStore}, and recreated from the classes the build found
 * ({@link io.quarkiverse.pacer.runtime.scheduler.JobTaskClasses}).
 */
package io.quarkiverse.pacer.runtime.scheduler;
