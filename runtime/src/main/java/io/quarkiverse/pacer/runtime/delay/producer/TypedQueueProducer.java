package io.quarkiverse.pacer.runtime.delay.producer;

import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.inject.Produces;
import jakarta.enterprise.inject.spi.InjectionPoint;
import jakarta.inject.Singleton;

import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkiverse.pacer.delay.DelayedQueueName;
import io.quarkiverse.pacer.delay.ReactiveDelayedQueue;
import io.quarkiverse.pacer.delay.ReactiveTypedDelayedQueue;
import io.quarkiverse.pacer.delay.TypedDelayedQueue;

/**
 * Produces the typed queue handles injected with {@link DelayedQueueName}. The build has checked each injection point
 * against the queue's consumer, so the handle only fixes the queue name.
 */
@Singleton
public class TypedQueueProducer {

    private final DelayedQueue queue;
    private final ReactiveDelayedQueue reactive;

    TypedQueueProducer(DelayedQueue queue, ReactiveDelayedQueue reactive) {
        this.queue = queue;
        this.reactive = reactive;
    }

    @Produces
    @Dependent
    @DelayedQueueName("")
    <T> TypedDelayedQueue<T> typedQueue(InjectionPoint injectionPoint) {
        return new BlockingTypedQueue<>(queue, name(injectionPoint));
    }

    @Produces
    @Dependent
    @DelayedQueueName("")
    <T> ReactiveTypedDelayedQueue<T> reactiveTypedQueue(InjectionPoint injectionPoint) {
        return new ReactiveTypedQueue<>(reactive, name(injectionPoint));
    }

    private static String name(InjectionPoint injectionPoint) {
        for (var qualifier : injectionPoint.getQualifiers()) {
            if (qualifier instanceof DelayedQueueName name) {
                return name.value();
            }
        }
        throw new IllegalStateException("No @DelayedQueueName on " + injectionPoint);
    }
}
