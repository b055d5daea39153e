package io.quarkiverse.pacer.runtime.delay.integration;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import jakarta.inject.Singleton;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;

import org.jboss.logging.Logger;

import io.smallrye.mutiny.Uni;

/**
 * Producer operations inside an active JTA transaction wait for its commit: they are queued on the transaction (in
 * call order) and handed to the {@link AfterCommitSender} after a successful commit, which stores them in Redis one
 * after the other, retrying through a Redis outage; after a rollback they are dropped. Outside a transaction they act
 * at once.
 * <p>
 * The window between the commit and Redis storing the messages is not transactional: if the instance dies in it, the
 * operations are lost (see the documentation on the outbox pattern).
 */
@Singleton
public class JtaDelayedTransactions implements DelayedTransactions {

    private static final Logger LOG = Logger.getLogger(JtaDelayedTransactions.class);

    private final TransactionSynchronizationRegistry registry;
    private final AfterCommitSender sender;

    JtaDelayedTransactions(TransactionSynchronizationRegistry registry, AfterCommitSender sender) {
        this.registry = registry;
        this.sender = sender;
    }

    @Override
    public <T> Uni<T> run(String description, Supplier<Uni<T>> operation, T whenDeferred) {
        int status = registry.getTransactionStatus();
        if (status == Status.STATUS_NO_TRANSACTION) {
            return operation.get();
        }
        if (status != Status.STATUS_ACTIVE) {
            // Marked for rollback (or completing): it will never commit, so the operation never happens.
            LOG.debugf("%s skipped: the current transaction will not commit (status %d)", description, status);
            return Uni.createFrom().item(whenDeferred);
        }
        AfterCommit pending = (AfterCommit) registry.getResource(AfterCommit.class);
        if (pending == null) {
            pending = new AfterCommit(sender);
            registry.putResource(AfterCommit.class, pending);
            registry.registerInterposedSynchronization(pending);
        }
        pending.add(new AfterCommitSender.Operation(description, operation));
        return Uni.createFrom().item(whenDeferred);
    }

    @Override
    public boolean runsNow() {
        return registry.getTransactionStatus() == Status.STATUS_NO_TRANSACTION;
    }

    /** The operations of one transaction, handed to the sender in call order after it commits. */
    static final class AfterCommit implements Synchronization {
        private final AfterCommitSender sender;
        private final List<AfterCommitSender.Operation> operations = new ArrayList<>();

        AfterCommit(AfterCommitSender sender) {
            this.sender = sender;
        }

        synchronized void add(AfterCommitSender.Operation operation) {
            operations.add(operation);
        }

        @Override
        public void beforeCompletion() {
        }

        @Override
        public void afterCompletion(int status) {
            List<AfterCommitSender.Operation> committed;
            synchronized (this) {
                committed = List.copyOf(operations);
            }
            if (status != Status.STATUS_COMMITTED) {
                LOG.debugf("Transaction rolled back: dropped %d delay-queue operations", committed.size());
                return;
            }
            // Never blocks the committing thread: the sender stores them asynchronously.
            sender.send(committed);
        }
    }
}
