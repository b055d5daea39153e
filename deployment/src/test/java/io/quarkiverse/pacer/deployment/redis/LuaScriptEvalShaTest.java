package io.quarkiverse.pacer.deployment.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.runtime.redis.LuaScript;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.test.support.RedisInfo;
import io.quarkus.test.QuarkusUnitTest;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

/**
 * Scripts ship as files, are sent in full once and then run with EVALSHA; after SCRIPT FLUSH the next call reloads
 * the script without the caller seeing NOSCRIPT.
 */
class LuaScriptEvalShaTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClass(RedisInfo.class));

    @Inject
    PacerRedis redis;

    @Test
    void loadsOnceRunsWithEvalShaAndSurvivesScriptFlush() {
        LuaScript script = LuaScript.load("server-time");
        assertThat(script.source()).contains("KEYS:").contains("ARGV:");

        long before = redisTimeMicros();
        long first = runScript(script);
        assertThat(first).isGreaterThanOrEqualTo(before);
        assertThat(RedisInfo.calls(redis, "eval")).isEqualTo(1);
        assertThat(scriptExists(script)).isTrue();

        for (int i = 0; i < 10; i++) {
            runScript(script);
        }
        assertThat(RedisInfo.calls(redis, "eval")).as("script source sent once").isEqualTo(1);
        assertThat(RedisInfo.calls(redis, "evalsha")).as("EVALSHA calls (one NOSCRIPT + ten hits)").isEqualTo(11);

        redis.send(Request.cmd(Command.SCRIPT).arg("FLUSH")).await().atMost(TIMEOUT);
        assertThat(scriptExists(script)).isFalse();

        long afterFlush = runScript(script);
        assertThat(afterFlush).isGreaterThanOrEqualTo(first);
        assertThat(RedisInfo.calls(redis, "eval")).as("reloaded once after SCRIPT FLUSH").isEqualTo(2);
        assertThat(scriptExists(script)).isTrue();
    }

    @Test
    void missingScriptIsAPackagingError() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> LuaScript.load("no-such-script"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("META-INF/pacer/no-such-script.lua");
    }

    private long runScript(LuaScript script) {
        return redis.eval(script, List.of(), List.of()).await().atMost(TIMEOUT).toLong();
    }

    private boolean scriptExists(LuaScript script) {
        Response exists = redis.send(Request.cmd(Command.SCRIPT).arg("EXISTS").arg(script.sha1())).await().atMost(TIMEOUT);
        return exists.get(0).toInteger() == 1;
    }

    private long redisTimeMicros() {
        Response time = redis.send(Request.cmd(Command.TIME)).await().atMost(TIMEOUT);
        return time.get(0).toLong() * 1_000_000 + time.get(1).toLong();
    }
}
