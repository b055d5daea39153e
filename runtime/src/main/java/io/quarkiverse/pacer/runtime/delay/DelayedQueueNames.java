package io.quarkiverse.pacer.runtime.delay;

/**
 * The rule for delay-queue names, checked at build time for {@code @Delayed} and {@code forward-to}, and at runtime
 * for every producer call: a name is non-empty and has no brace, because its keys put it inside a Redis Cluster hash
 * tag ({@code {<queue>}}).
 */
public final class DelayedQueueNames {

    /** The rule as build-time messages state it. */
    public static final String RULE = "the queue name must be non-empty without '{' or '}'";

    private DelayedQueueNames() {
    }

    public static boolean isValid(String queue) {
        return queue != null && !queue.isEmpty() && queue.indexOf('{') < 0 && queue.indexOf('}') < 0;
    }

    /** @throws IllegalArgumentException when {@code queue} breaks the rule */
    static void check(String queue) {
        if (queue == null || queue.isEmpty()) {
            throw new IllegalArgumentException("Delay queue name must not be empty");
        }
        if (!isValid(queue)) {
            throw new IllegalArgumentException("Delay queue name must not contain '{' or '}': " + queue);
        }
    }
}
