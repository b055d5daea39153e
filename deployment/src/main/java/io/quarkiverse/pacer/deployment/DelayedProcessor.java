package io.quarkiverse.pacer.deployment;

import static io.quarkiverse.pacer.deployment.PacerDotNames.COMPLETION_STAGE;
import static io.quarkiverse.pacer.deployment.PacerDotNames.DELAYED;
import static io.quarkiverse.pacer.deployment.PacerDotNames.DELAYED_MESSAGE;
import static io.quarkiverse.pacer.deployment.PacerDotNames.STRING;
import static io.quarkiverse.pacer.deployment.PacerDotNames.UNI;
import static io.quarkiverse.pacer.deployment.PacerDotNames.VOID;

import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

import jakarta.enterprise.inject.spi.DeploymentException;
import jakarta.inject.Singleton;

import org.jboss.jandex.AnnotationInstance;
import org.jboss.jandex.AnnotationTarget;
import org.jboss.jandex.IndexView;
import org.jboss.jandex.MethodInfo;
import org.jboss.jandex.ParameterizedType;
import org.jboss.jandex.PrimitiveType;
import org.jboss.jandex.Type;
import org.jboss.logging.Logger;

import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.deployment.DelayedMethodsBuildItem.DelayedMethod;
import io.quarkiverse.pacer.runtime.delay.BlockingDelayedQueue;
import io.quarkiverse.pacer.runtime.delay.ConsumerSettings;
import io.quarkiverse.pacer.runtime.delay.DelayedConsumerDefinition;
import io.quarkiverse.pacer.runtime.delay.DelayedConsumers;
import io.quarkiverse.pacer.runtime.delay.DelayedHandler;
import io.quarkiverse.pacer.runtime.delay.DelayedHandlers;
import io.quarkiverse.pacer.runtime.delay.DelayedQueueNames;
import io.quarkiverse.pacer.runtime.delay.DelayedRecorder;
import io.quarkiverse.pacer.runtime.delay.MicrometerDelayedMetrics;
import io.quarkiverse.pacer.runtime.delay.PayloadKind;
import io.quarkiverse.pacer.runtime.delay.RedisDelayedQueue;
import io.quarkiverse.pacer.runtime.delay.ReturnKind;
import io.quarkiverse.pacer.runtime.delay.UnconsumedQueues;
import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.arc.deployment.AutoAddScopeBuildItem;
import io.quarkus.arc.deployment.BeanArchiveIndexBuildItem;
import io.quarkus.arc.deployment.BeanDiscoveryFinishedBuildItem;
import io.quarkus.arc.deployment.InvokerFactoryBuildItem;
import io.quarkus.arc.deployment.SyntheticBeanBuildItem;
import io.quarkus.arc.deployment.UnremovableBeanBuildItem;
import io.quarkus.arc.deployment.ValidationPhaseBuildItem.ValidationErrorBuildItem;
import io.quarkus.arc.processor.BeanInfo;
import io.quarkus.arc.processor.BuiltinScope;
import io.quarkus.arc.processor.InvokerInfo;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.annotations.ExecutionTime;
import io.quarkus.deployment.annotations.Record;
import io.quarkus.deployment.builditem.AdditionalIndexedClassesBuildItem;
import io.quarkus.deployment.builditem.CombinedIndexBuildItem;
import io.quarkus.deployment.builditem.nativeimage.ReflectiveHierarchyBuildItem;
import io.quarkus.deployment.metrics.MetricsCapabilityBuildItem;
import io.quarkus.deployment.recording.RecorderContext;
import io.quarkus.runtime.RuntimeValue;
import io.quarkus.runtime.configuration.DurationConverter;
import io.quarkus.runtime.metrics.MetricsFactory;
import io.quarkus.scheduler.deployment.ForceStartSchedulerBuildItem;

/**
 * Delay queues: finds {@code @Delayed} methods and obtains an ArC invoker for each, validates them (every problem
 * reported at once, naming the annotation, class and method), and records the consumers as the {@link DelayedHandlers}
 * bean the runtime injects.
 */
class DelayedProcessor {

    private static final Logger LOG = Logger.getLogger(DelayedProcessor.class);

    @BuildStep
    AdditionalIndexedClassesBuildItem indexDelayedAnnotation() {
        // Its member defaults are read from the index (valueWithDefault), not copied here.
        return new AdditionalIndexedClassesBuildItem(Delayed.class.getName());
    }

    @BuildStep
    AdditionalBeanBuildItem registerDelayedBeans() {
        return AdditionalBeanBuildItem.builder()
                .addBeanClasses(RedisDelayedQueue.class, BlockingDelayedQueue.class, DelayedConsumers.class,
                        UnconsumedQueues.class)
                .setUnremovable()
                .build();
    }

