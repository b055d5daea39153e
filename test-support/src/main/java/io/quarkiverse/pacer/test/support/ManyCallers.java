package io.quarkiverse.pacer.test.support;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/** Production-like concurrency: many threads released together, each calling many times. */
public final class ManyCallers {

    private ManyCallers() {
    }

    /** One call of caller {@code caller}: whether it was admitted. */
    @FunctionalInterface
    public interface Call {
        boolean run(int caller) throws Exception;
    }

    /** {@code callers} threads, released together, each calling {@code calls} times: the admissions in all. */
    public static int run(int callers, int calls, Call call) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(callers);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Integer>> futures = new ArrayList<>();
            for (int i = 0; i < callers; i++) {
                int caller = i;
                futures.add(pool.submit(() -> {
                    start.await();
                    int admitted = 0;
                    for (int c = 0; c < calls; c++) {
                        admitted += call.run(caller) ? 1 : 0;
                    }
                    return admitted;
                }));
            }
            start.countDown();
            int admitted = 0;
            for (Future<Integer> future : futures) {
                admitted += future.get(60, TimeUnit.SECONDS);
            }
            return admitted;
        } finally {
            pool.shutdownNow();
        }
    }
}
