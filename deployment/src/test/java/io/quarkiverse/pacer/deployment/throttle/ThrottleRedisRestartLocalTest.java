package io.quarkiverse.pacer.deployment.throttle;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.test.support.RestartableRedis;
import io.quarkus.test.QuarkusUnitTest;

/** {@code on-redis-failure=local} through a Redis outage; see {@link ThrottleRedisRestartScenario}. */
class ThrottleRedisRestartLocalTest extends ThrottleRedisRestartScenario {

    static final RestartableRedis REDIS = RestartableRedis.shared("restart-local");

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Api.class, ThrottleRedisRestartScenario.class,
                    RestartableRedis.class))
            .overrideConfigKey("quarkus.redis.hosts", REDIS.uri())
            .overrideConfigKey("quarkus.pacer.throttle.on-redis-failure", "local");

    @Override
    RestartableRedis redis() {
        return REDIS;
    }

    @Override
    int admittedDuringOutage() {
        return LIMIT;
    }
}
