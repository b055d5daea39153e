package io.quarkiverse.pacer.deployment.throttle;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.test.support.RestartableRedis;
import io.quarkus.test.QuarkusUnitTest;

/** {@code on-redis-failure=allow} through a Redis outage; see {@link ThrottleRedisRestartScenario}. */
class ThrottleRedisRestartAllowTest extends ThrottleRedisRestartScenario {

    static final RestartableRedis REDIS = RestartableRedis.shared("restart-allow");

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Api.class, ThrottleRedisRestartScenario.class,
                    RestartableRedis.class))
            .overrideConfigKey("quarkus.redis.hosts", REDIS.uri())
            .overrideConfigKey("quarkus.pacer.throttle.on-redis-failure", "allow");

    @Override
    RestartableRedis redis() {
        return REDIS;
    }

    @Override
    int admittedDuringOutage() {
        return CALLS_DURING_OUTAGE;
    }
}
