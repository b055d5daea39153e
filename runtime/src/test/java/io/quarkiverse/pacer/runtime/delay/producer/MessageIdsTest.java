package io.quarkiverse.pacer.runtime.delay.producer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;

import org.junit.jupiter.api.Test;

import io.quarkiverse.pacer.runtime.delay.DelayedKeys;

class MessageIdsTest {

    @Test
    void idsAreVersion4UuidsInCanonicalForm() {
        for (int i = 0; i < 1_000; i++) {
            String id = MessageIds.next();
            UUID parsed = UUID.fromString(id);
            assertThat(parsed.toString()).isEqualTo(id);
            assertThat(parsed.version()).isEqualTo(4);
            assertThat(parsed.variant()).isEqualTo(2);
            assertThat(id).hasSize(36).matches("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
        }
    }

    @Test
    void idsOfManyConcurrentProducersAreAllDistinct() throws InterruptedException {
        int producers = 64;
        int each = 20_000;
        Set<String> ids = ConcurrentHashMap.newKeySet();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                for (int i = 0; i < each; i++) {
                    ids.add(MessageIds.next());
                }
            });
            thread.start();
            threads.add(thread);
        }
        start.countDown();
        for (Thread thread : threads) {
            thread.join();
        }
        assertThat(ids).hasSize(producers * each);
    }

    @Test
    void lowBitsAreABijectionSoCounterValuesNeverCollide() {
        Set<Long> lows = new HashSet<>();
        long[] starts = { 0, 1L << 31, 1L << 40, (1L << 62) - 100_000 };
        for (long from : starts) {
            for (long n = from; n < from + 100_000; n++) {
                lows.add(MessageIds.low(n));
            }
        }
        assertThat(lows).hasSize(starts.length * 100_000);
    }

    @Test
    void consecutiveIdsSpreadOverShardsLikeRandomOnes() {
        int shards = 8;
        int[] counts = new int[shards];
        for (int i = 0; i < 80_000; i++) {
            counts[DelayedKeys.shardOf(MessageIds.of(i), shards)]++;
        }
        for (int count : counts) {
            assertThat(count).isBetween(9_000, 11_000);
        }
    }
}
