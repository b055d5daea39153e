package io.quarkiverse.pacer.runtime.delay.integration;

import java.util.function.Supplier;

import io.smallrye.mutiny.Uni;

/**
 * Where a producer operation runs: at once, or, inside an active JTA transaction, after it commits. The default acts
 * at once; with {@code quarkus-narayana-jta} present (and {@code quarkus.pacer.delayed.transactional} on) the build
 * registers {@link JtaDelayedTransactions}.
 */
public interface DelayedTransactions {

    DelayedTransactions IMMEDIATE = new DelayedTransactions() {
    };

    /**
     * Runs {@code operation} now, or registers it to run after the current transaction commits and returns
     * {@code whenDeferred} at once. Called at subscription, on the caller's thread, where the transaction is bound.
     */
    default <T> Uni<T> run(String description, Supplier<Uni<T>> operation, T whenDeferred) {
        return operation.get();
    }

    /** Whether {@link #run} called now, on this thread, would run the operation at once (no transaction defers it). */
    default boolean runsNow() {
        return true;
    }
}
