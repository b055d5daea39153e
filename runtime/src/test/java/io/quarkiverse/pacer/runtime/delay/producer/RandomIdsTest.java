package io.quarkiverse.pacer.runtime.delay.producer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;

class RandomIdsTest {

    static final int THREADS = 64;
    /** Several refills of each stripe's buffer (256 ids each). */
    static final int IDS_PER_THREAD = 2_000;

    @Test
    void idsAreDistinctRandomUuidsFromManyThreads() throws Exception {
        RandomIds ids = new RandomIds();
        Set<String> seen = ConcurrentHashMap.newKeySet();
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                done.add(pool.submit(() -> {
                    for (int i = 0; i < IDS_PER_THREAD; i++) {
                        String id = ids.next();
                        UUID parsed = UUID.fromString(id);
                        assertThat(parsed.toString()).isEqualTo(id);
                        assertThat(parsed.version()).as(id).isEqualTo(4);
                        assertThat(parsed.variant()).as(id).isEqualTo(2);
                        seen.add(id);
                    }
                }));
            }
            for (Future<?> future : done) {
                future.get();
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(seen).hasSize(THREADS * IDS_PER_THREAD);
    }

    @Test
    void twoGeneratorsDoNotRepeatEachOther() {
        // Each generator seeds its own stripes from the OS: no two (two application instances) share a sequence.
        RandomIds one = new RandomIds();
        RandomIds other = new RandomIds();
        Set<String> first = ConcurrentHashMap.newKeySet();
        for (int i = 0; i < 1_000; i++) {
            first.add(one.next());
        }
        for (int i = 0; i < 1_000; i++) {
            assertThat(first).doesNotContain(other.next());
        }
    }
}
