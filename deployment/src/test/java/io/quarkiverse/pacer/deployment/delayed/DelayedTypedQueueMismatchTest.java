package io.quarkiverse.pacer.deployment.delayed;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import jakarta.enterprise.inject.spi.DeploymentException;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.delay.DelayedQueueName;
import io.quarkiverse.pacer.delay.ReactiveTypedDelayedQueue;
import io.quarkiverse.pacer.delay.TypedDelayedQueue;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A typed queue handle whose queue has no consumer, or whose payload type is not the consumer's, fails the build,
 * naming the injection point, the queue and both types.
 */
class DelayedTypedQueueMismatchTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(OrderRef.class, Consumer.class, Producer.class))
            .assertException(t -> {
                assertThat(t).isInstanceOf(DeploymentException.class);
                assertThat(t.getMessage()).startsWith("Invalid typed delay queue injection:\n - ")
                        .contains("TypedDelayedQueue of queue \"order-timeuot\" injected into "
                                + Producer.class.getName() + "#typo: the application has no @Delayed(\"order-timeuot\")"
                                + " consumer method (queues with a consumer: order-timeout)")
                        .contains("TypedDelayedQueue of queue \"order-timeout\" injected into "
                                + Producer.class.getName() + "#wrongType: its payload type java.lang.String differs"
                                + " from " + OrderRef.class.getName() + ", the payload type of"
                                + " @Delayed(\"order-timeout\") declared on " + Consumer.class.getName()
                                + "#expire()")
                        .contains("ReactiveTypedDelayedQueue of queue \"order-timeout\" injected into "
                                + Producer.class.getName() + "#wrongList: its payload type java.util.List<"
                                + OrderRef.class.getName() + "> differs from " + OrderRef.class.getName())
                        .doesNotContain("#right");
            });

    public record OrderRef(long id) {
    }

    @Singleton
    static class Consumer {
        @Delayed("order-timeout")
        void expire(OrderRef order) {
        }
    }

    @Singleton
    static class Producer {
        @Inject
        @DelayedQueueName("order-timeout")
        TypedDelayedQueue<OrderRef> right;

        @Inject
        @DelayedQueueName("order-timeuot")
        TypedDelayedQueue<OrderRef> typo;

        @Inject
        @DelayedQueueName("order-timeout")
        TypedDelayedQueue<String> wrongType;

        @Inject
        @DelayedQueueName("order-timeout")
        ReactiveTypedDelayedQueue<List<OrderRef>> wrongList;
    }

    @Test
    void buildFails() {
        // the assertion is in assertException
    }
}
