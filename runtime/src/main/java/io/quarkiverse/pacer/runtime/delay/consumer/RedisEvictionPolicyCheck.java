package io.quarkiverse.pacer.runtime.delay.consumer;

import org.jboss.logging.Logger;

import io.quarkiverse.pacer.runtime.redis.ConfigReply;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.smallrye.mutiny.Uni;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

/**
 * Warns when Redis may evict delay-queue messages: with any {@code maxmemory-policy} but {@code noeviction}, a Redis
 * that reaches {@code maxmemory} deletes keys, waiting messages among them, and they are lost without a trace. Reads
 * {@code CONFIG GET maxmemory-policy}, or {@code INFO memory} where managed Redis services refuse {@code CONFIG}.
 */
public final class RedisEvictionPolicyCheck {

    private static final Logger LOG = Logger.getLogger(RedisEvictionPolicyCheck.class);
    static final String SAFE_POLICY = "noeviction";

    private final PacerRedis redis;

    public RedisEvictionPolicyCheck(PacerRedis redis) {
        this.redis = redis;
    }

    /**
     * Reads the policy and logs a warning unless it is {@code noeviction}; never fails (an unreadable policy is logged
     * at debug level).
     *
     * @return the policy, or {@code null} when it could not be read
     */
    public Uni<String> check() {
        return redis.send(Request.cmd(Command.CONFIG).arg("GET").arg("maxmemory-policy"))
                .map(RedisEvictionPolicyCheck::fromConfig)
                .onFailure().recoverWithUni(refused -> redis.send(Request.cmd(Command.INFO).arg("memory"))
                        .map(RedisEvictionPolicyCheck::fromInfo))
                .invoke(this::warnIfEvicting)
                .onFailure().recoverWithItem(failure -> {
                    LOG.debugf("Cannot read the maxmemory-policy of Redis (client %s): %s", redis.clientDisplayName(),
                            failure.toString());
                    return null;
                });
    }

    private void warnIfEvicting(String policy) {
        if (policy != null && !SAFE_POLICY.equals(policy)) {
            LOG.warnf("Redis (client %s) runs with maxmemory-policy %s: when it reaches maxmemory it evicts keys, and"
                    + " delay-queue messages evicted are lost. Set maxmemory-policy to noeviction (redis.conf, CONFIG SET"
                    + " maxmemory-policy noeviction, or the setting of your managed Redis) for delay queues that never"
                    + " lose messages", redis.clientDisplayName(), policy);
        } else {
            LOG.debugf("Redis (client %s) runs with maxmemory-policy %s", redis.clientDisplayName(), policy);
        }
    }

    private static String fromConfig(Response response) {
        String policy = ConfigReply.value(response, "maxmemory-policy");
        if (policy == null) {
            throw new IllegalStateException("CONFIG GET maxmemory-policy returned " + response);
        }
        return policy;
    }

    private static String fromInfo(Response response) {
        for (String line : response.toString().split("\r?\n")) {
            if (line.startsWith("maxmemory_policy:")) {
                return line.substring("maxmemory_policy:".length()).trim();
            }
        }
        throw new IllegalStateException("INFO memory has no maxmemory_policy");
    }
}
