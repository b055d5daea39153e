package io.quarkiverse.pacer.test.support;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

/**
 * Fires calls from many threads at once, half through one instance and half through the other, and counts how many
 * were admitted.
 */
public final class ConcurrentLoad {

    public static final int THREADS = 32;

    private ConcurrentLoad() {
    }

    /**
     * Starts {@link #THREADS} threads together; even threads call {@code first}, odd ones {@code second}, each
     * {@code callsPerThread} times.
     *
     * @return the number of admitted calls
     */
    public static int run(int callsPerThread, BooleanSupplier first, BooleanSupplier second) throws InterruptedException {
        CountDownLatch start = new CountDownLatch(1);
        AtomicInteger admitted = new AtomicInteger();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            BooleanSupplier call = t % 2 == 0 ? first : second;
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                    for (int i = 0; i < callsPerThread; i++) {
                        if (call.getAsBoolean()) {
                            admitted.incrementAndGet();
                        }
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }, "load-" + t);
            thread.start();
            threads.add(thread);
        }
        start.countDown();
        for (Thread thread : threads) {
            thread.join(60_000);
        }
        if (failure.get() != null) {
            throw new AssertionError("a load thread failed", failure.get());
        }
        return admitted.get();
    }
}
