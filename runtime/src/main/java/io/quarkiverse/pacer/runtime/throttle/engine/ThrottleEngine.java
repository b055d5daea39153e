package io.quarkiverse.pacer.runtime.throttle.engine;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.enterprise.inject.Instance;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.quarkiverse.pacer.runtime.config.PacerConfig;
import io.quarkiverse.pacer.runtime.redis.Batchable;
import io.quarkiverse.pacer.runtime.redis.LuaScript;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.runtime.redis.RedisFailures;
import io.quarkiverse.pacer.runtime.throttle.fallback.RedisFallback;
import io.quarkiverse.pacer.runtime.throttle.policy.PolicyRegistry;
import io.quarkiverse.pacer.runtime.throttle.policy.ThrottlePolicy;
import io.quarkiverse.pacer.runtime.tracing.ThrottleTracing;
import io.quarkiverse.pacer.throttle.Algorithm;
import io.quarkiverse.pacer.throttle.CorruptedThrottleStateException;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.redis.client.Response;
import io.vertx.redis.client.ResponseType;

/**
 * Decides calls against policies with one round trip to Redis per decision. The reactive path ({@link #decide}) is
 * the real one; {@link #decideBlocking} awaits the same script call on the caller's (non event-loop) thread, bounded
 * by {@code quarkus.pacer.throttle.timeout}. When Redis fails or is too slow, {@link RedisFallback} decides.
 * <p>
 * Which policies are in force is {@link PolicyRegistry}' concern; this class only decides against them.
 */
@Singleton
public class ThrottleEngine {

    private static final Logger LOG = Logger.getLogger(ThrottleEngine.class);

    private final PacerRedis redis;
    private final Duration timeout;
    private final boolean headersOnSuccess;
    private final String tokenPrefix;
    private final AtomicLong tokens = new AtomicLong();
    private final RedisFallback fallback;
    /** Metrics when Micrometer is present, else {@link ThrottleObserver#NONE}. */
    private final ThrottleObserver observer;
    private final ThrottleResets resets;
    /** An event on the caller's span per decision when OpenTelemetry tracing is present, else nothing. */
    private final ThrottleTracing tracing;
    /** The local short-circuit of rejected keys, or {@code null} when it is off. */
    private final RejectionCache rejections;
    /** Switched off only by benchmarks comparing the short-circuit with plain decisions. */
    private volatile boolean shortCircuit = true;
    /** Switched off only by tests and benchmarks comparing the single-policy scripts with the general one. */
    private volatile boolean singlePolicyScripts = true;
    /** Loads the scripts at startup, and knows whether decisions may batch over several slots. */
    private final ThrottleWarmUp warmUp;

    ThrottleEngine(PacerRedis redis, PacerConfig config, ThrottleResets resets,
            ThrottleWarmUp warmUp, Instance<ThrottleObserver> observer, Instance<ThrottleTracing> tracing) {
        this.resets = resets;
        this.warmUp = warmUp;
        this.rejections = resets.cache();
        this.redis = redis;
        this.observer = observer.isResolvable() ? observer.get() : ThrottleObserver.NONE;
        this.tracing = tracing.isResolvable() ? tracing.get() : ThrottleTracing.NONE;
        this.timeout = config.throttle().timeout();
        this.headersOnSuccess = config.throttle().headersOnSuccess();
        this.fallback = new RedisFallback(config.throttle(), redis.clientDisplayName());
        byte[] random = new byte[6];
        new SecureRandom().nextBytes(random);
        this.tokenPrefix = HexFormat.of().formatHex(random) + ".";
    }

    /**
     * The script with every algorithm, for tests and benchmarks that call it directly; decisions run the lean script
     * of their stack ({@link ThrottleScripts}).
     */
    public LuaScript script() {
        return ThrottleScripts.ALL;
    }

    /** The script deciding policies of this one algorithm, for benchmarks that call it directly. */
    public LuaScript script(Algorithm algorithm) {
        return ThrottleScripts.of(EnumSet.of(algorithm));
    }

    /**
     * The single-policy script of an algorithm (an acquire against a stack of one policy), or {@code null} when the
     * algorithm has none; for benchmarks that call it directly.
     */
    public LuaScript singlePolicyScript(Algorithm algorithm) {
        return ThrottleScripts.singlePolicy(algorithm);
    }

    /**
     * Sends an acquire against one policy as its algorithm's single-policy script (on, the default) or as the general
     * script; for tests and benchmarks comparing both. Both decide alike.
     */
    public void singlePolicyScripts(boolean on) {
        singlePolicyScripts = on;
    }

