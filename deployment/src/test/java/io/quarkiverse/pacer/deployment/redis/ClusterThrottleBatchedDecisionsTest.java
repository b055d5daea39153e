package io.quarkiverse.pacer.deployment.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.deployment.support.ManyCallers;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.runtime.throttle.engine.ThrottleEngine;
import io.quarkiverse.pacer.throttle.Algorithm;
import io.quarkiverse.pacer.throttle.ThrottleKey;
import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkiverse.pacer.throttle.ThrottledException;
import io.quarkus.test.QuarkusUnitTest;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

/**
 * On a local 3-master Redis Cluster (Redis 7), decisions on keys of many slots batch per master: 256 callers on
 * {@value #KEYS} keys spread over the slots get exactly {@value #LIMIT} admissions per key, Redis made every decision,
 * and the masters ran fewer than one script call per two decisions.
 */
class ClusterThrottleBatchedDecisionsTest {

    static final int CALLERS = 256;
    static final int CALLS_PER_CALLER = 8;
    static final int KEYS = 64;
    static final int LIMIT = 20;

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Api.class, ManyCallers.class))
            .overrideConfigKey("quarkus.pacer.devservices.topology", "cluster");

    @Inject
    Api api;

    @Inject
    ThrottleEngine engine;

    @Inject
    PacerRedis redis;

    @Test
    void keysOfManySlotsAreExactWithFewerScriptCallsThanDecisions() throws Exception {
        Map<String, AtomicInteger> admittedPerKey = new ConcurrentHashMap<>();
        long callsBefore = scriptCalls();
        int admitted = ManyCallers.run(CALLERS, CALLS_PER_CALLER, caller -> {
            String key = "user-" + (caller % KEYS);
            try {
                api.call(key);
                admittedPerKey.computeIfAbsent(key, ignored -> new AtomicInteger()).incrementAndGet();
                return true;
            } catch (ThrottledException rejected) {
                return false;
            }
        });
        long scriptCalls = scriptCalls() - callsBefore;

        assertThat(admitted).isEqualTo(KEYS * LIMIT);
        assertThat(admittedPerKey).hasSize(KEYS)
                .allSatisfy((key, count) -> assertThat(count.get()).as("admitted on %s", key).isEqualTo(LIMIT));
        assertThat(engine.fallbackDecisions()).as("fallback decisions").isZero();
        assertThat((double) scriptCalls / (CALLERS * CALLS_PER_CALLER))
                .as("script calls per decision (%d calls)", scriptCalls).isLessThan(0.5);
    }

    /** Script calls of every master, from INFO commandstats. */
    private long scriptCalls() {
        List<Response> stats = redis.sendToEveryMaster(Request.cmd(Command.INFO).arg("commandstats"),
                Duration.ofSeconds(5)).await().atMost(Duration.ofSeconds(10));
        long calls = 0;
        for (Response info : stats) {
            for (String line : info.toString().split("\r?\n")) {
                if (line.startsWith("cmdstat_evalsha:calls=") || line.startsWith("cmdstat_eval:calls=")) {
                    String rest = line.substring(line.indexOf("calls=") + "calls=".length());
                    calls += Long.parseLong(rest.substring(0, rest.indexOf(',')));
                }
            }
        }
        return calls;
    }

    @ApplicationScoped
    public static class Api {
        @Throttled(name = "cluster-batched", limit = LIMIT, window = "1h", algorithm = Algorithm.TOKEN_BUCKET)
        public void call(@ThrottleKey String key) {
        }
    }
}
