package io.quarkiverse.pacer.deployment;

import static io.quarkiverse.pacer.deployment.PacerDotNames.DELAYED_MESSAGE;
import static io.quarkiverse.pacer.deployment.PacerDotNames.DELAYED_QUEUE_NAME;
import static io.quarkiverse.pacer.deployment.PacerDotNames.REACTIVE_TYPED_DELAYED_QUEUE;
import static io.quarkiverse.pacer.deployment.PacerDotNames.TYPED_DELAYED_QUEUE;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.jboss.jandex.AnnotationInstance;
import org.jboss.jandex.DotName;
import org.jboss.jandex.Type;

import io.quarkiverse.pacer.deployment.DelayedMethodsBuildItem.DelayedMethod;
import io.quarkus.arc.processor.InjectionPointInfo;

/**
 * Checks each injected {@code TypedDelayedQueue<T>} / {@code ReactiveTypedDelayedQueue<T>} against the queue's
 * {@code @Delayed} consumer: the queue is named, has a consumer in the application, and the consumer's payload type is
 * {@code T}.
 */
final class TypedQueueChecks {

    private TypedQueueChecks() {
    }

    static List<String> check(Iterable<InjectionPointInfo> injectionPoints, List<DelayedMethod> consumers) {
        Map<String, DelayedMethod> byQueue = new HashMap<>();
        for (DelayedMethod consumer : consumers) {
            byQueue.put(consumer.definition().getQueue(), consumer);
        }
        List<String> problems = new ArrayList<>();
        for (InjectionPointInfo injectionPoint : injectionPoints) {
            Type required = injectionPoint.getRequiredType();
            DotName handle = required.name();
            if (!handle.equals(TYPED_DELAYED_QUEUE) && !handle.equals(REACTIVE_TYPED_DELAYED_QUEUE)) {
                continue;
            }
            String simpleName = handle.withoutPackagePrefix();
            String where = simpleName + " injected into " + injectionPoint.getTargetInfo();
            AnnotationInstance name = injectionPoint.getRequiredQualifier(DELAYED_QUEUE_NAME);
            if (name == null) {
                problems.add(where + ": name its queue with @DelayedQueueName(\"<queue>\")");
                continue;
            }
            String queue = name.value().asString();
            where = simpleName + " of queue \"" + queue + "\" injected into " + injectionPoint.getTargetInfo();
            if (required.kind() != Type.Kind.PARAMETERIZED_TYPE) {
                problems.add(where + ": declare its payload type, e.g. " + simpleName + "<OrderRef>");
                continue;
            }
            Type injected = required.asParameterizedType().arguments().get(0);
            DelayedMethod consumer = byQueue.get(queue);
            if (consumer == null) {
                problems.add(where + ": the application has no @Delayed(\"" + queue + "\") consumer method"
                        + (byQueue.isEmpty() ? ""
                                : " (queues with a consumer: " + byQueue.keySet().stream().sorted()
                                        .collect(Collectors.joining(", ")) + ")"));
                continue;
            }
            Type consumed = payloadType(consumer);
            if (!describe(injected).equals(describe(consumed))) {
                problems.add(where + ": its payload type " + describe(injected) + " differs from "
                        + describe(consumed) + ", the payload type of @Delayed(\"" + queue + "\") declared on "
                        + MethodNames.display(consumer.method()));
            }
        }
        return problems;
    }

    /** The consumer's payload type: its parameter, or the type argument of its {@code DelayedMessage<T>}. */
    private static Type payloadType(DelayedMethod consumer) {
        Type parameter = consumer.method().parameterType(0);
        if (parameter.name().equals(DELAYED_MESSAGE) && parameter.kind() == Type.Kind.PARAMETERIZED_TYPE) {
            return parameter.asParameterizedType().arguments().get(0);
        }
        return parameter;
    }

    /** A type as Java source spells it, without type annotations, for comparison and messages. */
    static String describe(Type type) {
        return switch (type.kind()) {
            case PARAMETERIZED_TYPE -> type.name() + type.asParameterizedType().arguments().stream()
                    .map(TypedQueueChecks::describe).collect(Collectors.joining(", ", "<", ">"));
            case ARRAY -> describe(type.asArrayType().elementType()) + "[]".repeat(type.asArrayType().dimensions());
            case WILDCARD_TYPE -> type.toString();
            default -> type.name().toString();
        };
    }
}
