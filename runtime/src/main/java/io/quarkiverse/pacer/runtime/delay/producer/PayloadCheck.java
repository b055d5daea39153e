package io.quarkiverse.pacer.runtime.delay.producer;

import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.inject.Instance;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkiverse.pacer.runtime.delay.DelayedConsumerDefinition;
import io.quarkiverse.pacer.runtime.delay.DelayedHandler;
import io.quarkiverse.pacer.runtime.delay.HandlersByQueue;
import io.quarkiverse.pacer.runtime.delay.PayloadCodec;
import io.quarkiverse.pacer.runtime.delay.PayloadKind;

/**
 * The payload codec of delay queues, and the producer-side check that a payload fits the consumer of its queue in this
 * application.
 */
final class PayloadCheck {

    private final Instance<ObjectMapper> mapper;
    /** The consumers of this application: a payload scheduled on their queue must fit them. */
    private final HandlersByQueue handlers;
    private final ConcurrentHashMap<String, JavaType> payloadTypes = new ConcurrentHashMap<>();
    private volatile PayloadCodec codec;

    PayloadCheck(Instance<ObjectMapper> mapper, HandlersByQueue handlers) {
        this.mapper = mapper;
        this.handlers = handlers;
    }

    PayloadCodec codec() {
        PayloadCodec current = codec;
        if (current == null) {
            current = new PayloadCodec(mapper.isResolvable() ? mapper.get() : new ObjectMapper().findAndRegisterModules());
            codec = current;
        }
        return current;
    }

    /**
     * Fails fast when this application consumes {@code queue} and the payload is not of the consumer's parameter type:
     * such a message could only be dead-lettered, or worse, decoded into a wrong object. A {@code String} or
     * {@code byte[]} for a JSON consumer is taken as the JSON document itself, so a {@code String} must parse as the
     * consumer's type.
     */
    void check(String queue, Object payload) {
        DelayedHandler handler = handlers.of(queue);
        if (handler == null || payload == null) {
            return;
        }
        DelayedConsumerDefinition consumer = handler.definition();
        boolean fits = switch (consumer.getPayloadKind()) {
            case STRING -> payload instanceof String;
            case BYTES -> payload instanceof byte[];
            case JSON -> payload instanceof String || payload instanceof byte[]
                    || payloadType(consumer).getRawClass().isInstance(payload);
            // A forwarding channel takes whatever the producer stores.
            case AS_STORED -> true;
        };
        if (!fits) {
            throw new IllegalArgumentException("Payload of type " + payload.getClass().getName()
                    + " cannot be scheduled on delay queue \"" + queue + "\": its consumer " + consumer.describe()
                    + " takes " + displayType(consumer) + "; schedule a " + displayType(consumer)
                    + (consumer.getPayloadKind() == PayloadKind.JSON ? " (or its JSON as a String)" : ""));
        }
        if (consumer.getPayloadKind() == PayloadKind.JSON && payload instanceof String text) {
            checkJson(queue, text, consumer);
        }
    }

    /** A text for a JSON consumer is its payload's JSON: it must decode to the consumer's type, as the consumer will. */
    void checkJson(String queue, String text, DelayedConsumerDefinition consumer) {
        JavaType type = payloadType(consumer);
        if (type.getRawClass() == Object.class) {
            return; // any JSON value decodes to Object
        }
        try {
            codec().decode(text, PayloadCodec.TEXT, PayloadKind.JSON, type);
        } catch (Exception e) {
            throw new IllegalArgumentException("Payload of type java.lang.String cannot be scheduled on delay queue \""
                    + queue + "\": its consumer " + consumer.describe() + " takes " + consumer.getPayloadType()
                    + ", so a String is taken as its JSON, and this one is not a JSON " + consumer.getPayloadType()
                    + " (" + PayloadCodec.reason(e) + "); schedule a " + consumer.getPayloadType()
                    + " or its JSON as a String", e);
        }
    }

    private JavaType payloadType(DelayedConsumerDefinition consumer) {
        return payloadTypes.computeIfAbsent(consumer.getQueue(), q -> {
            try {
                return codec().mapper().getTypeFactory().constructFromCanonical(consumer.getPayloadType());
            } catch (RuntimeException e) {
                // the consumer loop reports a type it cannot load; accept here
                return codec().mapper().getTypeFactory().constructType(Object.class);
            }
        });
    }

    private static String displayType(DelayedConsumerDefinition consumer) {
        return switch (consumer.getPayloadKind()) {
            case STRING -> String.class.getName();
            case BYTES -> "byte[]";
            case JSON, AS_STORED -> consumer.getPayloadType();
        };
    }
}
