package io.quarkiverse.pacer.deployment.throttle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.deployment.support.SecondInstance;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.runtime.throttle.engine.ThrottleEngine;
import io.quarkiverse.pacer.throttle.Algorithm;
import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkiverse.pacer.throttle.ThrottledException;
import io.quarkus.test.QuarkusUnitTest;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;

/**
 * A throttle key holding a foreign value (another type, or a hash with garbage) is not a Redis outage: the state is
 * deleted and the call decided by Redis, never admitted by fallback; the limit holds from there.
 */
class ThrottleCorruptedKeyTest {

    static final int LIMIT = 3;

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Api.class, SecondInstance.class));

    @Inject
    Api api;

    @Inject
    ThrottleEngine engine;

    @Inject
    PacerRedis redis;

    @Test
    void wrongTypeIsRepairedAndDecided() {
        send(Request.cmd(Command.SET).arg(SecondInstance.globalKey(Api.BUCKET) + ":tb").arg("hello"));
        assertExactLimit(api::bucket);
        assertThat(engine.fallbackDecisions()).isZero();
    }

    @Test
    void wrongTypeAndGarbageValueAreRepairedAndDecided() {
        send(Request.cmd(Command.HSET).arg(SecondInstance.globalKey(Api.LOG) + ":sl").arg("l").arg("hello"));
        send(Request.cmd(Command.SET).arg(SecondInstance.globalKey(Api.GCRA) + ":lb").arg("hello"));
        assertExactLimit(api::log);
        assertExactLimit(api::gcra);
        assertThat(engine.fallbackDecisions()).isZero();
    }

    private void assertExactLimit(Runnable call) {
        for (int i = 0; i < LIMIT; i++) {
            call.run();
        }
        assertThatThrownBy(call::run).isInstanceOf(ThrottledException.class);
    }

    private void send(Request request) {
        redis.send(request).await().atMost(Duration.ofSeconds(5));
    }

    @ApplicationScoped
    public static class Api {
        static final String BUCKET = "corrupt-bucket";
        static final String LOG = "corrupt-log";
        static final String GCRA = "corrupt-gcra";

        @Throttled(name = BUCKET, limit = LIMIT, window = "1h")
        public void bucket() {
        }

        @Throttled(name = LOG, limit = LIMIT, window = "1h", algorithm = Algorithm.SLIDING_LOG)
        public void log() {
        }

        @Throttled(name = GCRA, limit = LIMIT, window = "1h", algorithm = Algorithm.LEAKY_BUCKET)
        public void gcra() {
        }
    }
}
