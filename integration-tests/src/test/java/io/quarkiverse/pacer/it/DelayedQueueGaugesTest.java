package io.quarkiverse.pacer.it;

import static io.restassured.RestAssured.when;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.matchesPattern;

import java.time.Duration;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The depth gauges tell scheduled messages from overdue ones and record the oldest overdue age; a queue with messages
 * in Redis that no {@code @Delayed} method of the demo consumes (a typo) shows up in {@code pacer.delayed.unconsumed}.
 * Gauges are refreshed at each safety poll (every 5 s).
 */
@QuarkusTest
class DelayedQueueGaugesTest {

    @Inject
    DelayedQueue queue;

    @Test
    void depthPerStateAndUnconsumedQueues() {
        queue.scheduleWithId("order-timeuot", "order-9001", new OrderRef(9001), Duration.ofHours(1));
        queue.scheduleWithId("order-timeuot", "order-9002", new OrderRef(9002), Duration.ofHours(2));

        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> when().get("/q/metrics").then().statusCode(200)
                .body(containsString("pacer_delayed_unconsumed{queue=\"order-timeuot\"} 2.0")));
        when().get("/q/metrics").then()
                .body(matchesPattern("(?s).*pacer_delayed_depth\\{queue=\"order-timeout\",state=\"scheduled\"} \\d+\\.0.*"))
                .body(matchesPattern("(?s).*pacer_delayed_depth\\{queue=\"order-timeout\",state=\"due\"} \\d+\\.0.*"))
                .body(matchesPattern("(?s).*pacer_delayed_depth\\{queue=\"order-timeout\",state=\"in-flight\"} \\d+\\.0.*"))
                .body(matchesPattern("(?s).*pacer_delayed_depth\\{queue=\"order-timeout\",state=\"dead\"} \\d+\\.0.*"))
                .body(matchesPattern("(?s).*pacer_delayed_oldest_overdue_seconds\\{queue=\"order-timeout\"} [0-9.E-]+.*"));

        queue.cancel("order-timeuot", "order-9001");
        queue.cancel("order-timeuot", "order-9002");
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> when().get("/q/metrics").then()
                .body(containsString("pacer_delayed_unconsumed{queue=\"order-timeuot\"} 0.0")));
    }
}
