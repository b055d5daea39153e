package io.quarkiverse.pacer.runtime.delay;

import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every delay-queue consumer of this application, recorded at build time into a synthetic bean: the consumers,
 * the producers' payload type check and the unconsumed-queue warning all read it.
 */
public final class HandlersByQueue {

    private final List<DelayedHandler> all;
    private final Map<String, DelayedHandler> byQueue = new LinkedHashMap<>();

    public HandlersByQueue(List<DelayedHandler> handlers) {
        this.all = handlers.stream().sorted(Comparator.comparing(DelayedHandler::queue)).toList();
        all.forEach(handler -> byQueue.put(handler.queue(), handler));
    }

    /** Sorted by queue. */
    public List<DelayedHandler> all() {
        return all;
    }

    /** The consumer of {@code queue} in this application, or {@code null}. */
    public DelayedHandler of(String queue) {
        return byQueue.get(queue);
    }

    public boolean isEmpty() {
        return all.isEmpty();
    }
}
