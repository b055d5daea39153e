package io.quarkiverse.pacer.runtime.redis;

import java.time.Duration;
import java.util.List;

import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.quarkus.runtime.StartupEvent;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

/**
 * Warns at startup when masters of the Redis Cluster run with {@code cluster-require-full-coverage yes} (Redis's
 * default): from the moment such a cluster sees a master failed until a replica has taken over its slots, every node
 * refuses every command ({@code CLUSTERDOWN}), so a master's failure stops the calls of every slot, not only of its
 * own, for about a second even when its replica is promoted. Reads {@code CONFIG GET cluster-require-full-coverage}
 * from every master, in the background; a Redis that refuses {@code CONFIG} (a managed service, an ACL user without
 * it) is skipped, logged at debug level.
 */
@Singleton
public class ClusterCoverageCheck {

    private static final Logger LOG = Logger.getLogger(ClusterCoverageCheck.class);
    static final String SETTING = "cluster-require-full-coverage";
    private static final Duration BUDGET = Duration.ofSeconds(2);

    void onStart(@Observes @Priority(30) StartupEvent event, PacerRedis redis) {
        if (!redis.routesBySlot()) {
            return;
        }
        redis.sendToEveryMaster(Request.cmd(Command.CONFIG).arg("GET").arg(SETTING), BUDGET)
                .subscribe().with(answers -> warnIfFullCoverage(redis.clientDisplayName(), answers),
                        failure -> LOG.debugf("Cannot read %s of the Redis Cluster masters (client %s): %s", SETTING,
                                redis.clientDisplayName(), failure.toString()));
    }

    /** Logs the warning when any master requires full coverage; returns how many do. */
    static long warnIfFullCoverage(String client, List<Response> answers) {
        long requiring = answers.stream().filter(ClusterCoverageCheck::requiresFullCoverage).count();
        if (requiring > 0) {
            LOG.warnf("%d of the %d Redis Cluster masters (client %s) run with %s yes: from the moment the cluster sees"
                    + " a master failed until a replica takes over its slots, every node refuses every command"
                    + " (CLUSTERDOWN), so throttle decisions on every key fall back and delay-queue calls on every shard"
                    + " wait or fail, not only those of the failed master's slots. Set %s no on every node (redis.conf,"
                    + " or CONFIG SET %s no followed by CONFIG REWRITE) so that a master's failure costs only its own"
                    + " slots", requiring, answers.size(), client, SETTING, SETTING, SETTING);
        } else {
            LOG.debugf("The %d Redis Cluster masters (client %s) run with %s no", answers.size(), client, SETTING);
        }
        return requiring;
    }

    private static boolean requiresFullCoverage(Response answer) {
        return "yes".equalsIgnoreCase(ConfigReply.value(answer, SETTING));
    }
}
