package io.quarkiverse.pacer.delay;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

// @formatter:off
/**
 * Marks a bean method as the consumer of a delay queue: Pacer invokes it, in some instance of the application, for
 * every message scheduled on the queue once the message is due.
 * <p>
 * The method takes exactly one parameter, either the payload type itself or {@link DelayedMessage}{@code <T>} (to see
 * the id, due time and attempt), and returns {@code void}, {@code Uni<Void>} or {@code CompletionStage<Void>}. Payloads
 * are decoded with the application's Jackson {@code ObjectMapper}; {@code String} and {@code byte[]} pass through
 * untouched. There is at most one consumer method per queue; the build fails otherwise.
 *
 * <pre>{@code
 * @ApplicationScoped
 * public class OrderTimeouts {
 *
 *     @Delayed(value = "order-timeout", concurrency = 4, maxAttempts = 10, backoff = "2s", lease = "1m")
 *     void expire(OrderRef order) {
 *         orders.cancelIfUnpaid(order.id()); // idempotent: a message can be delivered more than once
 *     }
 * }
 *
 * // a producer, checked at build time against expire(OrderRef)
 * @ApplicationScoped
 * public class Checkout {
 *
 *     @Inject
 *     @DelayedQueueName("order-timeout")
 *     TypedDelayedQueue<OrderRef> timeouts;
 *
 *     void placed(long orderId) {
 *         timeouts.scheduleWithId("order-" + orderId, new OrderRef(orderId), Duration.ofMinutes(30));
 *     }
 * }
 * }</pre>
 *
 * <p>
 * Delivery is <em>at least once</em>. A claimed message is leased to one consumer for {@link #lease()}; a method
 * that returns normally acknowledges it, a method that throws (or whose {@code Uni}/{@code CompletionStage} fails)
 * schedules a retry after an exponential backoff with jitter, and after {@link #maxAttempts()} failures the message
 * moves to the queue's dead letters (see {@link DelayedQueue#deadLetters(String, int)}). A consumer that dies while
 * holding a lease loses nothing: when the lease expires another instance receives the message again.
 * <p>
 * Blocking methods ({@code void}) run on worker threads; reactive methods ({@code Uni}, {@code CompletionStage}) are
 * invoked on a Vert.x event loop and must not block. {@code @Blocking}, {@code @NonBlocking} or
 * {@code @RunOnVirtualThread} on the method choose the thread instead; {@code @RunOnVirtualThread} runs on a virtual
 * thread on Java 21 and later, and on a worker thread on Java 17. Kotlin {@code suspend} functions are not supported
 * (the build fails). Every member can be overridden at runtime with
 * {@code quarkus.pacer.delayed."<queue>".concurrency|max-attempts|backoff|lease|enabled}.
 *
 * @see DelayedQueue
 * @see TypedDelayedQueue
 */
// @formatter:on
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Delayed {

    /**
     * The queue name, for example {@code "order-timeout"}: the name producers pass to {@link DelayedQueue} and
     * {@link DelayedQueueName}. Non-empty, without <code>&#123;</code> or <code>&#125;</code>; {@code consumer} and
     * {@code after-commit} are
     * reserved.
     *
     * @return the queue name
     */
    String value();

    /**
     * How many messages of this queue one application instance handles at the same time. Each instance applies the
     * limit on its own, so {@code N} instances process up to {@code N * concurrency} messages at once.
     *
     * @return the messages handled at once per instance, at least 1
     */
    int concurrency() default 1;

    /**
     * How many times a failing message is handled before it is dead-lettered, counting the first delivery. Lease
     * expiries (a consumer that died) are counted separately and do not consume attempts.
     *
     * @return the attempts, at least 1
     */
    int maxAttempts() default 5;

    /**
     * The delay before the first retry; retry {@code n} waits {@code backoff * 2^(n-1)} (capped at one hour) with
     * random jitter of up to 20%. A duration such as {@code "500ms"}, {@code "1s"}, {@code "5m"}, {@code "1h"},
     * {@code "1d"}, or ISO-8601 ({@code "PT30S"}).
     *
     * @return the first retry delay
     */
    String backoff() default "1s";

    /**
     * The visibility timeout: how long a claimed message stays invisible to other consumers. Pacer renews the lease of
     * a running handler, so this bounds how long a <em>dead</em> consumer delays a message, not how long a handler may
     * run. At least {@code 100ms}. Same format as {@link #backoff()}.
     *
     * @return the lease
     */
    String lease() default "30s";
}
