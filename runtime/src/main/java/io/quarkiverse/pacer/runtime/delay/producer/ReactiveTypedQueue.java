package io.quarkiverse.pacer.runtime.delay.producer;

import java.time.Duration;
import java.time.Instant;

import io.quarkiverse.pacer.delay.ReactiveDelayedQueue;
import io.quarkiverse.pacer.delay.ReactiveTypedDelayedQueue;
import io.smallrye.mutiny.Uni;

/** A {@link ReactiveTypedDelayedQueue}: the {@link ReactiveDelayedQueue} bean with the queue name fixed. */
final class ReactiveTypedQueue<T> implements ReactiveTypedDelayedQueue<T> {

    private final ReactiveDelayedQueue delegate;
    private final String queue;

    ReactiveTypedQueue(ReactiveDelayedQueue delegate, String queue) {
        this.delegate = delegate;
        this.queue = queue;
    }

    @Override
    public String queue() {
        return queue;
    }

    @Override
    public Uni<String> schedule(T payload, Duration delay) {
        return delegate.schedule(queue, payload, delay);
    }

    @Override
    public Uni<String> schedule(T payload, Instant dueAt) {
        return delegate.schedule(queue, payload, dueAt);
    }

    @Override
    public Uni<String> scheduleWithId(String id, T payload, Duration delay) {
        return delegate.scheduleWithId(queue, id, payload, delay);
    }

    @Override
    public Uni<String> scheduleWithId(String id, T payload, Instant dueAt) {
        return delegate.scheduleWithId(queue, id, payload, dueAt);
    }

    @Override
    public Uni<Boolean> scheduleIfAbsent(String id, T payload, Duration delay) {
        return delegate.scheduleIfAbsent(queue, id, payload, delay);
    }

    @Override
    public Uni<Boolean> cancel(String id) {
        return delegate.cancel(queue, id);
    }

    @Override
    public Uni<Boolean> deliverNow(String id) {
        return delegate.deliverNow(queue, id);
    }

    @Override
    public Uni<Long> size() {
        return delegate.size(queue);
    }

    @Override
    public String toString() {
        return "ReactiveTypedDelayedQueue[" + queue + "]";
    }
}