    @BuildStep
    void registerMetrics(Optional<MetricsCapabilityBuildItem> metrics, BuildProducer<AdditionalBeanBuildItem> beans) {
        if (metrics.isPresent() && metrics.get().metricsSupported(MetricsFactory.MICROMETER)) {
            beans.produce(AdditionalBeanBuildItem.unremovableOf(MicrometerDelayedMetrics.class));
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

    /** Reads every {@code @Delayed} method and builds the invoker of each valid one; problems are reported later. */
    @BuildStep
    DelayedMethodsBuildItem collectDelayedMethods(BeanArchiveIndexBuildItem beanArchive,
            CombinedIndexBuildItem combinedIndex, BeanDiscoveryFinishedBuildItem beanDiscovery,
            InvokerFactoryBuildItem invokerFactory, BuildProducer<ReflectiveHierarchyBuildItem> jsonPayloads) {
        List<AnnotationInstance> annotations = new ArrayList<>();
        for (AnnotationInstance annotation : beanArchive.getIndex().getAnnotations(DELAYED)) {
            if (annotation.target().kind() == AnnotationTarget.Kind.METHOD) {
                annotations.add(annotation);
            }
        }
        annotations.sort(Comparator.comparing(a -> a.target().asMethod().declaringClass().name().toString() + "#"
                + a.target().asMethod().name() + a.target().asMethod().descriptor()));
        List<String> problems = new ArrayList<>();
        List<DelayedMethod> methods = new ArrayList<>();
        Map<String, List<String>> methodsByQueue = new TreeMap<>();
        for (AnnotationInstance annotation : annotations) {
            MethodInfo method = annotation.target().asMethod();
            String queue = annotation.value().asString();
            String where = "@Delayed(\"" + queue + "\") declared on " + display(method);
            methodsByQueue.computeIfAbsent(queue, q -> new ArrayList<>()).add(display(method));
            Optional<DelayedConsumerDefinition> definition = define(annotation, method, combinedIndex.getIndex(),
                    where, problems);
            if (definition.isEmpty()) {
                continue;
            }
            Optional<BeanInfo> bean = beanDiscovery.beanStream().classBeans()
                    .withBeanClass(method.declaringClass().name()).stream().findFirst();
            if (bean.isEmpty()) {
                problems.add(where + ": the declaring class is not a CDI bean");
                continue;
            }
            InvokerInfo invoker = invokerFactory.createInvoker(bean.get(), method).withInstanceLookup().build();
            methods.add(new DelayedMethod(method, definition.get(), className(invoker)));
            if (definition.get().getPayloadKind() == PayloadKind.JSON) {
                // Jackson decodes the payload reflectively, also in a native image.
                Type parameter = method.parameterType(0);
                Type payload = definition.get().isMessageParameter()
                        ? parameter.asParameterizedType().arguments().get(0)
                        : parameter;
                jsonPayloads.produce(ReflectiveHierarchyBuildItem.builder(payload).source(where).build());
            }
            LOG.debugf("Found %s", where);
        }
        methodsByQueue.forEach((queue, declared) -> {
            if (declared.size() > 1) {
                problems.add("@Delayed(\"" + queue + "\") declared on " + declared.get(0)
                        + ": queue " + queue + " already has a consumer; a queue has one consumer method, found "
                        + String.join(", ", declared));
            }
        });
        return new DelayedMethodsBuildItem(methods, problems);
    }

    @BuildStep
    void validateDelayedMethods(DelayedMethodsBuildItem methods, BuildProducer<ValidationErrorBuildItem> errors) {
        reportProblems("Invalid @Delayed usage", methods.getProblems(), errors);
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
            handlers.add(recorder.forwarder(queue.getDefinition(), queue.getForwarderClass()));
        }
        return SyntheticBeanBuildItem.configure(DelayedHandlers.class)
                .scope(Singleton.class)
                .unremovable()
                .supplier(recorder.handlers(handlers))
                .done();
    }

    /**
     * All problems in one clean message, as for {@code @Throttled}: no exception type in front of each line.
     *
     * @param what the first line, e.g. {@code Invalid @Delayed usage}
     */
    static void reportProblems(String what, List<String> problems, BuildProducer<ValidationErrorBuildItem> errors) {
        if (!problems.isEmpty()) {
            errors.produce(new ValidationErrorBuildItem(new DeploymentException(
                    what + ":\n - " + String.join("\n - ", problems))));
        }
    }

    private static Optional<DelayedConsumerDefinition> define(AnnotationInstance annotation, MethodInfo method,
            IndexView index, String where, List<String> problems) {
        int before = problems.size();
        String queue = annotation.value().asString();
        if (!DelayedQueueNames.isValid(queue)) {
            problems.add(where + ": " + DelayedQueueNames.RULE);
        }
        if (Modifier.isPrivate(method.flags())) {
            problems.add(where + ": the method must not be private");
        }
        if (Modifier.isStatic(method.flags())) {
            problems.add(where + ": the method must not be static");
        }
        DelayedConsumerDefinition definition = new DelayedConsumerDefinition();
        definition.setQueue(queue);
        definition.setDeclaringClass(method.declaringClass().name().toString());
        definition.setMethodName(method.name());

        if (method.parametersCount() == 0) {
            problems.add(where + ": payload parameter missing");
        } else if (method.parametersCount() > 1) {
            problems.add(where + ": the method must have exactly one parameter (the payload or"
                    + " DelayedMessage<T>), found " + method.parametersCount());
        } else {
            Type parameter = method.parameterType(0);
            Type payload = parameter;
            if (parameter.name().equals(DELAYED_MESSAGE)) {
                definition.setMessageParameter(true);
                if (parameter.kind() != Type.Kind.PARAMETERIZED_TYPE) {
                    problems.add(where + ": DelayedMessage must declare its payload type,"
                            + " e.g. DelayedMessage<OrderRef>");
                    payload = null;
                } else {
                    payload = parameter.asParameterizedType().arguments().get(0);
                }
            }
            if (payload != null) {
                if (payload.kind() == Type.Kind.TYPE_VARIABLE || payload.kind() == Type.Kind.UNRESOLVED_TYPE_VARIABLE) {
                    problems.add(where + ": the payload type must be concrete, found type"
                            + " variable " + payload);
                } else if (payload.name().equals(STRING)) {
                    definition.setPayloadKind(PayloadKind.STRING);
                    definition.setPayloadType(String.class.getName());
                } else if (payload.kind() == Type.Kind.ARRAY && payload.name().toString().equals("[B")) {
                    definition.setPayloadKind(PayloadKind.BYTES);
                    definition.setPayloadType("[B");
                } else {
                    definition.setPayloadKind(PayloadKind.JSON);
                    definition.setPayloadType(canonical(payload));
                }
            }
        }

        Type returned = method.returnType();
        if (returned.kind() == Type.Kind.VOID) {
            definition.setReturnKind(ReturnKind.VOID);
        } else if (returned.name().equals(UNI) && isOfVoid(returned)) {
            definition.setReturnKind(ReturnKind.UNI);
        } else if (returned.name().equals(COMPLETION_STAGE) && isOfVoid(returned)) {
            definition.setReturnKind(ReturnKind.COMPLETION_STAGE);
        } else {
            problems.add(where + ": the method must return void, Uni<Void> or"
                    + " CompletionStage<Void>, found " + returned);
        }
        readSettings(annotation, index, definition, where, problems);
        return problems.size() == before ? Optional.of(definition) : Optional.empty();
    }

    /**
     * Reads concurrency, attempts, backoff and lease of a {@code @Delayed} annotation into {@code definition}; a member
     * the annotation leaves out takes the default {@code @Delayed} declares.
     */
    static void readSettings(AnnotationInstance annotation, IndexView index, DelayedConsumerDefinition definition,
            String where, List<String> problems) {
        definition.setConcurrency(positive(annotation, index, "concurrency", where, problems));
        definition.setMaxAttempts(positive(annotation, index, "maxAttempts", where, problems));
        definition.setBackoffMillis(duration(annotation, index, "backoff", Duration.ZERO, where, problems));
        definition.setLeaseMillis(duration(annotation, index, "lease", ConsumerSettings.MIN_LEASE, where, problems));
    }

    private static boolean isOfVoid(Type type) {
        return type.kind() == Type.Kind.PARAMETERIZED_TYPE
                && type.asParameterizedType().arguments().size() == 1
                && type.asParameterizedType().arguments().get(0).name().equals(VOID);
    }

    private static int positive(AnnotationInstance annotation, IndexView index, String member, String where,
            List<String> problems) {
        int result = annotation.valueWithDefault(index, member).asInt();
        if (result < 1) {
            problems.add(where + ": " + member + " must be at least 1, was " + result);
        }
        return result;
    }

    private static long duration(AnnotationInstance annotation, IndexView index, String member, Duration minimum,
            String where, List<String> problems) {
        String text = annotation.valueWithDefault(index, member).asString();
        try {
            Duration parsed = DurationConverter.parseDuration(text);
            if (parsed == null || parsed.compareTo(minimum) < 0) {
                problems.add(where + ": " + member + " must be at least " + minimum
                        + ", was \"" + text + "\"");
                return 0;
            }
            return parsed.toMillis();
        } catch (IllegalArgumentException e) {
            problems.add(where + ": " + member + " is not a duration (\"500ms\", \"1s\","
                    + " \"5m\", \"1h\", \"1d\" or ISO-8601): \"" + text + "\"");
            return 0;
        }
    }

    /** {@code com.acme.Orders#expire()}, as messages show a method. */
    private static String display(MethodInfo method) {
        return method.declaringClass().name() + "#" + method.name() + "()";
    }

    /** The type in the canonical form Jackson's {@code TypeFactory.constructFromCanonical} reads. */
    static String canonical(Type type) {
        switch (type.kind()) {
            case PARAMETERIZED_TYPE:
                ParameterizedType parameterized = type.asParameterizedType();
                return parameterized.name() + parameterized.arguments().stream().map(DelayedProcessor::canonical)
                        .collect(Collectors.joining(",", "<", ">"));
            case WILDCARD_TYPE:
                return canonical(type.asWildcardType().extendsBound());
            case PRIMITIVE:
                return PrimitiveType.box(type.asPrimitiveType()).name().toString();
            default:
                return type.name().toString();
        }
    }

    private static String className(InvokerInfo invoker) {
        String descriptor = invoker.getClassDesc().descriptorString();
        return descriptor.substring(1, descriptor.length() - 1).replace('/', '.');
    }
}
