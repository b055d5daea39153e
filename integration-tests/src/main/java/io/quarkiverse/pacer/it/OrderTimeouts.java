package io.quarkiverse.pacer.it;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import io.quarkiverse.pacer.delay.Delayed;

/** Expires orders that were not paid in time. */
@ApplicationScoped
public class OrderTimeouts {

    private static final Logger LOG = Logger.getLogger(OrderTimeouts.class);

    @Inject
    Orders orders;

    @Delayed(value = "order-timeout", concurrency = 4)
    void expire(OrderRef order) {
        // Idempotent: expiring twice, or expiring a paid order, changes nothing.
        if (orders.expire(order.id())) {
            LOG.infof("Order %d timed out: expired", order.id());
        } else {
            LOG.infof("Order %d timed out, but it is %s: nothing to do", order.id(), orders.status(order.id()));
        }
    }
}
