package io.quarkiverse.pacer.deployment;

import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

import jakarta.enterprise.inject.spi.DeploymentException;

import org.jboss.jandex.AnnotationInstance;
import org.jboss.jandex.AnnotationTarget;
import org.jboss.jandex.AnnotationValue;
import org.jboss.jandex.DotName;
import org.jboss.jandex.IndexView;
import org.jboss.jandex.MethodInfo;
import org.jboss.jandex.ParameterizedType;
import org.jboss.jandex.PrimitiveType;
import org.jboss.jandex.Type;
import org.jboss.logging.Logger;

import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.delay.DelayedMessage;
import io.quarkiverse.pacer.runtime.delay.BlockingDelayedQueue;
import io.quarkiverse.pacer.runtime.delay.DelayedConsumerDefinition;
import io.quarkiverse.pacer.runtime.delay.DelayedConsumers;
import io.quarkiverse.pacer.runtime.delay.DelayedRecorder;
import io.quarkiverse.pacer.runtime.delay.MicrometerDelayedMetrics;
import io.quarkiverse.pacer.runtime.delay.UnconsumedQueues;
import io.quarkiverse.pacer.runtime.delay.PayloadKind;
import io.quarkiverse.pacer.runtime.delay.RedisDelayedQueue;
import io.quarkiverse.pacer.runtime.delay.ReturnKind;
import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.arc.deployment.AutoAddScopeBuildItem;
import io.quarkus.arc.deployment.BeanArchiveIndexBuildItem;
import io.quarkus.arc.deployment.BeanContainerBuildItem;
import io.quarkus.arc.deployment.InvokerFactoryBuildItem;
import io.quarkus.arc.deployment.UnremovableBeanBuildItem;
import io.quarkus.arc.deployment.ValidationPhaseBuildItem;
import io.quarkus.arc.deployment.ValidationPhaseBuildItem.ValidationErrorBuildItem;
import io.quarkus.arc.processor.BeanInfo;
import io.quarkus.arc.processor.BuiltinScope;
import io.quarkus.arc.processor.InvokerInfo;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.annotations.ExecutionTime;
import io.quarkus.deployment.annotations.Record;
import io.quarkus.deployment.builditem.nativeimage.ReflectiveHierarchyBuildItem;
import io.quarkus.deployment.metrics.MetricsCapabilityBuildItem;
import io.quarkus.deployment.recording.RecorderContext;
import io.quarkus.runtime.metrics.MetricsFactory;
import io.quarkus.runtime.configuration.DurationConverter;
import io.quarkus.scheduler.deployment.ForceStartSchedulerBuildItem;
import io.smallrye.mutiny.Uni;

/**
 * Delay queues: finds and validates {@code @Delayed} methods, obtains an ArC invoker for each, and hands them to the
 * runtime consumers.
 */
class DelayedProcessor {

    private static final Logger LOG = Logger.getLogger(DelayedProcessor.class);

    static final DotName DELAYED = DotName.createSimple(Delayed.class);
    static final DotName DELAYED_MESSAGE = DotName.createSimple(DelayedMessage.class);
    static final DotName UNI = DotName.createSimple(Uni.class);
    static final DotName COMPLETION_STAGE = DotName.createSimple(java.util.concurrent.CompletionStage.class);
    static final DotName VOID = DotName.createSimple(Void.class);
    static final DotName STRING = DotName.createSimple(String.class);

    /** The shortest lease: renewal runs every third of it. */
    static final Duration MIN_LEASE = Duration.ofMillis(100);

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
    void collectDelayedMethods(BeanArchiveIndexBuildItem beanArchive,
            BuildProducer<DelayedMethodBuildItem> methods,
            BuildProducer<UnremovableBeanBuildItem> unremovable,
            BuildProducer<ForceStartSchedulerBuildItem> forceStartScheduler,
            BuildProducer<ReflectiveHierarchyBuildItem> jsonPayloads,
            BuildProducer<ValidationErrorBuildItem> errors) {
        IndexView index = beanArchive.getIndex();
        List<String> problems = new ArrayList<>();
        List<AnnotationInstance> annotations = new ArrayList<>(index.getAnnotations(DELAYED));
        annotations.sort(Comparator.comparing(a -> a.target().asMethod().declaringClass().name().toString() + "#"
                + a.target().asMethod().name() + a.target().asMethod().descriptor()));
        Map<String, List<String>> methodsByQueue = new TreeMap<>();
        Set<String> beanClasses = new HashSet<>();
        for (AnnotationInstance annotation : annotations) {
            if (annotation.target().kind() != AnnotationTarget.Kind.METHOD) {
                continue;
            }
            MethodInfo method = annotation.target().asMethod();
            String queue = annotation.value().asString();
            String where = "@Delayed(\"" + queue + "\") declared on " + method.declaringClass().name() + "#"
                    + method.name() + "()";
            methodsByQueue.computeIfAbsent(queue, q -> new ArrayList<>())
                    .add(method.declaringClass().name() + "#" + method.name() + "()");
            Optional<DelayedConsumerDefinition> definition = define(annotation, method, where, problems);
            if (definition.isPresent()) {
                methods.produce(new DelayedMethodBuildItem(method, definition.get()));
                if (definition.get().getPayloadKind() == PayloadKind.JSON) {
                    // Jackson decodes the payload reflectively, also in a native image.
                    Type parameter = method.parameterType(0);
                    Type payload = definition.get().isMessageParameter()
                            ? parameter.asParameterizedType().arguments().get(0)
                            : parameter;
                    jsonPayloads.produce(ReflectiveHierarchyBuildItem.builder(payload).source(where).build());
                }
                beanClasses.add(method.declaringClass().name().toString());
                LOG.debugf("Found %s", where);
            }
        }
        methodsByQueue.forEach((queue, declared) -> {
            if (declared.size() > 1) {
                problems.add("@Delayed(\"" + queue + "\") declared on " + declared.get(0)
                        + ": queue " + queue + " already has a consumer; a queue has one consumer method, found "
                        + String.join(", ", declared));
            }
        });
        reportProblems(problems, errors);
        if (!beanClasses.isEmpty()) {
            unremovable.produce(UnremovableBeanBuildItem.beanClassNames(beanClasses));
            forceStartScheduler.produce(new ForceStartSchedulerBuildItem());
        }
    }

