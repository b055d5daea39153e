package io.quarkiverse.pacer.it;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;

/** The demo's order book, in memory. */
@ApplicationScoped
public class Orders {

    public enum Status {
        PENDING,
        PAID,
        EXPIRED
    }

    private final Map<Long, Status> statuses = new ConcurrentHashMap<>();

    public void place(long id) {
        statuses.put(id, Status.PENDING);
    }

    public Status status(long id) {
        return statuses.get(id);
    }

    /** Pays a pending order; returns false if it already expired. */
    public boolean pay(long id) {
        return statuses.replace(id, Status.PENDING, Status.PAID);
    }

    /** Expires a pending order; a paid or already expired one is left alone, so a duplicate delivery is harmless. */
    public boolean expire(long id) {
        return statuses.replace(id, Status.PENDING, Status.EXPIRED);
    }
}
