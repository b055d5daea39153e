package io.quarkiverse.pacer.test.support;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.microprofile.config.ConfigProvider;

import io.quarkiverse.pacer.devservices.common.RedisProcess;

/** The Sentinel setup of Dev Services ({@code topology=sentinel}) as a test sees it: its sentinels and its primary. */
public final class SentinelPrimary {

    private SentinelPrimary() {
    }

    /** The ports of the sentinels the application connects to ({@code quarkus.redis.hosts}). */
    public static List<Integer> sentinelPorts() {
        List<Integer> sentinels = new ArrayList<>();
        for (String host : ConfigProvider.getConfig().getValue("quarkus.redis.hosts", String.class).split(",")) {
            sentinels.add(RedisInfo.portOf(host.trim()));
        }
        return sentinels;
    }

    /** The port of the primary that the sentinel on {@code sentinelPort} names now. */
    public static int primaryPort(int sentinelPort) {
        String address = RedisProcess.command(sentinelPort, "SENTINEL", "GET-MASTER-ADDR-BY-NAME",
                ConfigProvider.getConfig().getValue("quarkus.redis.master-name", String.class));
        return Integer.parseInt(address.split("\n")[1]);
    }

    /** Kills the Redis on {@code port} ({@code kill -9}): no chance to replicate what it has not sent yet. */
    public static void kill(int port) {
        long pid = Long.parseLong(RedisInfo.field(RedisProcess.command(port, "INFO", "server"), "process_id"));
        ProcessHandle.of(pid).orElseThrow().destroyForcibly();
    }
}
