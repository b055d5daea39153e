package io.quarkiverse.pacer.runtime.delay.producer;

import java.time.Duration;
import java.time.Instant;

import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkiverse.pacer.delay.TypedDelayedQueue;

/** A {@link TypedDelayedQueue}: the {@link DelayedQueue} bean with the queue name fixed. */
final class BlockingTypedQueue<T> implements TypedDelayedQueue<T> {

    private final DelayedQueue delegate;
    private final String queue;

    BlockingTypedQueue(DelayedQueue delegate, String queue) {
        this.delegate = delegate;
        this.queue = queue;
    }

    @Override
    public String queue() {
        return queue;
    }

    @Override
    public String schedule(T payload, Duration delay) {
        return delegate.schedule(queue, payload, delay);
    }

    @Override
    public String schedule(T payload, Instant dueAt) {
        return delegate.schedule(queue, payload, dueAt);
    }

    @Override
    public String scheduleWithId(String id, T payload, Duration delay) {
        return delegate.scheduleWithId(queue, id, payload, delay);
    }

    @Override
    public String scheduleWithId(String id, T payload, Instant dueAt) {
        return delegate.scheduleWithId(queue, id, payload, dueAt);
    }

    @Override
    public boolean scheduleIfAbsent(String id, T payload, Duration delay) {
        return delegate.scheduleIfAbsent(queue, id, payload, delay);
    }

    @Override
    public boolean cancel(String id) {
        return delegate.cancel(queue, id);
    }

    @Override
    public boolean deliverNow(String id) {
        return delegate.deliverNow(queue, id);
    }

    @Override
    public long size() {
        return delegate.size(queue);
    }

    @Override
    public String toString() {
        return "TypedDelayedQueue[" + queue + "]";
    }
}
