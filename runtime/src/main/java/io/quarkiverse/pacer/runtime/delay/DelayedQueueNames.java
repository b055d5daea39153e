package io.quarkiverse.pacer.runtime.delay;

import java.util.Set;

/**
 * The rule for delay-queue names, checked at build time for {@code @Delayed} and {@code forward-to}, and at runtime
 * for every producer call: a name is non-empty and has no brace, because its keys put it inside a Redis Cluster hash
 * tag ({@code {<queue>}}).
 */
public final class DelayedQueueNames {

    /** The rule as build-time messages state it. */
    public static final String RULE = "the queue name must be non-empty without '{' or '}'";

    /**
     * Names a queue cannot take: {@code quarkus.pacer.delayed.<name>.*} configures a setting group of that name, so
     * the queue's own settings could not be told apart.
     */
    public static final Set<String> RESERVED = Set.of("consumer", "after-commit");

    private DelayedQueueNames() {
    }

    /** The problem with a reserved {@code queue} name, for messages; {@code null} when the name is free. */
    public static String reservedProblem(String queue) {
        return RESERVED.contains(queue) ? "the queue name \"" + queue + "\" is reserved: quarkus.pacer.delayed."
                + queue + ".* configures Pacer itself, so the queue's settings could not be told apart; rename the queue"
                : null;
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
