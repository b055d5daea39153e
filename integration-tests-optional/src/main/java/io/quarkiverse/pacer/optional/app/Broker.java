package io.quarkiverse.pacer.optional.app;

import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

import io.quarkiverse.pacer.delay.DelayedMessage;

/**
 * Consumes the {@code app-handoff-out} channel, to which due messages of the {@code app-handoff} queue are forwarded
 * ({@code quarkus.pacer.delayed."app-handoff".forward-to}); a real application would connect the channel to a broker.
 */
@ApplicationScoped
public class Broker {

    private final List<String> received = new CopyOnWriteArrayList<>();

    @Incoming("app-handoff-out")
    CompletionStage<Void> receive(Message<String> message) {
        DelayedMessage<?> delayed = message.getMetadata(DelayedMessage.class).orElseThrow();
        received.add(delayed.queue() + "/" + delayed.id() + "#" + delayed.attempt() + ": " + message.getPayload());
        return message.ack();
    }

    List<String> received() {
        return received;
    }
}
