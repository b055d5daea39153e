package io.quarkiverse.pacer.deployment.throttle;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.runtime.throttle.engine.ThrottleEngine;
import io.quarkus.test.QuarkusUnitTest;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

/**
 * A 1 ms window: a TTL of 1 ms counts from the millisecond the script started in, so the state of a permit just taken
 * could vanish on the next millisecond tick, microseconds later, and a second call right behind it was admitted again.
 * The state written by an acquire must still be there for the command that follows it on the same connection
 * (pipelined, tens of microseconds later), over many calls, for the two algorithms that keep per-permit state. Redis
 * {@code TIME} before and after each pair tells a key that vanished early from one this loaded machine reached late.
 */
class ThrottleShortWindowTtlTest {

    static final int KEYS_PER_BATCH = 100;
    static final int BATCHES = 50;
    /** Below Pacer's TTL floor of 20 ms: a key gone sooner than this after its script vanished early. */
    static final long EARLY_MICROS = 15_000;

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest();

    @Inject
    PacerRedis redis;

    @Inject
    ThrottleEngine engine;

    @Test
    void slidingLogStateSurvivesItsScript() {
        assertStateSurvives(3, "ttl-log", ":sl");
    }

    @Test
    void concurrencyLeaseSurvivesItsScript() {
        assertStateSurvives(6, "ttl-concurrency", ":cc");
    }

    private void assertStateSurvives(int algorithm, String policy, String suffix) {
        String sha = redis.send(Request.cmd(Command.SCRIPT).arg("LOAD").arg(engine.script().source()))
                .await().atMost(Duration.ofSeconds(10)).toString();
        RedisConnection connection = redis.client().connect().toCompletionStage().toCompletableFuture().join();
        try {
            int vanished = 0;
            for (int batch = 0; batch < BATCHES; batch++) {
                List<Request> requests = new ArrayList<>();
                Request delete = Request.cmd(Command.DEL);
                requests.add(delete);
                for (int i = 0; i < KEYS_PER_BATCH; i++) {
                    String base = "pacer:t:{" + policy + "-" + i + ":}";
                    delete.arg(base + suffix);
                    // one policy: algorithm, limit 1, window 1 ms, burst 1, cost 1, enforcing
                    requests.add(Request.cmd(Command.TIME));
                    requests.add(Request.cmd(Command.EVALSHA).arg(sha).arg(1).arg(base).arg(0).arg("t" + batch + "-" + i)
                            .arg(algorithm).arg(1).arg(1000).arg(1).arg(1).arg(0));
                    requests.add(Request.cmd(Command.EXISTS).arg(base + suffix));
                    requests.add(Request.cmd(Command.TIME));
                }
                List<Response> replies = connection.batch(requests).toCompletionStage().toCompletableFuture().join();
                for (int i = 0; i < KEYS_PER_BATCH; i++) {
                    int at = 1 + 4 * i;
                    assertThat(replies.get(at + 1).get(0).toInteger()).as("call %d admitted", i).isEqualTo(1);
                    long elapsedMicros = micros(replies.get(at + 3)) - micros(replies.get(at));
                    if (replies.get(at + 2).toInteger() == 0 && elapsedMicros < EARLY_MICROS) {
                        vanished++;
                    }
                }
            }
            assertThat(vanished).as("acquires whose state was gone by the next command").isZero();
        } finally {
            connection.close();
        }
    }

    private static long micros(Response time) {
        return time.get(0).toLong() * 1_000_000 + time.get(1).toLong();
    }
}
