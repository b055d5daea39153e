package io.quarkiverse.pacer.test.support;

import java.util.ArrayList;
import java.util.List;

import io.quarkiverse.pacer.devservices.common.RedisProcess;

/**
 * Moves hash slots between the masters of the local Redis Cluster the way {@code redis-cli --cluster reshard} does:
 * {@code SETSLOT IMPORTING/MIGRATING}, {@code MIGRATE} of the slot's keys in small batches, then {@code SETSLOT NODE}
 * on both nodes. Clients see {@code ASK}/{@code TRYAGAIN} while a slot moves and {@code MOVED} afterwards.
 */
public final class ClusterReshard {

    private final List<Integer> ports;

    /** {@code hosts}: {@code quarkus.redis.hosts} of the cluster. */
    public ClusterReshard(String hosts) {
        this.ports = new ArrayList<>();
        for (String host : hosts.split(",")) {
            ports.add(RedisInfo.portOf(host.trim()));
        }
    }

    public int slotOf(String key) {
        return Integer.parseInt(RedisProcess.command(ports.get(0), "CLUSTER", "KEYSLOT", key));
    }

    /** The port of the master serving {@code slot}. */
    public int ownerOf(int slot) {
        for (int port : ports) {
            for (String line : RedisProcess.command(port, "CLUSTER", "NODES").split("\n")) {
                String[] fields = line.trim().split(" ");
                if (fields.length < 9 || !fields[2].contains("myself")) {
                    continue;
                }
                for (int i = 8; i < fields.length; i++) {
                    String range = fields[i];
                    if (range.startsWith("[")) {
                        continue;
                    }
                    int dash = range.indexOf('-');
                    int first = Integer.parseInt(dash < 0 ? range : range.substring(0, dash));
                    int last = dash < 0 ? first : Integer.parseInt(range.substring(dash + 1));
                    if (slot >= first && slot <= last) {
                        return port;
                    }
                }
            }
        }
        throw new IllegalStateException("No master serves slot " + slot);
    }

    /** The number of fields of the hash {@code key}, read on the master serving its slot. */
    public long hashLength(String key) {
        return Long.parseLong(RedisProcess.command(ownerOf(slotOf(key)), "HLEN", key));
    }

    /** Another master than {@code port}. */
    public int otherThan(int port) {
        return ports.stream().filter(p -> p != port).findFirst().orElseThrow();
    }

    /** Moves {@code slot} to the master on {@code toPort}, a few keys at a time; returns the number of keys moved. */
    public int move(int slot, int toPort) {
        int fromPort = ownerOf(slot);
        if (fromPort == toPort) {
            return 0;
        }
        String fromId = RedisProcess.command(fromPort, "CLUSTER", "MYID");
        String toId = RedisProcess.command(toPort, "CLUSTER", "MYID");
        String slotText = Integer.toString(slot);
        RedisProcess.command(toPort, "CLUSTER", "SETSLOT", slotText, "IMPORTING", fromId);
        RedisProcess.command(fromPort, "CLUSTER", "SETSLOT", slotText, "MIGRATING", toId);
        int moved = 0;
        while (true) {
            String keys = RedisProcess.command(fromPort, "CLUSTER", "GETKEYSINSLOT", slotText, "20");
            if (keys == null || keys.isEmpty()) {
                break;
            }
            List<String> command = new ArrayList<>(List.of("MIGRATE", "127.0.0.1", Integer.toString(toPort), "", "0",
                    "5000", "KEYS"));
            for (String key : keys.split("\n")) {
                command.add(key);
                moved++;
            }
            RedisProcess.command(fromPort, command.toArray(new String[0]));
        }
        RedisProcess.command(toPort, "CLUSTER", "SETSLOT", slotText, "NODE", toId);
        RedisProcess.command(fromPort, "CLUSTER", "SETSLOT", slotText, "NODE", toId);
        for (int port : ports) {
            if (port != fromPort && port != toPort) {
                RedisProcess.command(port, "CLUSTER", "SETSLOT", slotText, "NODE", toId);
            }
        }
        return moved;
    }
}
