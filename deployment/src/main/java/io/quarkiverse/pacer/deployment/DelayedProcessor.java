package io.quarkiverse.pacer.deployment;

import static io.quarkiverse.pacer.deployment.PacerDotNames.DELAYED;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import jakarta.inject.Singleton;

import org.jboss.jandex.AnnotationInstance;
import org.jboss.jandex.AnnotationTarget;

import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.delay.DelayedQueueName;
import io.quarkiverse.pacer.deployment.DelayedMethodsBuildItem.DelayedMethod;
import io.quarkiverse.pacer.runtime.delay.DelayedHandler;
import io.quarkiverse.pacer.runtime.delay.DelayedRecorder;
import io.quarkiverse.pacer.runtime.delay.HandlersByQueue;
import io.quarkiverse.pacer.runtime.delay.MicrometerDelayedMetrics;
import io.quarkiverse.pacer.runtime.delay.consumer.DelayedConsumers;
import io.quarkiverse.pacer.runtime.delay.producer.BlockingDelayedQueue;
import io.quarkiverse.pacer.runtime.delay.producer.RedisDelayedQueue;
import io.quarkiverse.pacer.runtime.delay.producer.TypedQueueProducer;
import io.quarkiverse.pacer.runtime.delay.producer.UnconsumedQueues;
import io.quarkiverse.pacer.runtime.delay.recurring.BlockingRecurringSchedules;
import io.quarkiverse.pacer.runtime.delay.recurring.MicrometerRecurringMetrics;
import io.quarkiverse.pacer.runtime.delay.recurring.RecurringFirer;
import io.quarkiverse.pacer.runtime.delay.recurring.RedisRecurringSchedules;
import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.arc.deployment.AutoAddScopeBuildItem;
import io.quarkus.arc.deployment.BeanArchiveIndexBuildItem;
import io.quarkus.arc.deployment.SyntheticBeanBuildItem;
import io.quarkus.arc.deployment.UnremovableBeanBuildItem;
import io.quarkus.arc.processor.BuiltinScope;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.annotations.ExecutionTime;
import io.quarkus.deployment.annotations.Record;
import io.quarkus.deployment.builditem.AdditionalIndexedClassesBuildItem;
import io.quarkus.deployment.execannotations.ExecutionModelAnnotationsAllowedBuildItem;
import io.quarkus.deployment.metrics.MetricsCapabilityBuildItem;
import io.quarkus.deployment.recording.RecorderContext;
import io.quarkus.runtime.RuntimeValue;
import io.quarkus.runtime.metrics.MetricsFactory;
import io.quarkus.scheduler.deployment.ForceStartSchedulerBuildItem;

/**
 * Delay queues wiring: registers the queue beans, keeps the consumer beans, and records the consumers
 * {@link DelayedMethodsProcessor} found (and the forwarded queues) as the {@link HandlersByQueue} bean the runtime
 * injects.
 */
class DelayedProcessor {

    @BuildStep
    AdditionalIndexedClassesBuildItem indexDelayedAnnotation() {
        // Its member defaults are read from the index (valueWithDefault), not copied here.
        return new AdditionalIndexedClassesBuildItem(Delayed.class.getName(), DelayedQueueName.class.getName());
    }

    @BuildStep
    AdditionalBeanBuildItem registerDelayedBeans() {
        return AdditionalBeanBuildItem.builder()
                .addBeanClasses(RedisDelayedQueue.class, BlockingDelayedQueue.class, DelayedConsumers.class,
                        UnconsumedQueues.class, RedisRecurringSchedules.class, BlockingRecurringSchedules.class,
                        RecurringFirer.class)
                .setUnremovable()
                .build();
    }

    /** Like {@code @Scheduled} methods, {@code @Delayed} methods are entry points that choose their thread. */
    @BuildStep
    ExecutionModelAnnotationsAllowedBuildItem allowExecutionModelAnnotations() {
        return new ExecutionModelAnnotationsAllowedBuildItem(method -> method.hasDeclaredAnnotation(DELAYED));
    }

    @BuildStep
    AdditionalBeanBuildItem registerTypedQueueProducer() {
        // Removable: kept only when the application injects a typed queue.
        return new AdditionalBeanBuildItem(TypedQueueProducer.class);
    }

    @BuildStep
    void registerMetrics(Optional<MetricsCapabilityBuildItem> metrics, BuildProducer<AdditionalBeanBuildItem> beans) {
        if (metrics.isPresent() && metrics.get().metricsSupported(MetricsFactory.MICROMETER)) {
            beans.produce(AdditionalBeanBuildItem.unremovableOf(MicrometerDelayedMetrics.class));
            beans.produce(AdditionalBeanBuildItem.unremovableOf(MicrometerRecurringMetrics.class));
        }
    }

    @BuildStep
    AutoAddScopeBuildItem addScopeToConsumers() {
        return AutoAddScopeBuildItem.builder()
                .containsAnnotations(DELAYED)
                .defaultScope(BuiltinScope.SINGLETON)
                .reason("Found @Delayed methods")
                .build();
    }

    @BuildStep
    void keepConsumerBeans(BeanArchiveIndexBuildItem beanArchive, BuildProducer<UnremovableBeanBuildItem> unremovable,
            BuildProducer<ForceStartSchedulerBuildItem> forceStartScheduler) {
        Set<String> beanClasses = new TreeSet<>();
        for (AnnotationInstance annotation : beanArchive.getIndex().getAnnotations(DELAYED)) {
            if (annotation.target().kind() == AnnotationTarget.Kind.METHOD) {
                beanClasses.add(annotation.target().asMethod().declaringClass().name().toString());
            }
        }
        if (!beanClasses.isEmpty()) {
            unremovable.produce(UnremovableBeanBuildItem.beanClassNames(beanClasses));
            // The safety poll is a scheduler job.
            forceStartScheduler.produce(new ForceStartSchedulerBuildItem());
        }
    }

    @BuildStep
    @Record(ExecutionTime.STATIC_INIT)
    SyntheticBeanBuildItem recordDelayedHandlers(DelayedRecorder recorder, RecorderContext recorderContext,
            DelayedMethodsBuildItem methods, List<ForwardedQueueBuildItem> forwarded) {
        List<RuntimeValue<DelayedHandler>> handlers = new ArrayList<>();
        for (DelayedMethod method : methods.getMethods()) {
            handlers.add(recorder.method(method.definition(), recorderContext.newInstance(method.invokerClassName())));
        }
        List<ForwardedQueueBuildItem> sorted = new ArrayList<>(forwarded);
        sorted.sort(Comparator.comparing(queue -> queue.getDefinition().getQueue()));
        for (ForwardedQueueBuildItem queue : sorted) {
            handlers.add(recorder.forwarder(queue.getDefinition(), recorderContext.classProxy(queue.getForwarderClass())));
        }
        return SyntheticBeanBuildItem.configure(HandlersByQueue.class)
                .scope(Singleton.class)
                .unremovable()
                .supplier(recorder.handlers(handlers))
                .done();
    }
}
