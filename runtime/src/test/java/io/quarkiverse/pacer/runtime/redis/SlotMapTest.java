package io.quarkiverse.pacer.runtime.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.vertx.core.buffer.Buffer;
import io.vertx.redis.client.Response;
import io.vertx.redis.client.impl.types.BulkType;
import io.vertx.redis.client.impl.types.MultiType;
import io.vertx.redis.client.impl.types.NumberType;

/** {@code CLUSTER SHARDS} (RESP2 and RESP3) and {@code CLUSTER SLOTS} replies as Redis 7 and 6.2 send them. */
class SlotMapTest {

    @Test
    void shardsAsResp3Maps() {
        Response reply = multi(false,
                shard(true, List.of(0, 5460), node(true, "a", "127.0.0.1", 7000, "master", "online"),
                        node(true, "b", "127.0.0.1", 7003, "replica", "online")),
                shard(true, List.of(5461, 10922), node(true, "c", "127.0.0.1", 7001, "master", "online")),
                shard(true, List.of(10923, 12000, 12002, 16383),
                        node(true, "d", "127.0.0.1", 7002, "master", "online")));
        SlotMap map = SlotMap.fromShards(reply, "seed");
        assertThat(map.masterOf(0)).isEqualTo("127.0.0.1:7000");
        assertThat(map.masterOf(5460)).isEqualTo("127.0.0.1:7000");
        assertThat(map.masterOf(5461)).isEqualTo("127.0.0.1:7001");
        assertThat(map.masterOf(12001)).isNull();
        assertThat(map.masterOf(16383)).isEqualTo("127.0.0.1:7002");
        assertThat(map.masters()).containsExactly("127.0.0.1:7000", "127.0.0.1:7001", "127.0.0.1:7002");
        assertThat(map.unservedSlots()).isEqualTo(1);
    }

    @Test
    void shardsAsResp2ArraysPreferTheOnlineMaster() {
        // After a failover the old master may still be listed as a failed master beside the promoted one.
        Response reply = multi(false, shard(false, List.of(0, 16383),
                node(false, "old", "127.0.0.1", 7000, "master", "failed"),
                node(false, "new", "127.0.0.1", 7003, "master", "online")));
        SlotMap map = SlotMap.fromShards(reply, "seed");
        assertThat(map.masters()).containsExactly("127.0.0.1:7003");
        assertThat(map.unservedSlots()).isZero();
    }

    @Test
    void unknownEndpointIsTheAnsweringHost() {
        Response reply = multi(false, shard(true, List.of(0, 16383), node(true, "a", "?", 7000, "master", "online")));
        assertThat(SlotMap.fromShards(reply, "redis-a.example").masterOf(42)).isEqualTo("redis-a.example:7000");
    }

    @Test
    void slotsOfRedis62() {
        Response reply = multi(false,
                multi(false, num(0), num(8191), multi(false, bulk("127.0.0.1"), num(7000), bulk("id-a")),
                        multi(false, bulk("127.0.0.1"), num(7003), bulk("id-r"))),
                multi(false, num(8192), num(16383), multi(false, bulk(""), num(7001), bulk("id-b"))));
        SlotMap map = SlotMap.fromSlots(reply, "10.0.0.5");
        assertThat(map.masterOf(8191)).isEqualTo("127.0.0.1:7000");
        assertThat(map.masterOf(8192)).isEqualTo("10.0.0.5:7001");
        assertThat(map.masters()).containsExactly("127.0.0.1:7000", "10.0.0.5:7001");
    }

    @Test
    void movedSlotMakesANewSnapshot() {
        SlotMap map = SlotMap.fromSlots(multi(false, multi(false, num(0), num(16383),
                multi(false, bulk("h"), num(1), bulk("x")))), "h");
        SlotMap moved = map.withSlot(7, "h:2");
        assertThat(moved.masterOf(7)).isEqualTo("h:2");
        assertThat(map.masterOf(7)).isEqualTo("h:1");
        assertThat(moved.masters()).containsExactly("h:1", "h:2");
        assertThat(moved.withSlot(7, "h:2")).isSameAs(moved);
    }

    @Test
    void endpointsSplitAtTheLastColon() {
        assertThat(SlotMap.hostOf("::1:7000")).isEqualTo("::1");
        assertThat(SlotMap.portOf("::1:7000")).isEqualTo(7000);
    }

    private static Response shard(boolean resp3, List<Integer> slots, Response... nodes) {
        Response[] ranges = slots.stream().map(SlotMapTest::num).toArray(Response[]::new);
        return pairs(resp3, "slots", multi(false, ranges), "nodes", multi(false, nodes));
    }

    private static Response node(boolean resp3, String id, String ip, int port, String role, String health) {
        return pairs(resp3, "id", bulk(id), "port", num(port), "ip", bulk(ip), "endpoint", bulk(ip), "role",
                bulk(role), "replication-offset", num(100), "health", bulk(health));
    }

    private static Response pairs(boolean asMap, Object... keysAndValues) {
        MultiType result = MultiType.create(asMap ? keysAndValues.length / 2 : keysAndValues.length, asMap);
        for (Object item : keysAndValues) {
            result.add(item instanceof Response response ? response : bulk((String) item));
        }
        return result;
    }

    private static Response multi(boolean asMap, Response... items) {
        MultiType result = MultiType.create(items.length, false);
        for (Response item : items) {
            result.add(item);
        }
        return result;
    }

    private static Response bulk(String text) {
        return BulkType.create(Buffer.buffer(text), false);
    }

    private static Response num(int value) {
        return NumberType.create(value);
    }
}
