package io.quarkiverse.pacer.benchmarks.delay;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.jboss.logging.Logger;
import org.redisson.Redisson;
import org.redisson.api.RBlockingQueue;
import org.redisson.api.RDelayedQueue;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.Config;

/**
 * Redisson's {@code RDelayedQueue} in front of an {@code RBlockingQueue}, consumed by {@code consumers} threads that
 * block on {@code poll} (Redisson's idiom), recording each delivery like Pacer's consumers do. Payloads are
 * {@code <due epoch micros>:<sequence>} strings (plain {@link StringCodec}, as Pacer passes strings through).
 */
public final class RedissonDelayedQueuePeer implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(RedissonDelayedQueuePeer.class);

    private final RedissonClient redisson;
    private final DeliveryRecorder recorder;
    private final int consumers;

    public RedissonDelayedQueuePeer(String redisUri, int connections, int consumers, DeliveryRecorder recorder) {
        Config config = new Config();
        config.setCodec(StringCodec.INSTANCE);
        config.useSingleServer()
                .setAddress(redisUri)
                .setConnectionPoolSize(connections)
                .setConnectionMinimumIdleSize(Math.min(connections, 24));
        this.redisson = Redisson.create(config);
        this.recorder = recorder;
        this.consumers = consumers;
    }

    /** One named queue with its delayed front and (once {@link Queue#startConsumers()}) its consumer threads. */
    public final class Queue implements AutoCloseable {
        private final RBlockingQueue<String> destination;
        private final RDelayedQueue<String> delayed;
        private final List<Thread> threads = new ArrayList<>();
        private volatile boolean running;

        Queue(String name) {
            destination = redisson.getBlockingQueue(name, StringCodec.INSTANCE);
            delayed = redisson.getDelayedQueue(destination);
        }

        /** Schedules a message due at {@code dueAtMicros} (epoch microseconds, the same clock as the recorder). */
        public void schedule(long dueAtMicros, long sequence) {
            // Rounded up: Redisson takes whole milliseconds, and a message must never be due before its time.
            long delayMillis = Math.max(0, (dueAtMicros - DeliveryRecorder.nowMicros() + 999) / 1000);
            delayed.offer(dueAtMicros + ":" + sequence, delayMillis, TimeUnit.MILLISECONDS);
        }

        /**
         * Offers {@code count} copies of {@code payload} (each made unique by a numeric prefix, as a UUID-sized id
         * would be), due in {@code delayMillis}, in batches so the harness is not the bottleneck.
         */
        public void offerAll(String payload, int count, long delayMillis) {
            List<org.redisson.api.RFuture<Void>> pending = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                pending.add(delayed.offerAsync(String.format("%08d-0000-4000-8000-000000000000:", i) + payload,
                        delayMillis, TimeUnit.MILLISECONDS));
                if (pending.size() == 1_000) {
                    pending.forEach(future -> future.toCompletableFuture().join());
                    pending.clear();
                }
            }
            pending.forEach(future -> future.toCompletableFuture().join());
        }

        public void startConsumers() {
            running = true;
            for (int i = 0; i < consumers; i++) {
                Thread thread = new Thread(this::consume, "redisson-consumer-" + i);
                thread.setDaemon(true);
                threads.add(thread);
                thread.start();
            }
        }

        private void consume() {
            while (running) {
                try {
                    String message = destination.poll(200, TimeUnit.MILLISECONDS);
                    if (message != null) {
                        int colon = message.indexOf(':');
                        recorder.delivered(Long.parseLong(message.substring(0, colon)));
                    }
                } catch (InterruptedException e) {
                    return;
                } catch (RuntimeException e) {
                    if (running) {
                        LOG.debugf("Redisson consumer: %s", e.getMessage());
                    }
                }
            }
        }

        @Override
        public void close() {
            running = false;
            for (Thread thread : threads) {
                try {
                    thread.join(2000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            delayed.destroy();
        }
    }

    public Queue queue(String name) {
        return new Queue(name);
    }

    @Override
    public void close() {
        redisson.shutdown();
    }
}
