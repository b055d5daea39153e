package io.quarkiverse.pacer.deployment.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.deployment.support.ClusterReshard;
import io.quarkiverse.pacer.deployment.support.RedisInfo;
import io.quarkiverse.pacer.deployment.support.ThrottleCalls;
import io.quarkiverse.pacer.runtime.devservices.RedisProcess;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.runtime.throttle.engine.ThrottleEngine;
import io.quarkiverse.pacer.throttle.ThrottleKey;
import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkiverse.pacer.throttle.Throttler;
import io.quarkus.test.QuarkusUnitTest;

/**
 * On the local 3-master Redis Cluster, a throttle key's slot moves to another master while it is being counted: during
 * the migration the old master answers {@code ASK} and Pacer sends {@code ASKING} and the call to the new one; once
 * the slot moved, the old master answers {@code MOVED} (once at most) and Pacer updates its slot map, so later calls go
 * straight to the new master. The limit holds exactly across both, and no decision falls back.
 */
class ClusterSlotMigrationTest {

    static final int LIMIT = 10;

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Api.class, ThrottleCalls.class, ClusterReshard.class, RedisInfo.class))
            .overrideConfigKey("quarkus.pacer.devservices.topology", "cluster");

    @Inject
    Throttler throttler;

    @Inject
    ThrottleEngine engine;

    @Inject
    PacerRedis redis;

    ClusterReshard cluster;

    @BeforeEach
    void cluster() {
        cluster = new ClusterReshard(ConfigProvider.getConfig().getValue("quarkus.redis.hosts", String.class));
        assertThat(redis.routesBySlot()).isTrue();
    }

    @Test
    void movedIsFollowedOnceAndTheMapUpdated() {
        String key = "moved";
        int slot = cluster.slotOf(ThrottleCalls.redisKey("migrating", key));
        int from = cluster.ownerOf(slot);
        assertThat(admitted(key, 4)).isEqualTo(4);

        int to = cluster.otherThan(from);
        assertThat(cluster.move(slot, to)).isPositive();
        long movedBefore = errors(from, "MOVED");
        // The first call is redirected (unless the periodic map refresh came first), and updates the map.
        assertThat(admitted(key, 1)).isEqualTo(1);
        long movedAfterFirst = errors(from, "MOVED");
        assertThat(movedAfterFirst).isBetween(movedBefore, movedBefore + 1);
        // 5 left of 10 on the new master: the state moved with the slot; no call goes to the old master any more.
        assertThat(admitted(key, 7)).isEqualTo(LIMIT - 5);
        assertThat(errors(from, "MOVED")).as("MOVED answers after the map was updated").isEqualTo(movedAfterFirst);
        assertThat(engine.fallbackDecisions()).as("fallback decisions").isZero();
    }

    @Test
    void askDuringAMigrationReachesTheImportingMaster() {
        String key = "asked";
        int slot = cluster.slotOf(ThrottleCalls.redisKey("migrating", key));
        int from = cluster.ownerOf(slot);
        int to = cluster.otherThan(from);
        assertThat(admitted(key, 3)).isEqualTo(3);

        // Half-way through a reshard: the slot is migrating, its keys already on the importing master.
        String fromId = RedisProcess.command(from, "CLUSTER", "MYID");
        String toId = RedisProcess.command(to, "CLUSTER", "MYID");
        RedisProcess.command(to, "CLUSTER", "SETSLOT", Integer.toString(slot), "IMPORTING", fromId);
        RedisProcess.command(from, "CLUSTER", "SETSLOT", Integer.toString(slot), "MIGRATING", toId);
        List<String> migrate = new ArrayList<>(List.of("MIGRATE", "127.0.0.1", Integer.toString(to), "", "0", "5000",
                "KEYS"));
        migrate.addAll(List.of(RedisProcess.command(from, "CLUSTER", "GETKEYSINSLOT", Integer.toString(slot), "100")
                .split("\n")));
        RedisProcess.command(from, migrate.toArray(new String[0]));
        long askBefore = errors(from, "ASK");

        assertThat(admitted(key, 4)).isEqualTo(4);
        assertThat(errors(from, "ASK")).as("ASK answers").isEqualTo(askBefore + 4);
        assertThat(cluster.ownerOf(slot)).as("the slot has not moved yet").isEqualTo(from);

        // The migration completes: the remaining 3 are counted on the new master.
        // The importing master first, as redis-cli does, so the slot is never served by neither.
        RedisProcess.command(to, "CLUSTER", "SETSLOT", Integer.toString(slot), "NODE", toId);
        for (int port : ports()) {
            if (port != to) {
                RedisProcess.command(port, "CLUSTER", "SETSLOT", Integer.toString(slot), "NODE", toId);
            }
        }
        assertThat(admitted(key, 5)).isEqualTo(LIMIT - 3 - 4);
        assertThat(engine.fallbackDecisions()).as("fallback decisions").isZero();
    }

    private static List<Integer> ports() {
        List<Integer> ports = new ArrayList<>();
        for (String host : ConfigProvider.getConfig().getValue("quarkus.redis.hosts", String.class).split(",")) {
            ports.add(RedisInfo.portOf(host.trim()));
        }
        return ports;
    }

    private int admitted(String key, int calls) {
        int admitted = 0;
        for (int i = 0; i < calls; i++) {
            if (throttler.acquire("migrating", key, 1).allowed()) {
                admitted++;
            }
        }
        return admitted;
    }

    /** Error answers of one kind a node gave ({@code INFO errorstats}). */
    private static long errors(int port, String prefix) {
        String line = "errorstat_" + prefix + ":count=";
        for (String stat : RedisProcess.command(port, "INFO", "errorstats").split("\r?\n")) {
            if (stat.startsWith(line)) {
                return Long.parseLong(stat.substring(line.length()).trim());
            }
        }
        return 0;
    }

    @ApplicationScoped
    public static class Api {
        @Throttled(name = "migrating", limit = LIMIT, window = "1d")
        public void call(@ThrottleKey String key) {
        }
    }
}
