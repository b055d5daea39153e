package io.quarkiverse.pacer.test.support;

import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.quarkiverse.pacer.devservices.common.RedisProcess;

/**
 * The local Redis Cluster Pacer's Dev Services started, seen from a test through its nodes' ports: which master owns a
 * key's slot, which replica follows it, killing a node ({@code kill -9}) and starting it again on its port and
 * directory (it rejoins with its {@code nodes.conf}), and waiting for the cluster to settle. Everything is read from
 * {@code CLUSTER NODES} and {@code INFO}; nothing goes through Pacer.
 */
public final class LocalCluster implements AutoCloseable {

    private static final Duration SETTLE = Duration.ofSeconds(60);

    /** One line of {@code CLUSTER NODES}: the node's port, role, health and the slot ranges it serves. */
    public record Node(String id, int port, boolean master, boolean failed, String masterId, List<int[]> slots) {

        boolean serves(int slot) {
            return slots.stream().anyMatch(range -> slot >= range[0] && slot <= range[1]);
        }
    }

    private final List<Integer> ports = new ArrayList<>();
    private final List<RedisProcess> restarted = new ArrayList<>();

    /** {@code hosts}: {@code quarkus.redis.hosts} of the cluster (every node). */
    public LocalCluster(String hosts) {
        for (String host : hosts.split(",")) {
            ports.add(RedisInfo.portOf(host.trim()));
        }
    }

    public int slotOf(String key) {
        return Integer.parseInt(command(anyLivePort(), "CLUSTER", "KEYSLOT", key));
    }

    /** The nodes as a live node sees them. */
    public List<Node> nodes() {
        return nodesSeenBy(anyLivePort());
    }

    private static List<Node> nodesSeenBy(int port) {
        List<Node> nodes = new ArrayList<>();
        for (String line : command(port, "CLUSTER", "NODES").split("\n")) {
            String[] fields = line.trim().split(" ");
            if (fields.length < 8) {
                continue;
            }
            String address = fields[1];
            int nodePort = Integer.parseInt(address.substring(address.indexOf(':') + 1, address.indexOf('@')));
            List<int[]> slots = new ArrayList<>();
            for (int i = 8; i < fields.length; i++) {
                if (fields[i].startsWith("[")) {
                    continue; // a slot being imported or migrated
                }
                int dash = fields[i].indexOf('-');
                int first = Integer.parseInt(dash < 0 ? fields[i] : fields[i].substring(0, dash));
                slots.add(new int[] { first, dash < 0 ? first : Integer.parseInt(fields[i].substring(dash + 1)) });
            }
            String flags = fields[2];
            nodes.add(new Node(fields[0], nodePort, flags.contains("master"),
                    flags.contains("fail") || flags.contains("noaddr"), fields[3], slots));
        }
        return nodes;
    }

    /** The port of the master serving {@code slot} now. */
    public int masterOf(int slot) {
        return nodes().stream().filter(node -> node.master() && !node.failed() && node.serves(slot))
                .map(Node::port).findFirst()
                .orElseThrow(() -> new IllegalStateException("No live master serves slot " + slot));
    }

    public int masterOfKey(String key) {
        return masterOf(slotOf(key));
    }

    /** The port of a replica following the master on {@code masterPort}, if it has one. */
    public Optional<Integer> replicaOf(int masterPort) {
        List<Node> nodes = nodes();
        String masterId = nodes.stream().filter(node -> node.port() == masterPort).findFirst().orElseThrow().id();
        return nodes.stream().filter(node -> !node.master() && !node.failed() && node.masterId().equals(masterId))
                .map(Node::port).findFirst();
    }

    /** Every live master's port. */
    public List<Integer> masters() {
        return nodes().stream().filter(node -> node.master() && !node.failed() && !node.slots().isEmpty())
                .map(Node::port).toList();
    }

    /**
     * Waits until the replica of {@code masterPort} is in sync: its replication offset equals the master's, which
     * {@code WAIT} checks on the master.
     */
    public void awaitReplicated(int masterPort) {
        await().atMost(SETTLE).until(() -> "1".equals(command(masterPort, "WAIT", "1", "100")));
    }

    /** Kills the node on {@code port} with SIGKILL (no chance to reply, replicate or say goodbye). */
    public void kill(int port) {
        long pid = Long.parseLong(RedisInfo.field(command(port, "INFO", "server"), "process_id"));
        ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        await().atMost(SETTLE).until(() -> !answers(port));
    }

    /** Starts the node on {@code port} again (empty, but with its cluster identity), after {@link #kill}. */
    public void restart(int port, Path executable, Path directory) {
        restarted.add(RedisProcess.startClusterNode(executable, directory.getParent(), port));
    }

    /** The executable and working directory of the node on {@code port}, to {@link #restart} it after a kill. */
    public Path[] executableAndDirectory(int port) {
        String executable = RedisInfo.field(command(port, "INFO", "server"), "executable");
        String dir = command(port, "CONFIG", "GET", "dir").split("\n")[1];
        return new Path[] { Path.of(executable), Path.of(dir) };
    }

    /**
     * Waits until the cluster settled after {@code killed} died: every live node reports {@code cluster_state:ok}
     * and sees {@code killed} as failed, and every slot is served by a live master (the promoted replica's).
     */
    public void awaitFailedOver(int killed) {
        await().atMost(SETTLE).until(() -> livePorts().stream().allMatch(port -> {
            List<Node> seen = nodesSeenBy(port);
            boolean killedFailed = seen.stream().anyMatch(node -> node.port() == killed && node.failed());
            int served = seen.stream().filter(node -> node.master() && !node.failed())
                    .mapToInt(node -> node.slots().stream().mapToInt(range -> range[1] - range[0] + 1).sum()).sum();
            return killedFailed && served == 16384 && command(port, "CLUSTER", "INFO").contains("cluster_state:ok");
        }));
    }

    /** Waits until every live node sees {@code failed} as failed (its slots are then refused by the survivors). */
    public void awaitSeenFailed(int failed) {
        await().atMost(SETTLE).until(() -> livePorts().stream()
                .allMatch(port -> nodesSeenBy(port).stream().anyMatch(node -> node.port() == failed && node.failed())));
    }

    /** Waits until every node answers, reports {@code cluster_state:ok} and sees no node failed. */
    public void awaitHealthy() {
        await().atMost(SETTLE).until(() -> livePorts().size() == ports.size() && ports.stream().allMatch(
                port -> command(port, "CLUSTER", "INFO").contains("cluster_state:ok")
                        && nodesSeenBy(port).stream().noneMatch(Node::failed)));
    }

    private List<Integer> livePorts() {
        return ports.stream().filter(LocalCluster::answers).toList();
    }

    private int anyLivePort() {
        return livePorts().stream().findFirst().orElseThrow(() -> new IllegalStateException("No node answers"));
    }

    private static boolean answers(int port) {
        try {
            return "PONG".equals(command(port, "PING"));
        } catch (IllegalStateException e) {
            return false;
        }
    }

    public static String command(int port, String... arguments) {
        return RedisProcess.command(port, arguments);
    }

    /** Stops the nodes this handle restarted (the Dev Services stop the others). */
    @Override
    public void close() {
        restarted.forEach(RedisProcess::stop);
        restarted.clear();
    }
}
