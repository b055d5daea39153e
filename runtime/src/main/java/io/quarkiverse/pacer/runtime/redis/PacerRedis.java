package io.quarkiverse.pacer.runtime.redis;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;

import io.quarkiverse.pacer.delay.RedisTimeoutException;
import io.quarkiverse.pacer.delay.RedisUnavailableException;
import io.quarkiverse.pacer.runtime.config.PacerBuildTimeConfig;
import io.quarkiverse.pacer.runtime.config.PacerConfig;
import io.quarkiverse.pacer.runtime.config.RedisTransportConfig;
import io.quarkus.arc.Arc;
import io.quarkus.arc.InstanceHandle;
import io.quarkus.redis.client.RedisClientName;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

/**
 * Pacer's single door to Redis: the Quarkus Redis client Pacer is configured to use
 * ({@code quarkus.pacer.redis-client-name}, else the default client), reached over Pacer's own long-lived, pipelined
 * connections ({@link PipelinedConnection}, {@code quarkus.pacer.redis.*}).
 * <p>
 * Every request has a time budget counted from the moment it is written to Redis; it fails with
 * {@link RedisTimeoutException} when Redis does not answer within it, with {@link RedisUnavailableException} when Redis
 * cannot be reached, and with Redis's own error when Redis answers with one. Client-side load alone never fails a
 * request.
 * <p>
 * On Redis Cluster ({@code quarkus.redis.client-type=cluster}) Pacer routes each request to the master of its key's
 * slot itself, over connections of its own per master, so one unreachable master stops only the requests of its slots
 * ({@link PacerConnections}).
 * <p>
 * Scripts run with {@code EVALSHA}; on {@code NOSCRIPT} (Redis restarted, failed over or ran {@code SCRIPT FLUSH}) the
 * same call is retried once with {@code EVAL}, which also caches the script again, so callers never see the error.
 */
@Singleton
public class PacerRedis {

    private final String clientName;
    private final RedisTransportConfig transport;
    private final PacerConnections connections;
    private volatile Redis redis;

    PacerRedis(PacerBuildTimeConfig config, PacerConfig runtimeConfig, Vertx vertx) {
        this.clientName = config.redisClientName().orElse(null);
        this.transport = runtimeConfig.redis();
        this.connections = new PacerConnections(clientName, clientDisplayName(), transport, vertx, this::client);
    }

    /**
     * The bare Vert.x Redis client, resolved lazily so an application that never calls Pacer does not need Redis.
     * For connections of their own (pub/sub, see {@link #connectForSubscription()}); requests go through
     * {@link #send(Request)} and {@link #eval(LuaScript, List, List)}.
     */
    public Redis client() {
        Redis current = redis;
        if (current == null) {
            InstanceHandle<Redis> handle = clientName == null
                    ? Arc.container().instance(Redis.class)
                    : Arc.container().instance(Redis.class, RedisClientName.Literal.of(clientName));
            current = handle.get();
            redis = current;
        }
        return current;
    }

    /**
     * The name of the Redis client in use, for messages: {@code <default>} or the configured name.
     */
    public String clientDisplayName() {
        return clientName == null ? "<default>" : clientName;
    }

    /** The default time budget of a request ({@code quarkus.pacer.redis.timeout}). */
    public Duration timeout() {
        return transport.timeout();
    }

    /** Whether Pacer routes its requests by slot itself (the configured client is a Redis Cluster client). */
    public boolean routesBySlot() {
        return connections.routesBySlot();
    }

    /**
     * Sends one keyless command ({@code PING}, {@code TIME}, {@code PUBLISH} ...) within the default time budget. On
     * Redis Cluster it goes to any reachable master (a keyed command still reaches its key's master, through a
     * {@code MOVED} redirection). The returned {@link Uni} is lazy: nothing is sent until subscription.
     */
    public Uni<Response> send(Request request) {
        return send(request, transport.timeout());
    }

    /**
     * Sends one keyless command like {@link #send(Request)}; it fails when Redis has not answered {@code budget} after
     * the command was written.
     */
    public Uni<Response> send(Request request, Duration budget) {
        return send(null, request, budget);
    }

