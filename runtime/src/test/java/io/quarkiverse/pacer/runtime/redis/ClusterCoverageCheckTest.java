package io.quarkiverse.pacer.runtime.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.vertx.core.buffer.Buffer;
import io.vertx.redis.client.Response;
import io.vertx.redis.client.impl.types.BulkType;
import io.vertx.redis.client.impl.types.MultiType;

/** {@code CONFIG GET cluster-require-full-coverage} replies of the masters, as RESP2 arrays and RESP3 maps. */
class ClusterCoverageCheckTest {

    @Test
    void countsTheMastersRequiringFullCoverage() {
        List<Response> answers = List.of(reply(true, "yes"), reply(false, "yes"), reply(true, "no"));
        assertThat(ClusterCoverageCheck.warnIfFullCoverage("<default>", answers)).isEqualTo(2);
    }

    @Test
    void noWarningWhenEveryMasterServesWithoutFullCoverage() {
        List<Response> answers = List.of(reply(true, "no"), reply(false, "no"), MultiType.create(0, true));
        assertThat(ClusterCoverageCheck.warnIfFullCoverage("<default>", answers)).isZero();
    }

    private static Response reply(boolean resp3, String value) {
        MultiType reply = MultiType.create(resp3 ? 1 : 2, resp3);
        reply.add(bulk(ClusterCoverageCheck.SETTING));
        reply.add(bulk(value));
        return reply;
    }

    private static Response bulk(String text) {
        return BulkType.create(Buffer.buffer(text), false);
    }
}
