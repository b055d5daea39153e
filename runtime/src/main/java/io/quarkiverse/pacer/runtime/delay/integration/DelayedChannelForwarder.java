package io.quarkiverse.pacer.runtime.delay.integration;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import jakarta.enterprise.inject.Instance;

import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.Metadata;

import io.quarkiverse.pacer.delay.DelayedMessage;
import io.quarkiverse.pacer.runtime.tracing.ForwardedMessageTracing;
import io.quarkus.arc.Arc;
import io.smallrye.reactive.messaging.MutinyEmitter;

/**
 * Hands due messages of a queue configured with {@code quarkus.pacer.delayed."<queue>".forward-to} to a Quarkus
 * Messaging channel. The build generates one subclass per channel, whose emitter is injected with
 * {@code @Channel("<channel>")} (so Quarkus Messaging wires the channel at build time like any other emitter).
 * <p>
 * The message is acknowledged in Redis when the channel acknowledges it, and retried with backoff when the channel
 * negatively acknowledges it (or refuses it, e.g. its buffer is full).
 */
public abstract class DelayedChannelForwarder {

    /** Adds the trace context to forwarded messages when OpenTelemetry tracing is present; looked up once. */
    private volatile ForwardedMessageTracing tracing;

    /** The emitter of the channel (injected into the generated subclass). */
    public abstract MutinyEmitter<Object> emitter();

    /** The channel name. */
    public abstract String channel();

    /** Sends one message; the stage completes on the channel's ack and fails with the reason of its nack. */
    CompletionStage<Void> forward(DelayedMessage<Object> message) {
        CompletableFuture<Void> outcome = new CompletableFuture<>();
        Message<Object> outgoing = Message.of(message.payload(), tracing().withTraceContext(Metadata.of(message)), () -> {
            outcome.complete(null);
            return CompletableFuture.completedFuture(null);
        }, reason -> {
            outcome.completeExceptionally(reason != null ? reason
                    : new IllegalStateException("Channel " + channel() + " did not acknowledge the message"));
            return CompletableFuture.completedFuture(null);
        });
        try {
            emitter().sendMessageAndForget(outgoing);
        } catch (RuntimeException e) {
            outcome.completeExceptionally(e);
        }
        return outcome;
    }

    private ForwardedMessageTracing tracing() {
        ForwardedMessageTracing current = tracing;
        if (current == null) {
            Instance<ForwardedMessageTracing> registered = Arc.container().select(ForwardedMessageTracing.class);
            current = registered.isResolvable() ? registered.get() : ForwardedMessageTracing.NONE;
            tracing = current;
        }
        return current;
    }
}