    /**
     * The number of nodes a command whose answer is per node ({@code SCAN}) must visit: the masters of a Redis
     * Cluster (as last known), else 1. See {@link #sendToNode(int, Request)}.
     */
    public int nodes() {
        return connections.nodes();
    }

    /**
     * Sends a keyless command to node {@code index} (of {@link #nodes()}, masters in slot order) within the default
     * time budget; with one node, or when the cluster has fewer masters by now, like {@link #send(Request)}.
     */
    public Uni<Response> sendToNode(int index, Request request) {
        return submitted(request, transport.timeout(), pending -> connections.submitToNode(index, pending));
    }

    /**
     * Sends a command whose effect is per node ({@code SCRIPT LOAD}) to every master on Redis Cluster, else once.
     * Emits every answer; fails with the first failure.
     */
    public Uni<List<Response>> sendToEveryMaster(Request request, Duration budget) {
        return Uni.createFrom().completionStage(() -> connections.submitToEveryMaster(request, budget.toNanos()));
    }

    /**
     * Runs a script with {@code EVALSHA} within the default time budget, reloading it transparently on
     * {@code NOSCRIPT}. On Redis Cluster it goes to the master of the first key's slot (all keys of a Pacer script
     * share one hash tag).
     *
     * @param script the script
     * @param keys the {@code KEYS} array
     * @param args the {@code ARGV} array
     */
    public Uni<Response> eval(LuaScript script, List<String> keys, List<String> args) {
        return eval(script, keys, args, transport.timeout());
    }

    /**
     * Runs a script with {@code EVALSHA}, reloading it transparently on {@code NOSCRIPT}; each round trip has the
     * time budget {@code budget}.
     */
    public Uni<Response> eval(LuaScript script, List<String> keys, List<String> args, Duration budget) {
        return eval(script, keys, args, budget, null);
    }

    /**
     * Runs a script like {@link #eval(LuaScript, List, List, Duration)}; while calls of {@code batchable}'s group are in
     * flight, it waits and goes in one call with the others of its group ({@link Batchable}).
     */
    public Uni<Response> eval(LuaScript script, List<String> keys, List<String> args, Duration budget,
            Batchable batchable) {
        return eval(script, keys, args, budget, batchable, false);
    }

    /**
     * Runs a script like {@link #eval(LuaScript, List, List, Duration, Batchable)}, for a caller waiting for the answer
     * on its event loop (a throttling decision). Subscribed on one of the application's event loops (on Standalone and
     * Sentinel, with {@code quarkus.pacer.redis.event-loop-connections}), it goes on a connection of Pacer's on that same
     * event loop: written, read and answered on the caller's thread, with no hand-over to another thread.
     */
    public Uni<Response> evalOnCallerLoop(LuaScript script, List<String> keys, List<String> args, Duration budget,
            Batchable batchable) {
        return eval(script, keys, args, budget, batchable, true);
    }

    private Uni<Response> eval(LuaScript script, List<String> keys, List<String> args, Duration budget,
            Batchable batchable, boolean onCallerLoop) {
        String routingKey = routingKey(keys);
        LuaScript sent = script.toSend();
        return submitted(scriptRequest(sent, false, keys, args), budget,
                pending -> connections.submit(routingKey, pending.batchable(batchable).onCallerLoop(onCallerLoop)))
                .onFailure(PacerRedis::isNoScript)
                .recoverWithUni(() -> send(routingKey, scriptRequest(sent, true, keys, args), budget));
    }

    /**
     * Runs a script like {@link #eval(LuaScript, List, List, Duration)}, for a caller that blocks on the answer (never
     * an event-loop thread): the future is completed on Pacer's connection thread, without the Mutiny operators, and
     * the context propagation each of them carries, that a {@link Uni} chain costs per call.
     */
    public CompletableFuture<Response> evalFuture(LuaScript script, List<String> keys, List<String> args,
            Duration budget) {
        return evalFuture(script, keys, args, budget, null);
    }

