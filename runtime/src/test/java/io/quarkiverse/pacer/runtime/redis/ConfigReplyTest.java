package io.quarkiverse.pacer.runtime.redis;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.vertx.core.buffer.Buffer;
import io.vertx.redis.client.Response;
import io.vertx.redis.client.impl.types.BulkType;
import io.vertx.redis.client.impl.types.MultiType;

/** {@code CONFIG GET} replies as RESP2 arrays and RESP3 maps. */
class ConfigReplyTest {

    @Test
    void readsTheValueFromEitherProtocol() {
        assertThat(ConfigReply.value(reply(false, "maxmemory-policy", "allkeys-lru"), "maxmemory-policy"))
                .isEqualTo("allkeys-lru");
        assertThat(ConfigReply.value(reply(true, "maxmemory-policy", "noeviction"), "maxmemory-policy"))
                .isEqualTo("noeviction");
    }

    @Test
    void nullWhenTheReplyDoesNotCarryTheSetting() {
        assertThat(ConfigReply.value(reply(true, "maxmemory-policy", "noeviction"), "cluster-require-full-coverage"))
                .isNull();
        assertThat(ConfigReply.value(MultiType.create(0, true), "maxmemory-policy")).isNull();
        assertThat(ConfigReply.value(bulk("maxmemory-policy"), "maxmemory-policy")).isNull();
        assertThat(ConfigReply.value(null, "maxmemory-policy")).isNull();
    }

    private static Response reply(boolean resp3, String name, String value) {
        MultiType reply = MultiType.create(resp3 ? 1 : 2, resp3);
        reply.add(bulk(name));
        reply.add(bulk(value));
        return reply;
    }

    private static Response bulk(String text) {
        return BulkType.create(Buffer.buffer(text), false);
    }
}
