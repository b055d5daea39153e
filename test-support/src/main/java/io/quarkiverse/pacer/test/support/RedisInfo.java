package io.quarkiverse.pacer.test.support;

import java.time.Duration;

import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;

/** Reads facts about the Redis server a test talks to. */
public final class RedisInfo {

    private RedisInfo() {
    }

    public static String info(PacerRedis redis, String section) {
        return redis.send(Request.cmd(Command.INFO).arg(section)).await().atMost(Duration.ofSeconds(5)).toString();
    }

    public static int tcpPort(PacerRedis redis) {
        return Integer.parseInt(field(info(redis, "server"), "tcp_port"));
    }

    /** The number of calls of a command from INFO commandstats, 0 when never called. */
    public static long calls(PacerRedis redis, String command) {
        String stats = info(redis, "commandstats");
        String prefix = "cmdstat_" + command + ":calls=";
        for (String line : stats.split("\r?\n")) {
            if (line.startsWith(prefix)) {
                String rest = line.substring(prefix.length());
                return Long.parseLong(rest.substring(0, rest.indexOf(',')));
            }
        }
        return 0;
    }

    /** The connections subscribed to at least one channel, from {@code CLIENT LIST}. */
    public static long subscribedConnections(PacerRedis redis) {
        String clients = redis.send(Request.cmd(Command.CLIENT).arg("LIST")).await().atMost(Duration.ofSeconds(5))
                .toString();
        return clients.lines().filter(line -> !line.contains(" sub=0 ")).count();
    }

    public static String field(String info, String name) {
        for (String line : info.split("\r?\n")) {
            if (line.startsWith(name + ":")) {
                return line.substring(name.length() + 1).trim();
            }
        }
        throw new IllegalArgumentException(name + " not in INFO output");
    }

    public static int portOf(String hosts) {
        return Integer.parseInt(hosts.substring(hosts.lastIndexOf(':') + 1));
    }
}