    /**
     * Turns the local short-circuit of rejected keys on or off at runtime (it stays off when
     * {@code quarkus.pacer.throttle.local-rejections.enabled=false}); for benchmarks comparing both. Off, every call
     * asks Redis and nothing is cached.
     */
    public void shortCircuit(boolean on) {
        shortCircuit = on;
        if (!on && rejections != null) {
            rejections.clear();
        }
    }

    public Duration timeout() {
        return timeout;
    }

    /** Whether permitted calls of REST endpoints answer with {@code RateLimit} headers. */
    public boolean headersOnSuccess() {
        return headersOnSuccess;
    }

    /** Decisions (acquire, peek) made without Redis since startup, by {@code on-redis-failure}. */
    public long fallbackDecisions() {
        return fallback.decisions();
    }

    // ---- decisions

    /** Decides ({@link ThrottleMode#ACQUIRE} or {@link ThrottleMode#PEEK}) without blocking. */
    public Uni<ThrottleOutcome> decide(DecisionStack stack, String key, ThrottleMode mode) {
        return mode == ThrottleMode.ACQUIRE ? tracing.deciding(decideUntraced(stack, key, mode))
                : decideUntraced(stack, key, mode);
    }

    private Uni<ThrottleOutcome> decideUntraced(DecisionStack stack, String key, ThrottleMode mode) {
        if (stack.blocked) {
            return Uni.createFrom().item(() -> blocked(stack, key, mode));
        }
        if (rejections == null || mode != ThrottleMode.ACQUIRE) {
            return decideInRedis(stack, key, mode);
        }
        // At subscription, like the decision itself: a Uni subscribed later (or again) must not reuse a stale answer.
        return Uni.createFrom().deferred(() -> {
            ThrottleOutcome rejected = rejectLocally(stack, key, mode);
            return rejected != null ? Uni.createFrom().item(rejected) : decideInRedis(stack, key, mode);
        });
    }

    private Uni<ThrottleOutcome> decideInRedis(DecisionStack stack, String key, ThrottleMode mode) {
        String token = stack.needsToken ? nextToken() : null;
        long start = System.nanoTime();
        long generation = rejections == null ? 0 : rejections.generation();
        return outcome(evaluate(stack, key, mode, token), stack, key, mode, token, start, generation);
    }

    /** The decision of a script call: repaired and made again on a data error, decided by fallback on an outage. */
    private Uni<ThrottleOutcome> outcome(Uni<Response> evaluated, DecisionStack stack, String key, ThrottleMode mode,
            String token, long start, long generation) {
        return evaluated
                .onFailure(RedisFailures::isDataError).recoverWithUni(failure -> repairAndRetry(stack, key, mode, token,
                        failure))
                .map(response -> succeeded(stack, key, token, response, start, mode, generation))
                .onFailure(failure -> !(failure instanceof CorruptedThrottleStateException))
                .recoverWithItem(failure -> failed(stack, key, token, failure, start, mode));
    }

    private Uni<Response> evaluate(DecisionStack stack, String key, ThrottleMode mode, String token) {
        List<String> keys = stack.keys(key);
        ScriptCall call = scriptCall(stack, keys, mode, token);
        // Decided on the caller's event loop when it is on one: no hand-over to Pacer's threads and back.
        return redis.evalOnCallerLoop(call.script(), keys, call.args(), timeout, call.part());
    }

    /** The script a decision runs, its ARGV, and how it goes when queued behind others ({@code null}: alone). */
    private record ScriptCall(LuaScript script, List<String> args, Batchable part) {
    }

    /**
     * An acquire against a single-policy stack runs its algorithm's single-policy script (unless switched off); every
     * other decision the stack's general script.
     */
    private ScriptCall scriptCall(DecisionStack stack, List<String> keys, ThrottleMode mode, String token) {
        SinglePolicyCall single = mode == ThrottleMode.ACQUIRE && singlePolicyScripts ? stack.single : null;
        if (single != null) {
            List<String> args = single.args(token);
            return new ScriptCall(single.script, args, singleBatchPart(stack, single, keys, args, token));
        }
        List<String> args = stack.args(mode, token);
        return new ScriptCall(stack.script, args, batchPart(stack, mode, keys, args));
    }

