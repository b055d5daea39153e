package io.quarkiverse.pacer.deployment.throttle;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.test.support.RestartableRedis;
import io.quarkus.test.QuarkusUnitTest;

/** {@code on-redis-failure=reject} through a Redis outage; see {@link ThrottleRedisRestartScenario}. */
class ThrottleRedisRestartRejectTest extends ThrottleRedisRestartScenario {

    static final RestartableRedis REDIS = RestartableRedis.shared("restart-reject");

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Api.class, ThrottleRedisRestartScenario.class,
                    RestartableRedis.class))
            .overrideConfigKey("quarkus.redis.hosts", REDIS.uri())
            .overrideConfigKey("quarkus.pacer.throttle.on-redis-failure", "reject");

    @Override
    RestartableRedis redis() {
        return REDIS;
    }

    @Override
    int admittedDuringOutage() {
        return 0;
    }
}
