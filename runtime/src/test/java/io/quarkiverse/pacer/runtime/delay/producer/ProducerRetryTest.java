package io.quarkiverse.pacer.runtime.delay.producer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.SocketException;
import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.quarkiverse.pacer.delay.DurabilityUnavailableException;
import io.quarkiverse.pacer.delay.DurabilityUnconfirmedException;
import io.quarkiverse.pacer.delay.RedisOverloadedException;
import io.quarkiverse.pacer.delay.RedisTimeoutException;
import io.quarkiverse.pacer.delay.RedisUnavailableException;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
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

    @Test
    void aRefusalAfterALostAttemptDoesNotSayNothingWasStored() {
        Vertx vertx = Vertx.vertx();
        try {
            ProducerRetry retry = new ProducerRetry(vertx, Duration.ofSeconds(5));
            AtomicInteger attempts = new AtomicInteger();
            // The first attempt was written, then its connection was lost (a master killed); the next one finds the
            // promoted master without a replica.
            Uni<String> call = retry.call(() -> attempts.incrementAndGet() == 1
                    ? Uni.createFrom().failure(new CompletionException(new SocketException("Connection reset")))
                    : Uni.createFrom().failure(refused()));

            assertThatThrownBy(() -> call.await().atMost(Duration.ofSeconds(5)))
                    .isInstanceOf(DurabilityUnconfirmedException.class)
                    // The words the guide gives for a write that may be stored but is not confirmed.
                    .hasMessageContaining("stored by the primary but not confirmed by a replica")
                    .hasMessageContaining("shard 3")
                    .hasMessageContaining("127.0.0.1:7001")
                    .hasCauseInstanceOf(DurabilityUnavailableException.class)
                    .satisfies(e -> assertThat(((DurabilityUnconfirmedException) e).queue()).isEqualTo("orders"));
            assertThat(attempts).hasValue(2);
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().join();
        }
    }

    @Test
    void aRefusalOnTheFirstAttemptSaysNothingWasStored() {
        Vertx vertx = Vertx.vertx();
        try {
            ProducerRetry retry = new ProducerRetry(vertx, Duration.ofSeconds(5));
            Uni<String> call = retry.call(() -> Uni.createFrom().failure(refused()));

            assertThatThrownBy(() -> call.await().atMost(Duration.ofSeconds(5)))
                    .isInstanceOf(DurabilityUnavailableException.class);
            assertThatThrownBy(() -> retry.<String> callAgain(() -> Uni.createFrom().failure(refused()))
                    .await().atMost(Duration.ofSeconds(5))).isInstanceOf(DurabilityUnconfirmedException.class);
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().join();
        }
    }

    private static DurabilityUnavailableException refused() {
        return new DurabilityUnavailableException("orders", 3, "127.0.0.1:7001", "not stored", null);
    }
}
