package io.quarkiverse.pacer.runtime.throttle;

import java.lang.reflect.Method;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.quarkiverse.pacer.runtime.config.PacerConfig;
import io.quarkiverse.pacer.runtime.config.ThrottleRuntimeConfig;
import io.quarkiverse.pacer.runtime.config.ThrottleRuntimeConfig.OnRedisFailure;
import io.quarkiverse.pacer.runtime.config.ThrottleRuntimeConfig.PolicyConfig;
import io.quarkiverse.pacer.runtime.redis.LuaScript;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.runtime.redis.RedisFailures;
import io.quarkiverse.pacer.throttle.Algorithm;
import io.quarkiverse.pacer.throttle.ThrottleKeyResolver;
import io.quarkus.arc.Arc;
import io.quarkus.arc.InstanceHandle;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.runtime.configuration.ConfigurationException;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

/**
 * Decides calls against policies with one round trip to Redis per decision. The reactive path ({@link #decide}) is
 * the real one; {@link #decideBlocking} awaits the same script call on the caller's (non event-loop) thread, bounded
 * by {@code quarkus.pacer.throttle.timeout}. When Redis fails or is too slow the decision follows
 * {@code quarkus.pacer.throttle.on-redis-failure}.
 * <p>
 * At startup the build-time definitions are combined with configuration overrides; an invalid override fails startup
 * naming the property.
 */
@Singleton
public class ThrottleEngine {

    private static final Logger LOG = Logger.getLogger(ThrottleEngine.class);

    private static final Duration WARM_UP_TIMEOUT = Duration.ofSeconds(2);

    /** Retry-after of a decision rejected because Redis was unavailable. */
    private static final long FALLBACK_RETRY_MICROS = 1_000_000;

    private final PacerRedis redis;
    private final PacerConfig config;
    private final ThrottleDefinitions definitions;
    private final Duration timeout;
    private final boolean allowOnFailure;
    private final boolean headersOnSuccess;
    private final String tokenPrefix;
    private final AtomicLong tokens = new AtomicLong();
    private final RedisOutageLog outageLog;
    private final LongAdder fallbackDecisions = new LongAdder();
    /** The in-memory limiter of {@code on-redis-failure=local}, else {@code null}. */
    private final LocalLimiter local;
    private final ConcurrentHashMap<Method, Object> methods = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, ThrottleStack> singlePolicyStacks = new ConcurrentHashMap<>();
    private volatile Map<String, ThrottlePolicy> policies;
    private volatile Map<String, MethodDefinition> methodDefinitions;
    private volatile ThrottleObserver observer = ThrottleObserver.NONE;
    private final ThrottleResets resets;
    /** The local short-circuit of rejected keys, or {@code null} when it is off. */
    private final RejectionCache rejections;
    /** Switched off only by benchmarks comparing the short-circuit with plain decisions. */
    private volatile boolean shortCircuit = true;

    ThrottleEngine(PacerRedis redis, PacerConfig config, ThrottleDefinitions definitions, ThrottleResets resets) {
        this.resets = resets;
        this.rejections = resets.cache();
        this.redis = redis;
        this.config = config;
        this.definitions = definitions;
        this.timeout = config.throttle().timeout();
        this.headersOnSuccess = config.throttle().headersOnSuccess();
        OnRedisFailure onFailure = config.throttle().onRedisFailure();
        this.allowOnFailure = onFailure == OnRedisFailure.ALLOW;
        this.local = onFailure == OnRedisFailure.LOCAL ? new LocalLimiter(config.throttle().expectedInstances()) : null;
        this.outageLog = new RedisOutageLog(LOG, redis.clientDisplayName(), switch (onFailure) {
            case ALLOW -> "allowed";
            case REJECT -> "rejected";
            case LOCAL -> "decided in memory by each instance";
        });
        byte[] random = new byte[6];
        new SecureRandom().nextBytes(random);
        this.tokenPrefix = HexFormat.of().formatHex(random) + ".";
    }

