package io.quarkiverse.pacer.runtime.throttle.engine;

import java.time.Duration;

import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.quarkiverse.pacer.runtime.redis.LuaScript;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.runtime.redis.RedisVersions;
import io.quarkiverse.pacer.runtime.throttle.policy.PolicyRegistry;
import io.quarkus.runtime.StartupEvent;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;

/**
 * Readies Redis for throttling at startup, before the first decision: loads the scripts of the policies in use (on
 * Redis Cluster into every master), finds out whether decisions may batch over several slots, and starts listening
 * for resets. An invalid configuration is left to {@code PacerConfigValidation}, which fails startup with every
 * problem at once.
 */
@Singleton
public class ThrottleWarmUp {

    private static final Logger LOG = Logger.getLogger(ThrottleWarmUp.class);

    private static final Duration WARM_UP_TIMEOUT = Duration.ofSeconds(2);

    private final PacerRedis redis;
    private final PolicyRegistry policies;
    private final ThrottleResets resets;
    /** Decisions batch over every slot of a Redis Cluster master, not one slot: every master runs Redis 7 or later. */
    private volatile boolean crossSlotBatches;

    ThrottleWarmUp(PacerRedis redis, PolicyRegistry policies, ThrottleResets resets) {
        this.redis = redis;
        this.policies = policies;
        this.resets = resets;
    }

    void onStart(@Observes @Priority(10) StartupEvent event) {
        if (policies.configurationProblems().isEmpty() && !policies.all().isEmpty()) {
            warmUp();
            resets.start();
        }
    }

    /**
     * Opens the connection and loads the scripts, so the first call does not pay for both inside its time budget.
     * Bounded: an unreachable Redis delays startup by at most {@link #WARM_UP_TIMEOUT}.
     */
    private void warmUp() {
        try {
            for (LuaScript script : policies.scriptsInUse()) {
                redis.sendToEveryMaster(Request.cmd(Command.SCRIPT).arg("LOAD").arg(script.toSend().source()), WARM_UP_TIMEOUT)
                        .await()
                        .atMost(WARM_UP_TIMEOUT.multipliedBy(2));
            }
        } catch (RuntimeException e) {
            LOG.warnf("Pacer could not load its throttling script into Redis (client %s) at startup: %s",
                    redis.clientDisplayName(), e.toString());
        }
        // A batch script may span slots only with Redis 7's script flags; else decisions batch within one slot.
        crossSlotBatches = redis.routesBySlot() && RedisVersions.everyMasterAtLeast(redis, 7, WARM_UP_TIMEOUT);
    }

    /** Whether decisions may batch over every slot of a Redis Cluster master (known once startup has run). */
    boolean crossSlotBatches() {
        return crossSlotBatches;
    }
}
