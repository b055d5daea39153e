package io.quarkiverse.pacer.delay;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import jakarta.enterprise.util.Nonbinding;
import jakarta.inject.Qualifier;

// @formatter:off
/**
 * Names the queue of an injected {@link TypedDelayedQueue} or {@link ReactiveTypedDelayedQueue}, as Quarkus
 * Messaging's {@code @Channel} names the channel of an {@code Emitter}.
 *
 * <pre>{@code
 * @Inject
 * @DelayedQueueName("order-timeout")
 * TypedDelayedQueue<OrderRef> timeouts;
 * }</pre>
 *
 * The build checks every such injection point: the application must have the {@link Delayed} consumer of the queue,
 * and its payload type must be the type argument of the injected queue; otherwise the build fails naming the
 * injection point.
 */
// @formatter:on
@Qualifier
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ ElementType.FIELD, ElementType.PARAMETER, ElementType.METHOD })
public @interface DelayedQueueName {

    /**
     * The queue name, as in {@link Delayed#value()}.
     *
     * @return the queue name
     */
    @Nonbinding
    String value();
}