    /**
     * How a single-policy acquire queued behind others goes: in its algorithm's single-policy batch script; where
     * batches span slots (Redis Cluster), in the general batch script.
     */
    private Batchable singleBatchPart(DecisionStack stack, SinglePolicyCall single, List<String> keys,
            List<String> args, String token) {
        return warmUp.crossSlotBatches()
                ? ThrottleBatchPart.crossSlot(stack, keys, stack.args(ThrottleMode.ACQUIRE, token))
                : single.batchPart(redis.batchSlot(keys.get(0)), keys.get(0), args);
    }

    /** Acquire and peek decisions may be batched with others queued behind them; releases and resets go alone. */
    private ThrottleBatchPart batchPart(DecisionStack stack, ThrottleMode mode, List<String> keys, List<String> args) {
        if (mode != ThrottleMode.ACQUIRE && mode != ThrottleMode.PEEK) {
            return null;
        }
        return warmUp.crossSlotBatches() ? ThrottleBatchPart.crossSlot(stack, keys, args)
                : ThrottleBatchPart.inSlot(stack, redis.batchSlot(keys.get(0)), keys, args);
    }

    /**
     * The state of a key cannot be read by the script (a foreign value under Pacer's key, a wrong type): it carries no
     * valid decision, so it is deleted and the decision made once more, never admitted by fallback.
     */
    private Uni<Response> repairAndRetry(DecisionStack stack, String key, ThrottleMode mode, String token,
            Throwable failure) {
        List<String> keys = stack.keys(key);
        LOG.warnf("Pacer deletes the throttling state under Redis key(s) %s: the script cannot read it (%s)", keys,
                failure.getMessage());
        return redis.eval(stack.script, keys, stack.args(ThrottleMode.RESET, null), timeout)
                .chain(() -> evaluate(stack, key, mode, token))
                .onFailure(RedisFailures::isDataError).transform(again -> new CorruptedThrottleStateException(
                        "Pacer cannot decide the call on Redis key(s) " + keys + ": the script fails on their state even"
                                + " after deleting it (" + again.getMessage() + "); check what else writes under the"
                                + " key prefix quarkus.pacer.key-prefix",
                        again));
    }

    /**
     * Decides on a thread that may block (never an event-loop thread). Each round trip to Redis is bounded by the time
     * budget (counted from the moment it is sent), so the wait is bounded too.
     */
    public ThrottleOutcome decideBlocking(DecisionStack stack, String key, ThrottleMode mode) {
        ThrottleOutcome outcome = decideBlockingUntraced(stack, key, mode);
        if (mode == ThrottleMode.ACQUIRE) {
            tracing.decided(outcome);
        }
        return outcome;
    }

    private ThrottleOutcome decideBlockingUntraced(DecisionStack stack, String key, ThrottleMode mode) {
        if (stack.blocked) {
            return blocked(stack, key, mode);
        }
        ThrottleOutcome rejected = rejectLocally(stack, key, mode);
        if (rejected != null) {
            return rejected;
        }
        String token = stack.needsToken ? nextToken() : null;
        long start = System.nanoTime();
        long generation = rejections == null ? 0 : rejections.generation();
        // The same decision as decideInRedis, waited for on a plain future: a chain of Mutiny operators would capture
        // and restore the caller's context at every step, a seventh of the CPU of a decision (see the Performance page).
        Response response;
        try {
            List<String> keys = stack.keys(key);
            ScriptCall call = scriptCall(stack, keys, mode, token);
            response = redis.evalFuture(call.script(), keys, call.args(), timeout, call.part()).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CompletionException(e);
        } catch (ExecutionException e) {
            // Rare (an outage, a corrupted key): the reactive path's handling, so both paths decide failures alike.
            return outcome(Uni.createFrom().failure(e.getCause()), stack, key, mode, token, start, generation).await()
                    .indefinitely();
        }
        try {
            return succeeded(stack, key, token, response, start, mode, generation);
        } catch (RuntimeException e) {
            return failed(stack, key, token, e, start, mode);
        }
    }

    /** The rejection of a key a resolver blocked outright: Redis is not asked. */
    private ThrottleOutcome blocked(DecisionStack stack, String key, ThrottleMode mode) {
        ThrottleOutcome rejected = ThrottleOutcome.blocked(stack, key);
        if (mode == ThrottleMode.ACQUIRE) {
            count(rejected);
            observer.decided(rejected, 0);
        }
        return rejected;
    }

