package io.quarkiverse.pacer.runtime.delay.consumer;

import java.time.Instant;

import com.fasterxml.jackson.databind.JavaType;

import io.quarkiverse.pacer.delay.DelayedMessage;
import io.quarkiverse.pacer.runtime.delay.DelayedConsumerDefinition;
import io.quarkiverse.pacer.runtime.delay.PayloadCodec;
import io.quarkiverse.pacer.runtime.delay.PayloadKind;

/** Turns a claimed message into the argument of its handler: the decoded payload, or a {@link DelayedMessage}. */
final class HandlerArguments {

    private final DelayedConsumerDefinition definition;
    private final PayloadCodec codec;
    private final JavaType payloadType;

    HandlerArguments(DelayedConsumerDefinition definition, PayloadCodec codec) {
        this.definition = definition;
        this.codec = codec;
        this.payloadType = definition.getPayloadKind() == PayloadKind.JSON
                ? codec.mapper().getTypeFactory().constructFromCanonical(definition.getPayloadType())
                : null;
    }

    /** @throws Exception when the payload does not fit the handler's type */
    Object of(ClaimedMessage message) throws Exception {
        Object payload = codec.decode(message.payload(), message.encoding(), definition.getPayloadKind(), payloadType);
        if (definition.isMessageParameter()) {
            return new DelayedMessage<>(message.id(), definition.getQueue(), payload,
                    Instant.ofEpochMilli(message.dueMillis()), message.attempt(), message.redeliveries());
        }
        return payload;
    }
}
