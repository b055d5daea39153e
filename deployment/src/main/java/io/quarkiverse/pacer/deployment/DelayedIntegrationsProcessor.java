package io.quarkiverse.pacer.deployment;

import static io.quarkiverse.pacer.deployment.PacerDotNames.CHANNEL;
import static io.quarkiverse.pacer.deployment.PacerDotNames.DELAYED;
import static io.quarkiverse.pacer.deployment.PacerDotNames.MUTINY_EMITTER;

import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.jboss.jandex.AnnotationInstance;
import org.jboss.jandex.IndexView;
import org.jboss.logging.Logger;

import io.quarkiverse.pacer.deployment.DelayedMethodsBuildItem.DelayedMethod;
import io.quarkiverse.pacer.runtime.config.DelayedBuildTimeConfig.QueueBuildTimeConfig;
import io.quarkiverse.pacer.runtime.config.PacerBuildTimeConfig;
import io.quarkiverse.pacer.runtime.delay.DelayedConsumerDefinition;
import io.quarkiverse.pacer.runtime.delay.DelayedQueueNames;
import io.quarkiverse.pacer.runtime.delay.HandlerCompletion;
import io.quarkiverse.pacer.runtime.delay.PayloadKind;
import io.quarkiverse.pacer.runtime.delay.integration.AfterCommitSender;
import io.quarkiverse.pacer.runtime.delay.integration.DelayedChannelForwarder;
import io.quarkiverse.pacer.runtime.delay.integration.JtaDelayedTransactions;
import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.arc.deployment.GeneratedBeanBuildItem;
import io.quarkus.arc.deployment.GeneratedBeanGizmoAdaptor;
import io.quarkus.arc.deployment.UnremovableBeanBuildItem;
import io.quarkus.arc.deployment.ValidationPhaseBuildItem.ValidationErrorBuildItem;
import io.quarkus.deployment.Capabilities;
import io.quarkus.deployment.Capability;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.builditem.CombinedIndexBuildItem;
import io.quarkus.gizmo.ClassCreator;
import io.quarkus.gizmo.FieldCreator;
import io.quarkus.gizmo.FieldDescriptor;
import io.quarkus.gizmo.MethodCreator;
import io.quarkus.scheduler.deployment.ForceStartSchedulerBuildItem;

/**
 * Delay queues with optional integrations: producer operations that wait for a JTA commit when
 * {@code quarkus-narayana-jta} is present, and queues handed to a Quarkus Messaging channel
 * ({@code quarkus.pacer.delayed."<queue>".forward-to}) when {@code quarkus-messaging} is present.
 */
class DelayedIntegrationsProcessor {

    private static final Logger LOG = Logger.getLogger(DelayedIntegrationsProcessor.class);

    static final String MUTINY_EMITTER_SIGNATURE = "Lio/smallrye/reactive/messaging/MutinyEmitter<Ljava/lang/Object;>;";

    /** Handlers of a forwarded queue in flight per instance, by default: each waits for the channel's ack. */
    static final int FORWARD_CONCURRENCY = 16;

    @BuildStep
    void registerTransactionalScheduling(Capabilities capabilities, PacerBuildTimeConfig config,
            BuildProducer<AdditionalBeanBuildItem> beans) {
        if (!capabilities.isPresent(Capability.TRANSACTIONS)) {
            return;
        }
        if (!config.delayed().transactional()) {
            LOG.debugf("quarkus.pacer.delayed.transactional=false: schedule and cancel act at once, also in a transaction");
            return;
        }
        beans.produce(AdditionalBeanBuildItem.builder().addBeanClasses(JtaDelayedTransactions.class, AfterCommitSender.class)
                .setUnremovable().build());
    }