    /** The local short-circuit: a rejection Redis gave earlier that still holds, or {@code null}. */
    private ThrottleOutcome rejectLocally(DecisionStack stack, String key, ThrottleMode mode) {
        if (rejections == null || mode != ThrottleMode.ACQUIRE || !shortCircuit) {
            return null;
        }
        ThrottleOutcome rejected = rejections.rejectLocally(stack, key);
        if (rejected != null) {
            count(rejected);
            observer.decided(rejected, 0);
        }
        return rejected;
    }

    /**
     * Ends the leases a permitted call took on its {@code CONCURRENCY} policies; fire and forget. Also after a
     * fallback: an acquire that timed out on this side may still have run in Redis, and its leases carry this call's
     * token, so releasing them by that token is always safe.
     */
    public void release(ThrottleOutcome outcome) {
        DecisionStack stack = outcome.stack();
        if (!stack.holdsLeases || outcome.token() == null) {
            return;
        }
        if (outcome.fallback()) {
            fallback.release(outcome);
        }
        releaseInRedis(outcome);
    }

    private void releaseInRedis(ThrottleOutcome outcome) {
        DecisionStack stack = outcome.stack();
        redis.eval(stack.script, stack.keys(outcome.key()), stack.args(ThrottleMode.RELEASE, outcome.token()), timeout)
                .subscribe().with(ignored -> {
                }, failure -> LOG.debugf(failure,
                        "Could not release concurrency leases for key %s; they expire by themselves", outcome.key()));
    }

    /**
     * Deletes the state of every policy of the stack for a key, then tells every instance to forget its local
     * rejection of it ({@link ThrottleResets}).
     */
    public Uni<Void> reset(DecisionStack stack, String key) {
        return redis.eval(stack.script, stack.keys(key), stack.args(ThrottleMode.RESET, null), timeout)
                .chain(() -> resets.publish(stack, key));
    }

    private ThrottleOutcome succeeded(DecisionStack stack, String key, String token, Response response, long start,
            ThrottleMode mode, long generation) {
        int size = stack.policies.length;
        long[] values;
        boolean allowed;
        if (response.type() == ResponseType.MULTI) {
            values = new long[4 * size];
            for (int i = 0; i < values.length; i++) {
                values[i] = response.get(i + 1).toLong();
            }
            allowed = response.get(0).toInteger() == 1;
        } else {
            // The reply of a single-policy script (a number or a string): the decision went alone.
            values = stack.single.values(response);
            allowed = stack.single.allowed(values);
        }
        fallback.redisAnswered(stack, key);
        ThrottleOutcome outcome = new ThrottleOutcome(stack, key, token, allowed, values, false);
        if (stack.holdsLeases && response.size() >= 1 + values.length + size) {
            long[] fences = new long[size];
            for (int i = 0; i < size; i++) {
                fences[i] = response.get(1 + values.length + i).toLong();
            }
            outcome.fencingTokens(fences);
        }
        if (mode == ThrottleMode.ACQUIRE) {
            long now = System.nanoTime();
            if (!outcome.allowed() && rejections != null && shortCircuit) {
                rejections.remember(outcome, generation, now);
            }
            count(outcome);
            observer.decided(outcome, now - start);
        }
        return outcome;
    }

    private ThrottleOutcome failed(DecisionStack stack, String key, String token, Throwable failure, long start,
            ThrottleMode mode) {
        ThrottleOutcome outcome = fallback.decide(stack, key, token, failure, mode == ThrottleMode.ACQUIRE);
        if (mode == ThrottleMode.ACQUIRE) {
            count(outcome);
            observer.decided(outcome, System.nanoTime() - start);
            if (!outcome.allowed() && stack.holdsLeases && token != null) {
                // The call will not run, but the acquire may have taken leases in Redis after all.
                releaseInRedis(outcome);
            }
        }
        return outcome;
    }

    private static void count(ThrottleOutcome outcome) {
        ThrottlePolicy[] stacked = outcome.stack().policies;
        for (int i = 0; i < stacked.length; i++) {
            stacked[i].counts.record(outcome, i);
        }
    }

    private String nextToken() {
        return tokenPrefix + Long.toString(tokens.incrementAndGet(), 36);
    }

    /** Rejects blocking use from an event-loop thread, where waiting for Redis would stall every other request. */
    public static void checkMayBlock(String what) {
        if (Context.isOnEventLoopThread()) {
            throw new IllegalStateException(what + " blocks while Redis decides, and was called on a Vert.x event-loop"
                    + " thread, which must never block: return Uni or CompletionStage, use ReactiveThrottler, or run"
                    + " the caller on a worker thread (@Blocking) or a virtual thread (@RunOnVirtualThread)");
        }
    }
}
