package io.quarkiverse.pacer.optional.app;

import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import io.quarkiverse.pacer.delay.DelayedQueue;

/**
 * Schedules an order's payment timeout in a JTA transaction: with {@code quarkus-narayana-jta}, the message reaches
 * Redis when the transaction commits, never when it rolls back.
 */
@ApplicationScoped
public class Checkout {

    static final String QUEUE = "app-payment-timeout";

    @Inject
    DelayedQueue queue;

    /** Returns the queue's size seen inside the transaction, after the schedule call. */
    @Transactional
    public long place(String order) {
        queue.schedule(QUEUE, order, order, Duration.ofHours(1));
        return queue.size(QUEUE);
    }

    @Transactional
    public void placeAndFail(String order) {
        queue.schedule(QUEUE, order, order, Duration.ofHours(1));
        throw new IllegalStateException("payment refused");
    }

    long size() {
        return queue.size(QUEUE);
    }
}