    /**
     * Runs a script like {@link #evalFuture(LuaScript, List, List, Duration)}; while calls of {@code batchable}'s group
     * are in flight, it waits and goes in one call with the others of its group ({@link Batchable}).
     */
    public CompletableFuture<Response> evalFuture(LuaScript script, List<String> keys, List<String> args,
            Duration budget, Batchable batchable) {
        String routingKey = routingKey(keys);
        LuaScript sent = script.toSend();
        return sendFuture(routingKey, scriptRequest(sent, false, keys, args), budget, batchable)
                .exceptionallyCompose(failure -> isNoScript(failure)
                        ? sendFuture(routingKey, scriptRequest(sent, true, keys, args), budget, null)
                        : CompletableFuture.failedFuture(failure));
    }

    private CompletableFuture<Response> sendFuture(String routingKey, Request request, Duration budget,
            Batchable batchable) {
        CompletableFuture<Response> future = new CompletableFuture<>();
        connections.submit(routingKey, new PendingRequest(request, budget.toNanos(), future::complete,
                future::completeExceptionally, null).batchable(batchable));
        return future;
    }

    /**
     * Runs a script, then {@code WAIT <replicas> <timeout>} after it on the same connection, so the wait covers the
     * script's writes; the durable writes that reach a master together share one {@code WAIT}. A master known to have
     * no connected replica fails the call at once with {@link NoReplicaException}, before the script is written. Emits the
     * script's response and the number of replicas that acknowledged them; when the
     * script ran but {@code WAIT} failed (the connection or the node was lost before it answered), emits the
     * response with no replica and the {@code WAIT}'s failure: the write is stored but not confirmed.
     * <p>
     * Both go over a connection of their own (on Redis Cluster: of the master of the first key's slot): {@code WAIT}
     * holds its connection until the replicas answer, which must never stall the decisions and queue operations
     * pipelined on Pacer's other connections. The scripts of {@code batchable}'s group ({@code null}: none) that share
     * the {@code WAIT} go in one call.
     */
    public Uni<ReplicatedResponse> evalAndWait(LuaScript script, List<String> keys, List<String> args, int replicas,
            Duration timeout, Batchable batchable) {
        Duration budget = transport.timeout().plus(timeout);
        LuaScript sent = script.toSend();
        return scriptThenWait(sent, false, keys, args, replicas, timeout, budget, batchable)
                .onFailure(PacerRedis::isNoScript)
                .recoverWithUni(() -> scriptThenWait(sent, true, keys, args, replicas, timeout, budget, null));
    }

    private Uni<ReplicatedResponse> scriptThenWait(LuaScript script, boolean source, List<String> keys,
            List<String> args, int replicas, Duration timeout, Duration budget, Batchable batchable) {
        return Uni.createFrom().emitter(emitter -> {
            Context caller = Context.isOnEventLoopThread() ? Vertx.currentContext() : null;
            PendingRequest[] sent = submitScriptThenWait(script, source, keys, args, replicas, timeout, budget,
                    batchable, caller, emitter::complete, emitter::fail);
            emitter.onTermination(() -> {
                sent[0].cancel();
                sent[1].cancel();
            });
        });
    }

    /**
     * {@link #evalAndWait(LuaScript, List, List, int, Duration, Batchable)} for a caller that blocks on the answer
     * (never an event-loop thread): completed on Pacer's connection thread, without a {@link Uni} chain.
     */
    public CompletableFuture<ReplicatedResponse> evalAndWaitFuture(LuaScript script, List<String> keys,
            List<String> args, int replicas, Duration timeout, Batchable batchable) {
        Duration budget = transport.timeout().plus(timeout);
        LuaScript sent = script.toSend();
        return scriptThenWaitFuture(sent, false, keys, args, replicas, timeout, budget, batchable)
                .exceptionallyCompose(failure -> isNoScript(failure)
                        ? scriptThenWaitFuture(sent, true, keys, args, replicas, timeout, budget, null)
                        : CompletableFuture.failedFuture(failure));
    }

    private CompletableFuture<ReplicatedResponse> scriptThenWaitFuture(LuaScript script, boolean source,
            List<String> keys, List<String> args, int replicas, Duration timeout, Duration budget,
            Batchable batchable) {
        CompletableFuture<ReplicatedResponse> future = new CompletableFuture<>();
        submitScriptThenWait(script, source, keys, args, replicas, timeout, budget, batchable, null, future::complete,
                future::completeExceptionally);
        return future;
    }

