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

    /** The ports of the replicas connected to the primary on {@code primaryPort}, from its {@code INFO replication}. */
    public static List<Integer> replicaPorts(int primaryPort) {
        List<Integer> replicas = new ArrayList<>();
        for (String line : RedisProcess.command(primaryPort, "INFO", "replication").split("\r?\n")) {
            // slave0:ip=127.0.0.1,port=6380,state=online,offset=...,lag=0
            if (line.startsWith("slave") && line.contains(":ip=")) {
                for (String field : line.substring(line.indexOf(':') + 1).split(",")) {
                    if (field.startsWith("port=")) {
                        replicas.add(Integer.parseInt(field.substring("port=".length())));
                    }
                }
            }
        }
        return replicas;
    }

    /** Whether the sentinel on {@code sentinelPort} flags the replica on {@code replicaPort} as down ({@code s_down}). */
    public static boolean replicaDown(int sentinelPort, int replicaPort) {
        // One flat list of field names and values, replica after replica; each replica's port comes before its flags.
        String[] fields = RedisProcess.command(sentinelPort, "SENTINEL", "REPLICAS",
                ConfigProvider.getConfig().getValue("quarkus.redis.master-name", String.class)).split("\n");
        String port = null;
        for (int i = 0; i + 1 < fields.length; i += 2) {
            if (fields[i].equals("port")) {
                port = fields[i + 1];
            } else if (fields[i].equals("flags") && Integer.toString(replicaPort).equals(port)) {
                return fields[i + 1].contains("s_down");
            }
        }
        return false;
    }

    /** Kills the Redis on {@code port} ({@code kill -9}): no chance to replicate what it has not sent yet. */
    public static void kill(int port) {
        long pid = Long.parseLong(RedisInfo.field(RedisProcess.command(port, "INFO", "server"), "process_id"));
        ProcessHandle.of(pid).orElseThrow().destroyForcibly();
    }
}
