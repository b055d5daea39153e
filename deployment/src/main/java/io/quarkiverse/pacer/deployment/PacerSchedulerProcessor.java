package io.quarkiverse.pacer.deployment;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.jboss.jandex.AnnotationInstance;
import org.jboss.jandex.AnnotationValue;
import org.jboss.jandex.DotName;
import org.jboss.jandex.IndexView;

import io.quarkiverse.pacer.runtime.scheduler.MicrometerSchedulerMetrics;
import io.quarkiverse.pacer.runtime.scheduler.PacerScheduler;
import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.arc.deployment.ValidationPhaseBuildItem.ValidationErrorBuildItem;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.builditem.CombinedIndexBuildItem;
import io.quarkus.deployment.metrics.MetricsCapabilityBuildItem;
import io.quarkus.runtime.metrics.MetricsFactory;
import io.quarkus.scheduler.deployment.ForceStartSchedulerBuildItem;
import io.quarkus.scheduler.deployment.ScheduledBusinessMethodItem;
import io.quarkus.scheduler.deployment.SchedulerImplementationBuildItem;
import io.quarkus.scheduler.runtime.SchedulerConfig;

/**
 * The {@code PACER} implementation of Quarkus's scheduler: registered when the application has a
 * {@code @Scheduled(executeWith = "PACER")} method, so an application without one keeps Quarkus's scheduler as it was;
 * what this implementation does not support yet fails the build, naming the method.
 */
public class PacerSchedulerProcessor {

    /**
     * Below Quarkus's own implementations ({@code SIMPLE} is 0, {@code QUARTZ} 1): {@code PACER} is never the default,
     * only chosen with {@code executeWith}, so Pacer's own internal jobs and the application's other methods stay put.
     */
    static final int PRIORITY = -100;

    @BuildStep
    void registerImplementation(CombinedIndexBuildItem index, SchedulerConfig schedulerConfig,
            BuildProducer<SchedulerImplementationBuildItem> implementations,
            BuildProducer<AdditionalBeanBuildItem> beans, BuildProducer<ForceStartSchedulerBuildItem> forceStart) {
        if (!usesPacer(index.getIndex()) || !schedulerConfig.useCompositeScheduler()) {
            // Without the composite scheduler a second implementation cannot be chosen per method:
            // validatePacerScheduledMethods() names the methods that ask for it.
            return;
        }
        implementations.produce(new SchedulerImplementationBuildItem(PacerScheduler.IMPLEMENTATION,
                DotName.createSimple(PacerScheduler.class), PRIORITY));
        beans.produce(AdditionalBeanBuildItem.unremovableOf(PacerScheduler.class));
        // The composite scheduler's pause() and resume() reach Quarkus's own scheduler first, which throws unless it
        // was started: an application whose only scheduled methods are PACER ones could not pause them all.
        forceStart.produce(new ForceStartSchedulerBuildItem());
    }

    @BuildStep
    void registerMetrics(CombinedIndexBuildItem index, Optional<MetricsCapabilityBuildItem> metrics,
            BuildProducer<AdditionalBeanBuildItem> beans) {
        if (metrics.isPresent() && metrics.get().metricsSupported(MetricsFactory.MICROMETER)
                && usesPacer(index.getIndex())) {
            beans.produce(AdditionalBeanBuildItem.unremovableOf(MicrometerSchedulerMetrics.class));
        }
    }

    @BuildStep
    void validatePacerScheduledMethods(List<ScheduledBusinessMethodItem> methods, SchedulerConfig schedulerConfig,
            BuildProducer<ValidationErrorBuildItem> errors) {
        List<String> problems = new ArrayList<>();
        for (ScheduledBusinessMethodItem method : methods) {
            for (AnnotationInstance scheduled : method.getSchedules()) {
                if (!isPacer(scheduled)) {
                    continue;
                }
                String where = "@Scheduled(executeWith = \"PACER\") declared on " + MethodNames.display(method.getMethod())
                        + ": ";
                if (!schedulerConfig.useCompositeScheduler()) {
                    problems.add(where + "set quarkus.scheduler.use-composite-scheduler=true (Quarkus's default is "
                            + "false), so that each method can choose its scheduler");
                }
                AnnotationValue maxDelay = scheduled.value("executionMaxDelay");
                if (maxDelay != null && !maxDelay.asString().isBlank()) {
                    problems.add(where + "executionMaxDelay is not supported by the PACER scheduler yet; remove it "
                            + "(each tick runs once, on the instance that claims it first)");
                }
                if (method.isRunOnVirtualThread()) {
                    problems.add(where + "@RunOnVirtualThread is not supported by the PACER scheduler yet; remove it "
                            + "or use @Blocking (the default) or a Uni or CompletionStage method");
                }
            }
        }
        BuildProblems.report("Invalid @Scheduled usage", problems, errors);
    }

    private static boolean usesPacer(IndexView index) {
        for (AnnotationInstance scheduled : index.getAnnotations(PacerDotNames.SCHEDULED)) {
            if (isPacer(scheduled)) {
                return true;
            }
        }
        for (AnnotationInstance schedules : index.getAnnotations(PacerDotNames.SCHEDULES)) {
            for (AnnotationInstance scheduled : schedules.value().asNestedArray()) {
                if (isPacer(scheduled)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean isPacer(AnnotationInstance scheduled) {
        AnnotationValue executeWith = scheduled.value("executeWith");
        return executeWith != null && PacerScheduler.IMPLEMENTATION.equals(executeWith.asString());
    }
}