    /** Resolves the policies at startup, so invalid configuration fails the application before it serves anything. */
    void onStart(@Observes @Priority(10) StartupEvent event) {
        if (!policies().isEmpty()) {
            warmUp();
            resets.start();
        }
    }

    /**
     * Opens the connection and loads the script before the first decision, so the first call does not pay for both
     * inside its time budget. Bounded: an unreachable Redis delays startup by at most {@link #WARM_UP_TIMEOUT}.
     */
    private void warmUp() {
        try {
            for (LuaScript script : scriptsInUse()) {
                redis.send(Request.cmd(Command.SCRIPT).arg("LOAD").arg(script.source()), WARM_UP_TIMEOUT).await()
                        .atMost(WARM_UP_TIMEOUT.multipliedBy(2));
            }
        } catch (RuntimeException e) {
            LOG.warnf("Pacer could not load its throttling script into Redis (client %s) at startup: %s",
                    redis.clientDisplayName(), e.toString());
        }
    }

    /**
     * The scripts of the annotated stacks and of each policy alone (programmatic API), and the one with every
     * algorithm (for other clients speaking the script's protocol), in a stable order.
     */
    private Collection<LuaScript> scriptsInUse() {
        Map<String, LuaScript> scripts = new TreeMap<>();
        scripts.put(ThrottleScripts.ALL.name(), ThrottleScripts.ALL);
        for (ThrottlePolicy policy : policies.values()) {
            LuaScript script = ThrottleScripts.of(EnumSet.of(policy.algorithm));
            scripts.put(script.name(), script);
        }
        for (MethodDefinition method : methodDefinitions.values()) {
            EnumSet<Algorithm> algorithms = EnumSet.noneOf(Algorithm.class);
            for (String name : method.getPolicies()) {
                ThrottlePolicy policy = policies.get(name);
                if (policy != null && policy.enabled) {
                    algorithms.add(policy.algorithm);
                }
            }
            if (!algorithms.isEmpty()) {
                LuaScript script = ThrottleScripts.of(algorithms);
                scripts.put(script.name(), script);
            }
        }
        return scripts.values();
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
    boolean headersOnSuccess() {
        return headersOnSuccess;
    }

    /** Decisions (acquire, peek) made without Redis since startup, by {@code on-redis-failure}. */
    public long fallbackDecisions() {
        return fallbackDecisions.sum();
    }

    void setObserver(ThrottleObserver observer) {
        this.observer = observer;
    }

    // ---- decisions

    /** Decides (mode {@link ThrottleStack#ACQUIRE} or {@link ThrottleStack#PEEK}) without blocking. */
    public Uni<ThrottleOutcome> decide(ThrottleStack stack, String key, int mode) {
        if (rejections == null || mode != ThrottleStack.ACQUIRE) {
            return decideInRedis(stack, key, mode);
        }
        // At subscription, like the decision itself: a Uni subscribed later (or again) must not reuse a stale answer.
        return Uni.createFrom().deferred(() -> {
            ThrottleOutcome rejected = rejectLocally(stack, key, mode);
            return rejected != null ? Uni.createFrom().item(rejected) : decideInRedis(stack, key, mode);
        });
    }

    private Uni<ThrottleOutcome> decideInRedis(ThrottleStack stack, String key, int mode) {
        String token = stack.needsToken ? nextToken() : null;
        long start = System.nanoTime();
        long generation = rejections == null ? 0 : rejections.generation();
        return evaluate(stack, key, mode, token)
                .onFailure(RedisFailures::isDataError).recoverWithUni(failure -> repairAndRetry(stack, key, mode, token,
                        failure))
                .map(response -> succeeded(stack, key, token, response, start, mode, generation))
                .onFailure(failure -> !(failure instanceof CorruptedThrottleStateException))
                .recoverWithItem(failure -> failed(stack, key, token, failure, start, mode));
    }

    private Uni<Response> evaluate(ThrottleStack stack, String key, int mode, String token) {
        return redis.eval(stack.script, stack.keys(key), stack.args(mode, token), timeout);
    }

    /**
     * The state of a key cannot be read by the script (a foreign value under Pacer's key, a wrong type): it carries no
     * valid decision, so it is deleted and the decision made once more, never admitted by fallback.
     */
    private Uni<Response> repairAndRetry(ThrottleStack stack, String key, int mode, String token, Throwable failure) {
        List<String> keys = stack.keys(key);
        LOG.warnf("Pacer deletes the throttling state under Redis key(s) %s: the script cannot read it (%s)", keys,
                failure.getMessage());
        return redis.eval(stack.script, keys, stack.args(ThrottleStack.RESET, null), timeout)
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
    public ThrottleOutcome decideBlocking(ThrottleStack stack, String key, int mode) {
        ThrottleOutcome rejected = rejectLocally(stack, key, mode);
        if (rejected != null) {
            return rejected;
        }
        return decideInRedis(stack, key, mode).await().indefinitely();
    }

    /** The local short-circuit: a rejection Redis gave earlier that still holds, or {@code null}. */
    private ThrottleOutcome rejectLocally(ThrottleStack stack, String key, int mode) {
        if (rejections == null || mode != ThrottleStack.ACQUIRE || !shortCircuit) {
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
        ThrottleStack stack = outcome.stack();
        if (!stack.holdsLeases || outcome.token() == null) {
            return;
        }
        if (outcome.fallback() && local != null) {
            local.release(stack, outcome.key(), outcome.token());
        }
        releaseInRedis(outcome);
    }

    private void releaseInRedis(ThrottleOutcome outcome) {
        ThrottleStack stack = outcome.stack();
        redis.eval(stack.script, stack.keys(outcome.key()), stack.args(ThrottleStack.RELEASE, outcome.token()), timeout)
                .subscribe().with(ignored -> {
                }, failure -> LOG.debugf(failure,
                        "Could not release concurrency leases for key %s; they expire by themselves", outcome.key()));
    }

    /**
     * Deletes the state of every policy of the stack for a key, then tells every instance to forget its local
     * rejection of it ({@link ThrottleResets}).
     */
    public Uni<Void> reset(ThrottleStack stack, String key) {
        return redis.eval(stack.script, stack.keys(key), stack.args(ThrottleStack.RESET, null), timeout)
                .chain(() -> resets.publish(stack, key));
    }

    private ThrottleOutcome succeeded(ThrottleStack stack, String key, String token, Response response, long start,
            int mode, long generation) {
        int size = stack.policies.length;
        long[] values = new long[4 * size];
        for (int i = 0; i < values.length; i++) {
            values[i] = response.get(i + 1).toLong();
        }
        if (outageLog.succeeded() && local != null) {
            local.clear();
        }
        ThrottleOutcome outcome = new ThrottleOutcome(stack, key, token, response.get(0).toInteger() == 1, values,
                false);
        if (stack.holdsLeases && response.size() >= 1 + values.length + size) {
            long[] fences = new long[size];
            for (int i = 0; i < size; i++) {
                fences[i] = response.get(1 + values.length + i).toLong();
            }
            outcome.fencingTokens(fences);
        }
        if (mode == ThrottleStack.ACQUIRE) {
            long now = System.nanoTime();
            if (!outcome.allowed() && rejections != null && shortCircuit) {
                rejections.remember(outcome, generation, now);
            }
            count(outcome);
            observer.decided(outcome, now - start);
        }
        return outcome;
    }

    private ThrottleOutcome failed(ThrottleStack stack, String key, String token, Throwable failure, long start,
            int mode) {
        outageLog.failed(failure);
        fallbackDecisions.increment();
        int size = stack.policies.length;
        long[] values;
        boolean allowed;
        if (local != null) {
            values = local.decide(stack, key, token == null ? "" : token, mode == ThrottleStack.ACQUIRE);
            allowed = true;
            for (int i = 0; i < size; i++) {
                allowed &= values[4 * i] == 1 || stack.policies[i].shadow;
            }
        } else {
            values = new long[4 * size];
            for (int i = 0; i < size; i++) {
                values[4 * i] = allowOnFailure ? 1 : 0;
                values[4 * i + 2] = allowOnFailure ? 0 : FALLBACK_RETRY_MICROS;
            }
            allowed = allowOnFailure;
        }
        ThrottleOutcome outcome = new ThrottleOutcome(stack, key, token, allowed, values, true);
        if (mode == ThrottleStack.ACQUIRE) {
            count(outcome);
            observer.decided(outcome, System.nanoTime() - start);
            if (!allowed && stack.holdsLeases && token != null) {
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

    // ---- policies and methods

    /** The stack of one policy, for the programmatic API. */
    public ThrottleStack stackOf(String policyName, int cost) {
        if (cost <= 0) {
            throw new IllegalArgumentException("cost must be positive, was " + cost);
        }
        if (cost == 1) {
            ThrottleStack cached = singlePolicyStacks.get(policyName);
            if (cached != null) {
                return cached;
            }
        }
        ThrottlePolicy policy = policies().get(policyName);
        if (policy == null) {
            throw new IllegalArgumentException("Unknown throttling policy \"" + policyName
                    + "\": declare it with @Throttled(name = \"" + policyName + "\", ...) or configure quarkus.pacer.throttle.\""
                    + policyName + "\".limit and .window");
        }
        if (cost > policy.capacity()) {
            throw new IllegalArgumentException("cost " + cost + " exceeds the capacity " + policy.capacity()
                    + " of throttling policy \"" + policyName + "\": it could never be granted");
        }
        ThrottleStack stack = new ThrottleStack(new ThrottlePolicy[] { policy }, new int[] { cost });
        if (cost == 1) {
            singlePolicyStacks.putIfAbsent(policyName, stack);
        }
        return stack;
    }

    /** The prepared method, or {@code null} when the method is not throttled (or all its policies are disabled). */
    ThrottledMethod method(Method method) {
        Object prepared = methods.get(method);
        if (prepared == null) {
            prepared = prepare(method);
            methods.putIfAbsent(method, prepared);
        }
        return prepared instanceof ThrottledMethod throttled ? throttled : null;
    }

    private Object prepare(Method method) {
        policies();
        MethodDefinition definition = methodDefinitions.get(MethodDefinition.idOf(method));
        if (definition == null) {
            return Boolean.FALSE;
        }
        List<ThrottlePolicy> enabled = new ArrayList<>();
        List<Integer> costs = new ArrayList<>();
        for (int i = 0; i < definition.getPolicies().size(); i++) {
            ThrottlePolicy policy = policies.get(definition.getPolicies().get(i));
            if (policy.enabled) {
                enabled.add(policy);
                costs.add(definition.getCosts().get(i));
            }
        }
        if (enabled.isEmpty()) {
            return Boolean.FALSE;
        }
        int[] costArray = costs.stream().mapToInt(Integer::intValue).toArray();
        ThrottleStack stack = new ThrottleStack(enabled.toArray(new ThrottlePolicy[0]), costArray);
        ThrottleKeyResolver resolver = null;
        if (definition.getKeyResolver() != null) {
            resolver = resolver(definition.getKeyResolver());
        }
        int[] keyParameters = definition.getKeyParameters().stream().mapToInt(Integer::intValue).toArray();
        return new ThrottledMethod(definition.getId(), stack, method, definition.getOnLimit(),
                definition.getMaxWaitMillis() * 1000, keyParameters, resolver);
    }

    private static ThrottleKeyResolver resolver(String className) {
        try {
            Class<?> type = Class.forName(className, false, Thread.currentThread().getContextClassLoader());
            InstanceHandle<?> handle = Arc.container().instance(type);
            if (!handle.isAvailable()) {
                throw new IllegalStateException("ThrottleKeyResolver " + className + " is not a CDI bean");
            }
            return (ThrottleKeyResolver) handle.get();
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("ThrottleKeyResolver " + className + " is missing", e);
        }
    }

    /** The policies in force (annotations with configuration overrides applied), by name. */
    public Map<String, ThrottlePolicy> effectivePolicies() {
        return policies();
    }

    /** The enforced policies by name; resolved once (at startup) from the definitions and the configuration. */
    Map<String, ThrottlePolicy> policies() {
        Map<String, ThrottlePolicy> current = policies;
        if (current == null) {
            List<String> problems = configurationProblems();
            if (!problems.isEmpty()) {
                throw new ConfigurationException("Invalid Pacer throttling configuration:\n - "
                        + String.join("\n - ", problems));
            }
            current = policies;
        }
        return current;
    }

    /**
     * Resolves the policies unless done already, and returns every problem of the throttling configuration (empty
     * when it is valid), so startup can report them together with the other Pacer settings.
     */
    public synchronized List<String> configurationProblems() {
        if (policies != null) {
            return List.of();
        }
        List<String> problems = new ArrayList<>();
        Map<String, ThrottlePolicy> resolved = resolvePolicies(problems);
        if (problems.isEmpty()) {
            Map<String, MethodDefinition> byId = new HashMap<>();
            for (MethodDefinition method : definitions.methods()) {
                byId.put(method.getId(), method);
            }
            methodDefinitions = byId;
            policies = resolved;
        }
        return problems;
    }

    private Map<String, ThrottlePolicy> resolvePolicies(List<String> problems) {
        ThrottleRuntimeConfig throttle = config.throttle();
        String keyPrefix = config.keyPrefix();
        if (!ThrottleKeyLayout.isValidKeyPrefix(keyPrefix)) {
            problems.add("quarkus.pacer.key-prefix must not contain '{' or '}' (Pacer places the Redis Cluster hash"
                    + " tag itself), was \"" + keyPrefix + "\"");
        }
        Map<String, String> groups = ThrottleKeyLayout.globalGroups(globalStacks());
        Map<String, ThrottlePolicy> resolved = new HashMap<>();
        for (PolicyDefinition definition : definitions.policies()) {
            ThrottlePolicy policy = resolve(definition, throttle.policies().get(definition.getName()), keyPrefix,
                    groups.getOrDefault(definition.getName(), definition.getName()), problems);
            if (policy != null) {
                resolved.put(policy.name, policy);
            }
        }
        for (String name : new TreeSet<>(throttle.policies().keySet())) {
            if (name.equals(ThrottleRuntimeConfig.LOCAL_REJECTIONS)) {
                // quarkus.pacer.throttle.local-rejections.* is a setting group, not a policy.
                continue;
            }
            if (!resolved.containsKey(name) && definitions.policies().stream().noneMatch(d -> d.getName().equals(name))) {
                PolicyConfig override = throttle.policies().get(name);
                if (override.limit().isEmpty() || override.window().isEmpty()) {
                    problems.add(property(name, override.limit().isEmpty() ? "limit" : "window")
                            + " is required: no @Throttled declares policy \"" + name + "\"");
                    continue;
                }
                PolicyDefinition configured = new PolicyDefinition(name, Algorithm.TOKEN_BUCKET, 0, null, 0, false,
                        "configuration");
                ThrottlePolicy policy = resolve(configured, override, keyPrefix, name, problems);
                if (policy != null) {
                    resolved.put(name, policy);
                }
            }
        }
        for (MethodDefinition method : definitions.methods()) {
            for (int i = 0; i < method.getPolicies().size(); i++) {
                ThrottlePolicy policy = resolved.get(method.getPolicies().get(i));
                int cost = method.getCosts().get(i);
                if (policy != null && cost > policy.capacity()) {
                    problems.add(property(policy.name, usesBurstProperty(policy)) + ": the capacity " + policy.capacity()
                            + " is below the cost " + cost + " of " + method.getId() + ", which could never pass");
                }
            }
        }
        if (!problems.isEmpty()) {
            return Map.of();
        }
        for (ThrottlePolicy policy : resolved.values()) {
            LOG.debugf("Throttling policy %s: %s, limit %d per %d µs, burst %d%s%s", policy.name, policy.algorithm,
                    policy.limit, policy.windowMicros, policy.burst, policy.shadow ? ", shadow" : "",
                    policy.enabled ? "" : ", disabled");
        }
        return Map.copyOf(resolved);
    }

    /** The policies of every method that throttles on the global key, in declaration order. */
    private List<List<String>> globalStacks() {
        List<List<String>> stacks = new ArrayList<>();
        for (MethodDefinition method : definitions.methods()) {
            if (method.getKeyParameters().isEmpty() && method.getKeyResolver() == null) {
                stacks.add(method.getPolicies());
            }
        }
        return stacks;
    }

    private static String usesBurstProperty(ThrottlePolicy policy) {
        return ThrottlePolicy.usesBurst(policy.algorithm) ? "burst" : "limit";
    }

    private static ThrottlePolicy resolve(PolicyDefinition definition, PolicyConfig override, String keyPrefix,
            String groupLeader, List<String> problems) {
        String name = definition.getName();
        int before = problems.size();
        int limit = definition.getLimit();
        Algorithm algorithm = definition.getAlgorithm();
        long windowMicros = 0;
        int burst = definition.getBurst();
        boolean shadow = definition.isShadow();
        boolean enabled = true;
        String windowText = definition.getWindow();
        if (override != null) {
            limit = override.limit().orElse(limit);
            if (override.limit().isPresent() && limit <= 0) {
                problems.add(property(name, "limit") + " must be positive, was " + limit);
            }
            algorithm = override.algorithm().orElse(algorithm);
            if (override.burst().isPresent()) {
                burst = override.burst().get();
                if (burst <= 0) {
                    problems.add(property(name, "burst") + " must be positive, was " + burst);
                }
            }
            shadow = override.shadow().orElse(shadow);
            enabled = override.enabled();
            if (override.window().isPresent()) {
                windowText = override.window().get();
                try {
                    windowMicros = ThrottleDurations.parseWindowMicros(windowText);
                } catch (IllegalArgumentException e) {
                    problems.add(property(name, "window") + ": " + e.getMessage());
                }
            }
        }
        if (windowMicros == 0 && problems.size() == before) {
            windowMicros = ThrottleDurations.parseWindowMicros(windowText);
        }
        if (burst <= 0) {
            burst = limit;
        }
        if (problems.size() == before) {
            String inexact = ThrottleDurations.exactnessProblem(algorithm, limit, burst, windowMicros, windowText);
            if (inexact != null) {
                problems.add(property(name, "limit") + ": " + inexact);
            }
        }
        if (problems.size() != before) {
            return null;
        }
        return new ThrottlePolicy(name, algorithm, limit, windowMicros, burst, shadow, enabled, keyPrefix, groupLeader);
    }

    static String property(String policy, String setting) {
        return "quarkus.pacer.throttle.\"" + policy + "\"." + setting;
    }

    /** Rejects blocking use from an event-loop thread, where waiting for Redis would stall every other request. */
    static void checkMayBlock(String what) {
        if (Context.isOnEventLoopThread()) {
            throw new IllegalStateException(what + " blocks while Redis decides, and was called on a Vert.x event-loop"
                    + " thread, which must never block: return Uni or CompletionStage, use ReactiveThrottler, or run"
                    + " the caller on a worker thread (@Blocking) or a virtual thread (@RunOnVirtualThread)");
        }
    }
}