    /**
     * Submits a script and the {@code WAIT} covering it; {@code onDone} gets the script's response with the number of
     * replicas that acknowledged it (0 and the {@code WAIT}'s failure when the script ran but the {@code WAIT} failed),
     * {@code onFailure} the script's failure. Returns both requests, to cancel them.
     */
    private PendingRequest[] submitScriptThenWait(LuaScript script, boolean source, List<String> keys,
            List<String> args, int replicas, Duration timeout, Duration budget, Batchable batchable, Context caller,
            Consumer<ReplicatedResponse> onDone, Consumer<Throwable> onFailure) {
        long budgetNanos = budget.toNanos();
        Request scriptRequest = scriptRequest(script, source, keys, args);
        // Both answers come on one thread (the caller's context or the connection's), the script's first.
        Response[] stored = new Response[1];
        PendingRequest written = new PendingRequest(scriptRequest, budgetNanos, response -> stored[0] = response,
                onFailure, caller).batchable(batchable);
        // Only told of the WAIT that covers the script: the group commit sends one WAIT for many scripts.
        PendingRequest wait = new PendingRequest(null, budgetNanos,
                acknowledged -> onDone.accept(new ReplicatedResponse(stored[0], acknowledged.toInteger(), null)),
                failure -> {
                    if (stored[0] != null) {
                        onDone.accept(new ReplicatedResponse(stored[0], 0, failure));
                    } else {
                        onFailure.accept(failure);
                    }
                }, caller);
        connections.submitDurable(routingKey(keys), written, wait, replicas, timeout.toMillis());
        return new PendingRequest[] { written, wait };
    }

    /**
     * Whether a durable write ({@link #evalAndWait}) with {@code keys} is known to fail at once, unwritten, because the
     * master it goes to has no connected replica (as last found out; {@code false} when not known).
     */
    public boolean knownWithoutReplica(List<String> keys) {
        return connections.knownWithoutReplica(routingKey(keys));
    }

    /**
     * A script's response and how many replicas acknowledged its writes.
     *
     * @param waitFailure why {@code WAIT} did not answer after the script ran, or {@code null}
     */
    public record ReplicatedResponse(Response response, int replicas, Throwable waitFailure) {
    }

    /**
     * Opens a connection for pub/sub. On Redis Cluster it is a connection to one master, trying the masters in turn
     * (messages are broadcast to every node), so the loss of one node costs only a reconnect; else a connection of the
     * application's client.
     */
    public Future<RedisConnection> connectForSubscription() {
        return connections.connectForSubscription();
    }

    private Uni<Response> send(String routingKey, Request request, Duration budget) {
        return submitted(request, budget, pending -> connections.submit(routingKey, pending));
    }

    /** A lazy {@link Uni} of one request, handed to {@code submit} on subscription; answered on the caller's loop. */
    private static Uni<Response> submitted(Request request, Duration budget, Consumer<PendingRequest> submit) {
        long budgetNanos = budget.toNanos();
        return Uni.createFrom().emitter(emitter -> {
            Context caller = Context.isOnEventLoopThread() ? Vertx.currentContext() : null;
            PendingRequest pending = new PendingRequest(request, budgetNanos, emitter::complete, emitter::fail, caller);
            emitter.onTermination(pending::cancel);
            submit.accept(pending);
        });
    }

    private static String routingKey(List<String> keys) {
        return keys.isEmpty() ? null : keys.get(0);
    }

    static boolean isNoScript(Throwable failure) {
        String message = failure.getMessage();
        return message != null && message.startsWith("NOSCRIPT");
    }

    @PreDestroy
    void close() {
        connections.close();
    }

    /** The slot of {@code key} when requests are routed by slot (Redis Cluster), else 0: a batch lies in one slot. */
    public int batchSlot(String key) {
        return connections.routesBySlot() ? ClusterSlots.slot(key) : 0;
    }

    /**
     * {@code EVALSHA} of {@code script} (the one {@link LuaScript#toSend()} returned), or with {@code source}, {@code EVAL}.
     */
    static Request scriptRequest(LuaScript script, boolean source, List<String> keys, List<String> args) {
        Request request = script.command(source).arg(keys.size());
        EncodedArgs.append(request, keys);
        EncodedArgs.append(request, args);
        return script.appendClockArgument(request);
    }
}
