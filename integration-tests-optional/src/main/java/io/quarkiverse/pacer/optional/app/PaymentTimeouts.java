package io.quarkiverse.pacer.optional.app;

import org.jboss.logging.Logger;

import io.quarkiverse.pacer.delay.Delayed;

/** Consumes the payment timeouts that {@link Checkout} schedules on commit. */
public class PaymentTimeouts {

    private static final Logger LOG = Logger.getLogger(PaymentTimeouts.class);

    @Delayed(Checkout.QUEUE)
    void expire(String order) {
        LOG.infof("Order %s was not paid in time", order);
    }
}
