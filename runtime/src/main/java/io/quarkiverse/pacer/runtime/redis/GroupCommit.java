package io.quarkiverse.pacer.runtime.redis;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;

import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

/**
 * Durable writes to one Redis master, sharing their {@code WAIT}s: the scripts that arrive while a {@code WAIT} is
 * pending are written together when it answers, followed by one {@code WAIT}, which covers them all (it waits for the
 * replication offset of the connection's last write). So concurrent durable writes cost one replica round trip per
 * group, not one each in a queue. The scripts of a group that may travel together ({@link Batchable}, e.g. the
 * schedules of one shard) go as one call, as they do without durability.
 * <p>
 * A master known to have no connected replica ({@link ReplicaCheck}) fails a durable write at once, before its script
 * is written: the write is not stored, and it never waits for a {@code WAIT} that cannot be confirmed. The first group
 * after the check found none, or after a {@code WAIT} was not confirmed, asks again, so the master recovers by itself
 * when a replica connects.
 * <p>
 * Confined to the context of the master's durable connection, except the hand-over of arriving writes: while a group
 * is pending they are only queued, and the connection's thread is not woken for each of them (it takes them all when
 * the {@code WAIT} answers). Only that master's writes wait here.
 */
final class GroupCommit {

    /** One durable write: its script, and the caller told of the {@code WAIT} that covers it. */
    private record Member(PendingRequest script, PendingRequest confirmation, int replicas, long timeoutMillis) {
    }

    private final String endpoint;
    private final PipelinedConnection connection;
    private final ReplicaCheck replicas;
    private final ArrayDeque<Member> pending = new ArrayDeque<>();
    /** Writes handed over from any thread, taken into {@link #pending} on the connection's context. */
    private final Queue<Member> arriving = new ConcurrentLinkedQueue<>();
    /** A task that takes the arriving writes is on its way to the connection's context. */
    private final AtomicBoolean takeScheduled = new AtomicBoolean();
    /**
     * A {@code WAIT} or a replica check is pending: arriving writes join the next group, taken when it answers. Written
     * on the context, read by the threads handing writes over.
     */
    private volatile boolean busy;
    /** The replicas were asked for the group now pending (so a check that fails does not repeat for it). */
    private boolean askedForGroup;

    GroupCommit(String endpoint, PipelinedConnection connection, ReplicaCheck replicas) {
        this.endpoint = endpoint;
        this.connection = connection;
        this.replicas = replicas;
    }

    /**
     * Writes {@code script} in the next group; {@code confirmation} is answered with the group's {@code WAIT} reply (the
     * number of replicas that acknowledged it), or fails with the reason it did not answer. When the master is known
     * to have no replica, {@code script} fails at once with {@link NoReplicaException}.
     */
    void submit(PendingRequest script, PendingRequest confirmation, int replicas, long timeoutMillis) {
        Member member = new Member(script, confirmation, replicas, timeoutMillis);
        if (this.replicas.state() == ReplicaCheck.State.NONE) {
            connection.execute(() -> accept(member));
            return;
        }
        arriving.add(member);
        // Queued before busy is read: when busy is seen set, the WAIT's answer (which clears it first) takes it.
        if (!busy && takeScheduled.compareAndSet(false, true)) {
            connection.execute(() -> {
                takeScheduled.set(false);
                flush();
            });
        }
    }

    /** Whether the master is known to have no connected replica (durable writes to it fail at once). */
    boolean knownWithoutReplica() {
        return replicas.state() == ReplicaCheck.State.NONE;
    }

    private void accept(Member member) {
        if (replicas.state() == ReplicaCheck.State.NONE) {
            replicas.recheckIfDue(this::flush);
            member.script().fail(noReplica());
            return;
        }
        pending.add(member);
        flush();
    }

    private void flush() {
        if (busy) {
            return;
        }
        Member arrived;
        while ((arrived = arriving.poll()) != null) {
            pending.add(arrived);
        }
        pending.removeIf(member -> member.script().isDone());
        if (pending.isEmpty()) {
            return;
        }
        switch (replicas.state()) {
            case NONE:
                askedForGroup = false;
                Member member;
                while ((member = pending.poll()) != null) {
                    member.script().fail(noReplica());
                }
                return;
            case UNKNOWN:
                if (!askedForGroup) {
                    askedForGroup = true;
                    busy = true;
                    replicas.ask(() -> {
                        busy = false;
                        flush();
                    });
                    return;
                }
                break;
            default:
                break;
        }
        askedForGroup = false;
        Member first = pending.peek();
        List<Member> group = new ArrayList<>();
        Map<Object, List<PendingRequest>> batches = new LinkedHashMap<>();
        long budget = 0;
        while (!pending.isEmpty() && pending.peek().replicas() == first.replicas()
                && pending.peek().timeoutMillis() == first.timeoutMillis()) {
            Member member = pending.poll();
            group.add(member);
            budget = Math.max(budget, member.confirmation().budgetNanos());
            Batchable batchable = member.script().batchable();
            batches.computeIfAbsent(batchable == null ? member : batchable.group(), key -> new ArrayList<>())
                    .add(member.script());
        }
        // The scripts of one batch group (a shard) travel together, as non-durable writes do, all before the WAIT.
        long groupBudget = budget;
        for (List<PendingRequest> scripts : batches.values()) {
            for (int from = 0; from < scripts.size(); from += RequestBatches.MAX_PARTS) {
                List<PendingRequest> parts = scripts.subList(from, Math.min(scripts.size(), from + RequestBatches.MAX_PARTS));
                if (parts.size() == 1) {
                    // Never held by the connection's own batching: the WAIT must follow it.
                    connection.submit(parts.get(0).batchable(null));
                } else {
                    connection.submit(RequestBatches.together(new ArrayList<>(parts),
                            script -> load(script, groupBudget)));
                }
            }
        }
        busy = true;
        // Answered on this context: the connection answers requests without a caller context on its own.
        connection.submit(new PendingRequest(Request.cmd(Command.WAIT).arg(first.replicas()).arg(first.timeoutMillis()),
                budget, response -> waited(group, response, null), failure -> waited(group, null, failure), null));
    }

    private void waited(List<Member> group, Response response, Throwable failure) {
        busy = false;
        for (Member member : group) {
            if (failure == null) {
                member.confirmation().complete(response);
            } else {
                member.confirmation().fail(failure);
            }
        }
        if (failure != null || response.toInteger() < group.get(0).replicas()) {
            replicas.suspect();
        }
        flush();
    }

    /**
     * Loads a batch's script that the master did not have (a promoted replica, a {@code SCRIPT FLUSH}), ahead of the
     * next group: the parts of the failed batch are retried one by one, and the next batches find it.
     */
    private void load(LuaScript script, long budgetNanos) {
        connection.submit(new PendingRequest(Request.cmd(Command.SCRIPT).arg("LOAD").arg(script.source()), budgetNanos,
                ignored -> {
                }, ignored -> {
                }, null));
    }

    private NoReplicaException noReplica() {
        return new NoReplicaException(endpoint);
    }
}
