package io.quarkiverse.pacer.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.runtime.throttle.ThrottleEngine;
import io.quarkus.test.QuarkusUnitTest;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

/**
 * A 1 ms window: on Redis 7.0 and older, {@code PEXPIRE key 1} inside a script that crosses a millisecond tick deletes
 * the key at once, so the state of a permit just taken was gone and the next call (microseconds later) was admitted
 * again. The state written by an acquire must survive the script: checked in a transaction right after the script,
 * over many calls, for the two algorithms that keep per-permit state.
 */
class ThrottleShortWindowTtlTest {

    static final int CALLS = 1500;

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest();

    @Inject
    PacerRedis redis;

    @Inject
    ThrottleEngine engine;

    @Test
    void slidingLogStateSurvivesItsScript() {
        assertStateSurvives(3, "ttl-log");
    }

    @Test
    void concurrencyLeaseSurvivesItsScript() {
        assertStateSurvives(6, "ttl-concurrency");
    }

    private void assertStateSurvives(int algorithm, String policy) {
        String sha = redis.send(Request.cmd(Command.SCRIPT).arg("LOAD").arg(engine.script().source()))
                .await().atMost(Duration.ofSeconds(10)).toString();
        String base = "pacer:t:{" + policy + ":}";
        String key = base + (algorithm == 3 ? ":sl" : ":cc");
        RedisConnection connection = redis.client().connect().toCompletionStage().toCompletableFuture().join();
        try {
            int vanished = 0;
            for (int i = 0; i < CALLS; i++) {
                Request acquire = Request.cmd(Command.EVALSHA).arg(sha).arg(1).arg(base)
                        .arg(0).arg("t" + i).arg(algorithm).arg(1).arg(1000).arg(1).arg(1).arg(0);
                List<Response> replies = connection.batch(List.of(Request.cmd(Command.DEL).arg(key),
                        Request.cmd(Command.MULTI), acquire, Request.cmd(Command.EXISTS).arg(key),
                        Request.cmd(Command.EXEC))).toCompletionStage().toCompletableFuture().join();
                Response exec = replies.get(4);
                assertThat(exec.get(0).get(0).toInteger()).as("call %d admitted", i).isEqualTo(1);
                if (exec.get(1).toInteger() == 0) {
                    vanished++;
                }
            }
            assertThat(vanished).as("acquires whose state was gone right after the script").isZero();
        } finally {
            connection.close();
        }
    }
}
