package io.quarkiverse.pacer.runtime.tracing;

import io.smallrye.mutiny.Uni;

/** The PRODUCER span of one schedule call, and the trace context stored with its messages. */
public interface ProducerTrace {

    ProducerTrace NONE = new ProducerTrace() {
        @Override
        public String context() {
            return null;
        }

        @Override
        public <T> Uni<T> ending(Uni<T> stored) {
            return stored;
        }

        @Override
        public void end(Throwable failure) {
        }
    };

    /** The compact trace context to store with the messages, {@code null} when there is none. */
    String context();

    /** {@code stored}, ending the span when it completes (recording its failure). */
    <T> Uni<T> ending(Uni<T> stored);

    /** Ends the span of a call that completed without a Mutiny chain; {@code failure} is {@code null} on success. */
    void end(Throwable failure);
}
