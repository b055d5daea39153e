package io.quarkiverse.pacer.deployment.delayed;

import static io.quarkiverse.pacer.test.support.RedisCommands.send;
import static io.quarkiverse.pacer.test.support.RedisCommands.setKey;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.test.support.RedisCommands;
import io.quarkus.test.QuarkusUnitTest;

/**
 * {@code replayDeadLetters} replays the dead letters that existed when it started, so it ends even when replayed
 * messages are dead-lettered again while it runs. Messages dead-lettered after the start (here: 10 with a later
 * dead-letter time, behind more than one full batch of 500) stay dead letters.
 */
class DelayedReplayDeadLettersBoundedTest {

    static final int BEFORE = 600;
    static final int AFTER = 10;

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(RedisCommands.class))
            .overrideConfigKey("quarkus.pacer.delayed.consumer.enabled", "false");

    @Inject
    DelayedQueue queue;

    @Inject
    PacerRedis redis;

    @Test
    void replaysOnlyWhatWasDeadAtTheStart() {
        for (int i = 0; i < BEFORE + AFTER; i++) {
            queue.scheduleWithId("replay-bound", "m" + i, "payload " + i, Duration.ofHours(1));
        }
        long later = System.currentTimeMillis() + Duration.ofHours(1).toMillis();
        for (int i = 0; i < BEFORE + AFTER; i++) {
            send(redis, "ZREM", setKey("replay-bound", "due"), "m" + i);
            send(redis, "ZADD", setKey("replay-bound", "dead"), i < BEFORE ? 1000 + i : later + i, "m" + i);
        }
        assertThat(queue.deadLetterCount("replay-bound")).isEqualTo(BEFORE + AFTER);

        assertThat(queue.replayDeadLetters("replay-bound")).isEqualTo(BEFORE);
        assertThat(queue.deadLetterCount("replay-bound")).isEqualTo(AFTER);
        assertThat(queue.size("replay-bound")).isEqualTo(BEFORE);
    }
}
