package io.quarkiverse.pacer.runtime.delay.producer;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.SocketException;
import java.util.concurrent.CompletionException;

import org.junit.jupiter.api.Test;

import io.quarkiverse.pacer.delay.RedisOverloadedException;
import io.quarkiverse.pacer.delay.RedisTimeoutException;
import io.quarkiverse.pacer.delay.RedisUnavailableException;
import io.vertx.redis.client.impl.types.ErrorType;

class ProducerRetryTest {

    @Test
    void retriesWhatAnOutageOrAFailoverCauses() {
        assertThat(ProducerRetry.isOutage(new RedisUnavailableException("Redis is unreachable"))).isTrue();
        assertThat(ProducerRetry.isOutage(new RedisTimeoutException("no connection to Redis within 1000 ms"))).isTrue();
        // A connection reset under a written request (seen in a Sentinel failover).
        assertThat(ProducerRetry.isOutage(new CompletionException(new SocketException("Connection reset")))).isTrue();
        assertThat(ProducerRetry.isOutage(ErrorType.create("READONLY You can't write against a read only replica.")))
                .isTrue();
        assertThat(ProducerRetry.isOutage(ErrorType.create("LOADING Redis is loading the dataset in memory"))).isTrue();
        assertThat(ProducerRetry.isOutage(ErrorType.create("CLUSTERDOWN The cluster is down"))).isTrue();
    }

    @Test
    void failsAtOnceOnEverythingElse() {
        assertThat(ProducerRetry.isOutage(ErrorType.create("WRONGTYPE Operation against a key holding the wrong kind")))
                .isFalse();
        assertThat(ProducerRetry.isOutage(ErrorType.create("ERR user_script:12: bad state"))).isFalse();
        assertThat(ProducerRetry.isOutage(new RedisOverloadedException("Pacer's Redis request queue is full")))
                .isFalse();
        assertThat(ProducerRetry.isOutage(new IllegalStateException("no replica acknowledged"))).isFalse();
        assertThat(ProducerRetry.isOutage(new IllegalArgumentException("bad id"))).isFalse();
    }
}
