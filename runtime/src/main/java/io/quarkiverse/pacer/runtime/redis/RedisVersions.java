package io.quarkiverse.pacer.runtime.redis;

import java.time.Duration;
import java.util.List;

import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

/** The Redis server versions Pacer talks to, for features that need a recent Redis everywhere. */
public final class RedisVersions {

    private RedisVersions() {
    }

    /**
     * Whether every master (the one Redis outside a cluster) runs Redis {@code major} or later; {@code false} when one
     * cannot be asked within {@code budget}.
     */
    public static boolean everyMasterAtLeast(PacerRedis redis, int major, Duration budget) {
        try {
            List<Response> infos = redis.sendToEveryMaster(Request.cmd(Command.INFO).arg("server"), budget).await()
                    .atMost(budget.multipliedBy(2));
            for (Response info : infos) {
                if (majorVersion(info.toString()) < major) {
                    return false;
                }
            }
            return !infos.isEmpty();
        } catch (RuntimeException e) {
            return false;
        }
    }

    static int majorVersion(String info) {
        for (String line : info.split("\r?\n")) {
            if (line.startsWith("redis_version:")) {
                String version = line.substring("redis_version:".length()).trim();
                int dot = version.indexOf('.');
                return Integer.parseInt(dot < 0 ? version : version.substring(0, dot));
            }
        }
        return 0;
    }
}
