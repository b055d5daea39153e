package io.quarkiverse.pacer.runtime.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.jboss.logging.Logger;

import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;

/**
 * Whether one Redis master has a connected replica, from {@code INFO replication} (replicas in state {@code online}):
 * asked before the first durable write, again when a {@code WAIT} is not confirmed, and, while the master has none, at
 * most every {@link #RECHECK_NANOS} while durable writes keep coming, so a replica that connects is noticed by itself.
 * Confined to the context of the master's durable connection.
 */
final class ReplicaCheck {

    private static final Logger LOG = Logger.getLogger(ReplicaCheck.class);

    /** While the master has no replica: how often a durable write asks again. */
    static final long RECHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

    enum State {
        /** Not asked yet, or a {@code WAIT} was not confirmed: ask before the next group. */
        UNKNOWN,
        /** At least one replica was online when last asked. */
        CONNECTED,
        /** No replica was online when last asked: durable writes fail at once. */
        NONE
    }

    private final String endpoint;
    private final PipelinedConnection connection;
    /** The durable connection, whose context this check is confined to. */
    private final PipelinedConnection home;
    private final long budgetNanos;
    /** Written on the durable connection's context; read from any thread (where id-less messages go). */
    private volatile State state = State.UNKNOWN;
    private boolean asking;
    /** Told when the question under way is answered. */
    private final List<Runnable> waiting = new ArrayList<>();
    private long askedNanos;

    /**
     * @param connection a connection to the master, for {@code INFO} (not the durable one, where a {@code WAIT} may
     *        hold its place)
     * @param home the durable connection, on whose context the answers are applied
     */
    ReplicaCheck(String endpoint, PipelinedConnection connection, PipelinedConnection home, long budgetNanos) {
        this.endpoint = endpoint;
        this.connection = connection;
        this.home = home;
        this.budgetNanos = budgetNanos;
    }

    State state() {
        return state;
    }

    /** A {@code WAIT} was not confirmed by enough replicas: ask again before the next group. */
    void suspect() {
        if (state == State.CONNECTED) {
            state = State.UNKNOWN;
        }
    }

    /** While the master has no replica, asks again now and then; never delays the caller. */
    void recheckIfDue(Runnable onAnswer) {
        if (state == State.NONE && !asking && System.nanoTime() - askedNanos >= RECHECK_NANOS) {
            ask(onAnswer);
        }
    }

    /**
     * Asks the master (or joins the question under way); {@code onAnswer} runs on the durable connection's context
     * once the state is known again.
     */
    void ask(Runnable onAnswer) {
        waiting.add(onAnswer);
        if (asking) {
            return;
        }
        asking = true;
        askedNanos = System.nanoTime();
        Consumer<State> answered = next -> {
            asking = false;
            if (next != state) {
                LOG.debugf("Redis master %s: replicas %s", endpoint, next == State.NONE ? "none online"
                        : next == State.CONNECTED ? "online" : "unknown");
            }
            state = next;
            List<Runnable> callbacks = new ArrayList<>(waiting);
            waiting.clear();
            callbacks.forEach(Runnable::run);
        };
        connection.submit(new PendingRequest(Request.cmd(Command.INFO).arg("replication"), budgetNanos,
                response -> home.execute(() -> answered.accept(onlineReplicas(response.toString()) > 0
                        ? State.CONNECTED
                        : State.NONE)),
                // Not known: the next group asks again (and meanwhile is written and waited for, as before).
                failure -> home.execute(() -> answered.accept(State.UNKNOWN)), null));
    }

    /** The replicas in state {@code online} in an {@code INFO replication} answer. */
    static int onlineReplicas(String info) {
        int online = 0;
        for (String line : info.split("\r?\n")) {
            if (line.startsWith("slave") && line.indexOf(':') > 0 && line.contains("state=online")) {
                online++;
            }
        }
        return online;
    }
}