    private static Optional<DelayedConsumerDefinition> define(AnnotationInstance annotation, MethodInfo method,
            String where, List<String> problems) {
        int before = problems.size();
        String queue = annotation.value().asString();
        if (queue.isEmpty() || queue.indexOf('{') >= 0 || queue.indexOf('}') >= 0) {
            problems.add(where + ": the queue name must be non-empty without '{' or '}'");
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

        definition.setConcurrency(positive(annotation, "concurrency", 1, where, problems));
        definition.setMaxAttempts(positive(annotation, "maxAttempts", 5, where, problems));
        definition.setBackoffMillis(duration(annotation, "backoff", "1s", Duration.ZERO, where, problems));
        definition.setLeaseMillis(duration(annotation, "lease", "30s", MIN_LEASE, where, problems));
        return problems.size() == before ? Optional.of(definition) : Optional.empty();
    }

    private static boolean isOfVoid(Type type) {
        return type.kind() == Type.Kind.PARAMETERIZED_TYPE
                && type.asParameterizedType().arguments().size() == 1
                && type.asParameterizedType().arguments().get(0).name().equals(VOID);
    }

    private static int positive(AnnotationInstance annotation, String member, int defaultValue, String where,
            List<String> problems) {
        AnnotationValue value = annotation.value(member);
        int result = value == null ? defaultValue : value.asInt();
        if (result < 1) {
            problems.add(where + ": " + member + " must be at least 1, was " + result);
        }
        return result;
    }

    private static long duration(AnnotationInstance annotation, String member, String defaultValue, Duration minimum,
            String where, List<String> problems) {
        AnnotationValue value = annotation.value(member);
        String text = value == null ? defaultValue : value.asString();
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

    @BuildStep
    void createInvokers(ValidationPhaseBuildItem validationPhase, InvokerFactoryBuildItem invokerFactory,
            List<DelayedMethodBuildItem> methods, BuildProducer<DelayedInvokerBuildItem> invokers,
            BuildProducer<ValidationErrorBuildItem> errors) {
        List<String> problems = new ArrayList<>();
        for (DelayedMethodBuildItem item : methods) {
            MethodInfo method = item.getMethod();
            Optional<BeanInfo> bean = validationPhase.getContext().beans().classBeans()
                    .withBeanClass(method.declaringClass().name()).stream().findFirst();
            if (bean.isEmpty()) {
                problems.add(item.getDefinition().describe()
                        + ": the declaring class is not a CDI bean");
                continue;
            }
            InvokerInfo invoker = invokerFactory.createInvoker(bean.get(), method).withInstanceLookup().build();
            invokers.produce(new DelayedInvokerBuildItem(item.getDefinition(), className(invoker)));
        }
        reportProblems(problems, errors);
    }

    /** All problems in one clean message, as for {@code @Throttled}: no exception type in front of each line. */
    private static void reportProblems(List<String> problems, BuildProducer<ValidationErrorBuildItem> errors) {
        if (!problems.isEmpty()) {
            errors.produce(new ValidationErrorBuildItem(new DeploymentException(
                    "Invalid @Delayed usage:\n - " + String.join("\n - ", problems))));
        }
    }

    private static String className(InvokerInfo invoker) {
        String descriptor = invoker.getClassDesc().descriptorString();
        return descriptor.substring(1, descriptor.length() - 1).replace('/', '.');
    }

    @BuildStep
    @Record(ExecutionTime.RUNTIME_INIT)
    void registerConsumers(DelayedRecorder recorder, RecorderContext recorderContext,
            List<DelayedInvokerBuildItem> invokers, BeanContainerBuildItem beanContainer) {
        List<DelayedInvokerBuildItem> sorted = new ArrayList<>(invokers);
        sorted.sort(Comparator.comparing(item -> item.getDefinition().getQueue()));
        for (DelayedInvokerBuildItem item : sorted) {
            recorder.registerConsumer(item.getDefinition(), recorderContext.newInstance(item.getInvokerClassName()));
        }
    }
}
