package io.quarkiverse.pacer.deployment;

import static io.quarkiverse.pacer.deployment.PacerDotNames.BLOCKING;
import static io.quarkiverse.pacer.deployment.PacerDotNames.COMPLETION_STAGE;
import static io.quarkiverse.pacer.deployment.PacerDotNames.DELAYED_MESSAGE;
import static io.quarkiverse.pacer.deployment.PacerDotNames.NON_BLOCKING;
import static io.quarkiverse.pacer.deployment.PacerDotNames.RUN_ON_VIRTUAL_THREAD;
import static io.quarkiverse.pacer.deployment.PacerDotNames.STRING;
import static io.quarkiverse.pacer.deployment.PacerDotNames.UNI;
import static io.quarkiverse.pacer.deployment.PacerDotNames.VOID;

import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

import org.jboss.jandex.AnnotationInstance;
import org.jboss.jandex.ClassInfo;
import org.jboss.jandex.IndexView;
import org.jboss.jandex.MethodInfo;
import org.jboss.jandex.ParameterizedType;
import org.jboss.jandex.PrimitiveType;
import org.jboss.jandex.Type;

import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.runtime.delay.DelayedConsumerDefinition;
import io.quarkiverse.pacer.runtime.delay.DelayedQueueNames;
import io.quarkiverse.pacer.runtime.delay.HandlerCompletion;
import io.quarkiverse.pacer.runtime.delay.HandlerExecution;
import io.quarkiverse.pacer.runtime.delay.PayloadKind;
import io.quarkiverse.pacer.runtime.delay.consumer.ConsumerSettings;
import io.quarkus.runtime.configuration.DurationConverter;

/**
 * Turns one {@code @Delayed} method into its {@link DelayedConsumerDefinition}: queue name, payload and return kinds,
 * and the settings (concurrency, attempts, backoff, lease), checking each on the way.
 */
final class DelayedConsumerDefinitions {

    private DelayedConsumerDefinitions() {
    }

    static Optional<DelayedConsumerDefinition> define(AnnotationInstance annotation, MethodInfo method,
            IndexView index, String where, List<String> problems) {
        int before = problems.size();
        String queue = annotation.value().asString();
        if (!DelayedQueueNames.isValid(queue)) {
            problems.add(where + ": " + DelayedQueueNames.RULE);
        } else if (DelayedQueueNames.reservedProblem(queue) != null) {
            problems.add(where + ": " + DelayedQueueNames.reservedProblem(queue));
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

        if (KotlinSuspend.isSuspend(method)) {
            problems.add(where + ": " + KotlinSuspend.PROBLEM);
        } else if (method.parametersCount() == 0) {
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
            definition.setReturnKind(HandlerCompletion.VOID);
        } else if (returned.name().equals(UNI) && isOfVoid(returned)) {
            definition.setReturnKind(HandlerCompletion.UNI);
        } else if (returned.name().equals(COMPLETION_STAGE) && isOfVoid(returned)) {
            definition.setReturnKind(HandlerCompletion.COMPLETION_STAGE);
        } else {
            problems.add(where + ": the method must return void, Uni<Void> or"
                    + " CompletionStage<Void>, found " + returned);
        }
        definition.setExecution(execution(method, definition, where, problems));
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

    /**
     * The thread the method runs on: its {@code @Blocking}, {@code @NonBlocking} or {@code @RunOnVirtualThread}
     * annotation (on the method, else on its class), else the default of its return kind.
     */
    private static HandlerExecution execution(MethodInfo method, DelayedConsumerDefinition definition, String where,
            List<String> problems) {
        List<HandlerExecution> declared = declaredExecution(method.hasDeclaredAnnotation(BLOCKING),
                method.hasDeclaredAnnotation(NON_BLOCKING), method.hasDeclaredAnnotation(RUN_ON_VIRTUAL_THREAD));
        if (declared.isEmpty()) {
            ClassInfo type = method.declaringClass();
            declared = declaredExecution(type.hasDeclaredAnnotation(BLOCKING), type.hasDeclaredAnnotation(NON_BLOCKING),
                    type.hasDeclaredAnnotation(RUN_ON_VIRTUAL_THREAD));
        }
        if (declared.size() > 1) {
            problems.add(where + ": @Blocking, @NonBlocking and @RunOnVirtualThread exclude each other, found "
                    + declared.size() + " of them");
            return null;
        }
        return declared.isEmpty() ? HandlerExecution.defaultFor(definition.getReturnKind()) : declared.get(0);
    }

    private static List<HandlerExecution> declaredExecution(boolean blocking, boolean nonBlocking,
            boolean virtualThread) {
        List<HandlerExecution> declared = new ArrayList<>(1);
        if (blocking) {
            declared.add(HandlerExecution.WORKER);
        }
        if (nonBlocking) {
            declared.add(HandlerExecution.EVENT_LOOP);
        }
        if (virtualThread) {
            declared.add(HandlerExecution.VIRTUAL_THREAD);
        }
        return declared;
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
                // In milliseconds, as the configuration's check words it ("lease must be at least 100ms").
                problems.add(where + ": " + member + " must be at least " + minimum.toMillis() + "ms, was \"" + text
                        + "\"");
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
                return parameterized.name() + parameterized.arguments().stream().map(DelayedConsumerDefinitions::canonical)
                        .collect(Collectors.joining(",", "<", ">"));
            case WILDCARD_TYPE:
                return canonical(type.asWildcardType().extendsBound());
            case PRIMITIVE:
                return PrimitiveType.box(type.asPrimitiveType()).name().toString();
            default:
                return type.name().toString();
        }
    }
}
