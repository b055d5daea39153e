package io.quarkiverse.pacer.it;

/** The payload of an order timeout: which order to expire. */
public record OrderRef(long id) {
}
