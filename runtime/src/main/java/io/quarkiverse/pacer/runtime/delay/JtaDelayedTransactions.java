package io.quarkiverse.pacer.runtime.delay;

import java.time.Duration;
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
 * call order) and sent to Redis, one after the other, after a successful commit; after a rollback they are dropped.
 * Outside a transaction they act at once.
 * <p>
 * The window between the commit and Redis storing the messages is not transactional: if the instance dies in it, the
 * operations are lost (see the documentation on the outbox pattern).
 */
@Singleton
public class JtaDelayedTransactions implements DelayedTransactions {

    private static final Logger LOG = Logger.getLogger(JtaDelayedTransactions.class);

    /** Attempts at each operation after commit, for a failover or a busy connection. */
    static final int ATTEMPTS = 3;

    private final TransactionSynchronizationRegistry registry;

    JtaDelayedTransactions(TransactionSynchronizationRegistry registry) {
        this.registry = registry;
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
            pending = new AfterCommit();
            registry.putResource(AfterCommit.class, pending);
            registry.registerInterposedSynchronization(pending);
        }
        pending.add(description, operation);
        return Uni.createFrom().item(whenDeferred);
    }

    /** The operations of one transaction, sent in call order after it commits. */
    static final class AfterCommit implements Synchronization {
        private final List<String> descriptions = new ArrayList<>();
        private final List<Supplier<? extends Uni<?>>> operations = new ArrayList<>();

        synchronized void add(String description, Supplier<? extends Uni<?>> operation) {
            descriptions.add(description);
            operations.add(operation);
        }

        @Override
        public void beforeCompletion() {
        }

        @Override
        public void afterCompletion(int status) {
            if (status != Status.STATUS_COMMITTED) {
                LOG.debugf("Transaction rolled back: dropped %s", descriptions);
                return;
            }
            Uni<Void> chain = Uni.createFrom().voidItem();
            synchronized (this) {
                for (int i = 0; i < operations.size(); i++) {
                    String description = descriptions.get(i);
                    Supplier<? extends Uni<?>> operation = operations.get(i);
                    chain = chain.chain(() -> Uni.createFrom().deferred(() -> (Uni<?>) operation.get())
                            .onFailure().retry().withBackOff(Duration.ofMillis(50)).atMost(ATTEMPTS - 1)
                            .onFailure().invoke(failure -> LOG.errorf("%s after the transaction committed failed"
                                    + " %d times; it is lost: %s", description, ATTEMPTS, failure.toString()))
                            .onFailure().recoverWithNull()
                            .replaceWithVoid());
                }
            }
            // Never blocks the committing thread: the calls complete asynchronously.
            chain.subscribe().with(ignored -> {
            }, failure -> LOG.errorf("Sending delayed-queue operations after commit failed: %s", failure.toString()));
        }
    }
}
