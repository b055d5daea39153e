package io.quarkiverse.pacer.runtime.redis;

import java.time.Duration;
import java.util.List;

import jakarta.inject.Singleton;

import io.quarkiverse.pacer.runtime.config.PacerBuildTimeConfig;
import io.quarkus.arc.Arc;
import io.quarkus.arc.InstanceHandle;
import io.quarkus.redis.client.RedisClientName;
import io.smallrye.mutiny.Uni;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

/**
 * Pacer's single door to Redis: the Quarkus Redis client Pacer is configured to use
 * ({@code quarkus.pacer.redis-client-name}, else the default client), and script execution with {@code EVALSHA}.
 * <p>
 * Scripts run with {@code EVALSHA}; on {@code NOSCRIPT} (Redis restarted, failed over or ran {@code SCRIPT FLUSH}) the
 * same call is retried once with {@code EVAL}, which also caches the script again, so callers never see the error.
 */
@Singleton
public class PacerRedis {

    private final String clientName;
    private volatile Redis redis;

    PacerRedis(PacerBuildTimeConfig config) {
        this.clientName = config.redisClientName().orElse(null);
    }

    /**
     * The bare Vert.x Redis client, resolved lazily so an application that never calls Pacer does not need Redis.
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

    /**
     * Sends one command. The returned {@link Uni} is lazy: nothing is sent until subscription.
     */
    public Uni<Response> send(Request request) {
        return Uni.createFrom().emitter(emitter -> client().send(request).onComplete(ar -> {
            if (ar.succeeded()) {
                emitter.complete(ar.result());
            } else {
                emitter.fail(ar.cause());
            }
        }));
    }

    /**
     * Runs a script with {@code EVALSHA}, reloading it transparently on {@code NOSCRIPT}.
     *
     * @param script the script
     * @param keys the {@code KEYS} array
     * @param args the {@code ARGV} array
     */
    public Uni<Response> eval(LuaScript script, List<String> keys, List<String> args) {
        return send(scriptRequest(Command.EVALSHA, script.sha1(), keys, args))
                .onFailure(PacerRedis::isNoScript)
                .recoverWithUni(() -> send(scriptRequest(Command.EVAL, script.source(), keys, args)));
    }

    /**
     * Blocking form of {@link #eval(LuaScript, List, List)} for worker threads, bounded by {@code timeout}.
     */
    public Response evalAndAwait(LuaScript script, List<String> keys, List<String> args, Duration timeout) {
        return eval(script, keys, args).await().atMost(timeout);
    }

    /**
     * Runs a script, then {@code WAIT <replicas> <timeout>} right after it on the same connection, so the wait covers
     * the script's writes. Emits the script's response and the number of replicas that acknowledged them.
     */
    public Uni<ReplicatedResponse> evalAndWait(LuaScript script, List<String> keys, List<String> args, int replicas,
            Duration timeout) {
        Request wait = Request.cmd(Command.WAIT).arg(replicas).arg(timeout.toMillis());
        return batch(List.of(scriptRequest(Command.EVALSHA, script.sha1(), keys, args), wait))
                .onFailure(PacerRedis::mentionsNoScript)
                .recoverWithUni(() -> batch(List.of(scriptRequest(Command.EVAL, script.source(), keys, args), wait)))
                .map(responses -> new ReplicatedResponse(responses.get(0), responses.get(1).toInteger()));
    }

    /** A script's response and how many replicas acknowledged its writes. */
    public record ReplicatedResponse(Response response, int replicas) {
    }

    /** Sends requests back to back on one connection of the client (for Sentinel, the primary's). */
    private Uni<List<Response>> batch(List<Request> requests) {
        return Uni.createFrom().emitter(emitter -> client().connect().onComplete(connected -> {
            if (connected.failed()) {
                emitter.fail(connected.cause());
                return;
            }
            connected.result().batch(requests).onComplete(ar -> {
                connected.result().close();
                if (ar.succeeded()) {
                    emitter.complete(ar.result());
                } else {
                    emitter.fail(ar.cause());
                }
            });
        }));
    }

    /** A batch reports the failed command's error wrapped, so look through the causes. */
    private static boolean mentionsNoScript(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (String.valueOf(t.getMessage()).contains("NOSCRIPT")) {
                return true;
            }
        }
        return false;
    }

    static boolean isNoScript(Throwable failure) {
        String message = failure.getMessage();
        return message != null && message.startsWith("NOSCRIPT");
    }

    private static Request scriptRequest(Command command, String scriptOrSha, List<String> keys, List<String> args) {
        Request request = Request.cmd(command).arg(scriptOrSha).arg(keys.size());
        for (int i = 0; i < keys.size(); i++) {
            request.arg(keys.get(i));
        }
        for (int i = 0; i < args.size(); i++) {
            request.arg(args.get(i));
        }
        return request;
    }
}
