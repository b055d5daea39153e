package io.quarkiverse.pacer.runtime.redis;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import io.vertx.redis.client.Response;

/**
 * An immutable snapshot of a Redis Cluster's slot map: the master endpoint ({@code host:port}) serving each hash slot,
 * parsed from {@code CLUSTER SHARDS} (Redis 7+) or {@code CLUSTER SLOTS} (Redis 6.2). Replicas are not kept: Pacer
 * sends every call to the master of its slot.
 */
final class SlotMap {

    private final String[] masterBySlot;
    private final List<String> masters;

    private SlotMap(String[] masterBySlot) {
        this.masterBySlot = masterBySlot;
        Set<String> distinct = new LinkedHashSet<>();
        for (String master : masterBySlot) {
            if (master != null) {
                distinct.add(master);
            }
        }
        this.masters = List.copyOf(distinct);
    }

    /** The master serving {@code slot}, or {@code null} when no master serves it. */
    String masterOf(int slot) {
        return masterBySlot[slot];
    }

    /** Every master serving at least one slot, in slot order. */
    List<String> masters() {
        return masters;
    }

    /** Slots no master serves. */
    int unservedSlots() {
        int unserved = 0;
        for (String master : masterBySlot) {
            if (master == null) {
                unserved++;
            }
        }
        return unserved;
    }

    /** This map with {@code slot} moved to {@code master} (after a {@code MOVED} redirection). */
    SlotMap withSlot(int slot, String master) {
        if (master.equals(masterBySlot[slot])) {
            return this;
        }
        String[] copy = Arrays.copyOf(masterBySlot, masterBySlot.length);
        copy[slot] = master;
        return new SlotMap(copy);
    }

    /**
     * Parses a {@code CLUSTER SHARDS} reply (RESP2 arrays or RESP3 maps). Per shard, the master is the node with role
     * {@code master}, preferring one whose health is {@code online} (a failed master may still be listed).
     *
     * @param askedHost the host of the node that answered, for nodes that do not know their own address
     */
    static SlotMap fromShards(Response shards, String askedHost) {
        String[] bySlot = new String[ClusterSlots.SLOTS];
        for (Response shard : shards) {
            Response slots = shard.get("slots");
            String master = null;
            boolean online = false;
            for (Response node : shard.get("nodes")) {
                if (!"master".equals(text(node.get("role")))) {
                    continue;
                }
                boolean healthy = "online".equals(text(node.get("health")));
                if (master == null || healthy && !online) {
                    String host = text(node.get("endpoint"));
                    if (host == null || host.isEmpty() || "?".equals(host)) {
                        host = text(node.get("ip"));
                    }
                    Response port = node.containsKey("port") ? node.get("port") : node.get("tls-port");
                    master = endpoint(host, port.toInteger(), askedHost);
                    online = healthy;
                }
            }
            if (master == null || slots == null) {
                continue;
            }
            // RESP2 and RESP3 both give the ranges as a flat list: start, end, start, end ...
            for (int i = 0; i + 1 < slots.size(); i += 2) {
                Arrays.fill(bySlot, slots.get(i).toInteger(), slots.get(i + 1).toInteger() + 1, master);
            }
        }
        return new SlotMap(bySlot);
    }

    /**
     * Parses a {@code CLUSTER SLOTS} reply: {@code [start, end, [host, port, id, ...], [replica ...] ...]} per range.
     *
     * @param askedHost the host of the node that answered, for nodes that do not know their own address
     */
    static SlotMap fromSlots(Response ranges, String askedHost) {
        String[] bySlot = new String[ClusterSlots.SLOTS];
        for (Response range : ranges) {
            if (range.size() < 3) {
                continue;
            }
            Response master = range.get(2);
            String endpoint = endpoint(text(master.get(0)), master.get(1).toInteger(), askedHost);
            Arrays.fill(bySlot, range.get(0).toInteger(), range.get(1).toInteger() + 1, endpoint);
        }
        return new SlotMap(bySlot);
    }

    /** {@code host:port}; an empty or unknown ({@code ?}) host is the one of the node that answered. */
    static String endpoint(String host, int port, String askedHost) {
        String known = host == null || host.isEmpty() || "?".equals(host) ? askedHost : host;
        return known + ":" + port;
    }

    /** The host of a {@code host:port} endpoint (IPv6 hosts contain colons too). */
    static String hostOf(String endpoint) {
        return endpoint.substring(0, endpoint.lastIndexOf(':'));
    }

    /** The port of a {@code host:port} endpoint. */
    static int portOf(String endpoint) {
        return Integer.parseInt(endpoint.substring(endpoint.lastIndexOf(':') + 1));
    }

    private static String text(Response value) {
        return value == null ? null : value.toString();
    }

    @Override
    public String toString() {
        return "SlotMap" + masters + (unservedSlots() > 0 ? " (" + unservedSlots() + " slots unserved)" : "");
    }
}