    @BuildStep
    void forwardQueuesToChannels(Capabilities capabilities, PacerBuildTimeConfig config,
            CombinedIndexBuildItem combinedIndex, BuildProducer<GeneratedBeanBuildItem> generatedBeans,
            BuildProducer<UnremovableBeanBuildItem> unremovable,
            BuildProducer<ForwardedQueueBuildItem> forwarded,
            BuildProducer<ForceStartSchedulerBuildItem> forceStartScheduler,
            BuildProducer<ValidationErrorBuildItem> errors) {
        Map<String, String> channelsByQueue = new TreeMap<>();
        for (Map.Entry<String, QueueBuildTimeConfig> entry : config.delayed().queues().entrySet()) {
            entry.getValue().forwardTo().ifPresent(channel -> channelsByQueue.put(entry.getKey(), channel));
        }
        if (channelsByQueue.isEmpty()) {
            return;
        }
        List<String> problems = new ArrayList<>();
        boolean messaging = capabilities.isPresent(Capability.MESSAGING)
                || capabilities.isPresent(Capability.SMALLRYE_REACTIVE_MESSAGING);
        channelsByQueue.forEach((queue, channel) -> {
            String property = "quarkus.pacer.delayed.\"" + queue + "\".forward-to";
            if (!messaging) {
                problems.add(property + "=" + channel + " needs Quarkus Messaging: add the"
                        + " io.quarkus:quarkus-messaging extension (or a connector extension such as"
                        + " quarkus-messaging-kafka)");
            }
            if (channel.isBlank()) {
                problems.add(property + " must name a channel, was empty");
            }
            if (!DelayedQueueNames.isValid(queue)) {
                problems.add(property + ": " + DelayedQueueNames.RULE);
            }
        });
        BuildProblems.report("Invalid quarkus.pacer.delayed configuration", problems, errors);
        if (!problems.isEmpty()) {
            return;
        }
        Map<String, String> forwarderByChannel = new TreeMap<>();
        for (String channel : new TreeSet<>(channelsByQueue.values())) {
            String className = DelayedChannelForwarder.class.getName() + "_" + forwarderByChannel.size();
            generateForwarder(className, channel, generatedBeans);
            forwarderByChannel.put(channel, className);
        }
        unremovable.produce(UnremovableBeanBuildItem.beanClassNames(forwarderByChannel.values().toArray(String[]::new)));
        channelsByQueue.forEach((queue, channel) -> {
            forwarded.produce(new ForwardedQueueBuildItem(definition(queue, channel, combinedIndex.getIndex()),
                    forwarderByChannel.get(channel)));
            LOG.debugf("Delay queue %s is forwarded to channel %s", queue, channel);
        });
        forceStartScheduler.produce(new ForceStartSchedulerBuildItem());
    }

    @BuildStep
    void validateForwardedQueues(List<ForwardedQueueBuildItem> forwarded, DelayedMethodsBuildItem methods,
            BuildProducer<ValidationErrorBuildItem> errors) {
        List<String> problems = new ArrayList<>();
        for (ForwardedQueueBuildItem queue : forwarded) {
            for (DelayedMethod method : methods.getMethods()) {
                if (method.definition().getQueue().equals(queue.getDefinition().getQueue())) {
                    problems.add(queue.getDefinition().describe() + " conflicts with "
                            + method.definition().describe() + ": a queue has one consumer, either a @Delayed"
                            + " method or a forward-to channel");
                }
            }
        }
        BuildProblems.report("Invalid @Delayed usage", problems, errors);
    }

    /**
     * A singleton bean {@code class X extends DelayedChannelForwarder} with {@code @Inject @Channel("<channel>")
     * MutinyEmitter<Object> emitter}: an ordinary emitter injection point, which Quarkus Messaging wires at build
     * time.
     */
    private static void generateForwarder(String className, String channel,
            BuildProducer<GeneratedBeanBuildItem> generatedBeans) {
        try (ClassCreator creator = ClassCreator.builder().classOutput(new GeneratedBeanGizmoAdaptor(generatedBeans))
                .className(className).superClass(DelayedChannelForwarder.class).build()) {
            creator.addAnnotation(Singleton.class);
            FieldCreator field = creator.getFieldCreator("emitter", MUTINY_EMITTER.toString())
                    .setModifiers(Modifier.PUBLIC);
            field.setSignature(MUTINY_EMITTER_SIGNATURE);
            field.addAnnotation(Inject.class);
            field.addAnnotation(CHANNEL.toString()).addValue("value", channel);
            FieldDescriptor emitter = field.getFieldDescriptor();

            try (MethodCreator getter = creator.getMethodCreator("emitter", MUTINY_EMITTER.toString())) {
                getter.setModifiers(Modifier.PUBLIC);
                getter.returnValue(getter.readInstanceField(emitter, getter.getThis()));
            }
            try (MethodCreator name = creator.getMethodCreator("channel", String.class)) {
                name.setModifiers(Modifier.PUBLIC);
                name.returnValue(name.load(channel));
            }
        }
    }

    /**
     * The consumer settings of a forwarded queue: those of a {@code @Delayed("<queue>")} with its defaults, with more
     * hand-offs in flight.
     */
    private static DelayedConsumerDefinition definition(String queue, String channel, IndexView index) {
        DelayedConsumerDefinition definition = new DelayedConsumerDefinition();
        definition.setQueue(queue);
        definition.setForwardTo(channel);
        definition.setDeclaringClass(DelayedChannelForwarder.class.getName());
        definition.setMethodName("forward");
        definition.setMessageParameter(true);
        definition.setPayloadKind(PayloadKind.AS_STORED);
        definition.setPayloadType(Object.class.getName());
        definition.setReturnKind(HandlerCompletion.COMPLETION_STAGE);
        AnnotationInstance defaults = AnnotationInstance.builder(DELAYED).value(queue)
                .add("concurrency", FORWARD_CONCURRENCY).build();
        List<String> problems = new ArrayList<>();
        DelayedConsumerDefinitions.readSettings(defaults, index, definition, definition.describe(), problems);
        if (!problems.isEmpty()) {
            throw new IllegalStateException(String.join("; ", problems)); // the defaults are valid
        }
        return definition;
    }
}
