package io.quarkiverse.pacer.it;

import static io.restassured.RestAssured.given;
import static io.restassured.RestAssured.when;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;

/**
 * The depth gauges tell scheduled messages from overdue ones and record the oldest overdue age; a queue with messages
 * in Redis that no {@code @Delayed} method of the demo consumes (a typo) shows up in {@code pacer.delayed.unconsumed}.
 * Gauges are refreshed at each safety poll (every 5 s).
 */
@QuarkusTest
class DelayedQueueGaugesTest {

    @Test
    void depthPerStateAndUnconsumedQueues() {
        given().queryParam("delayMs", Duration.ofHours(1).toMillis()).put("/queues/order-timeuot/orders/9001")
                .then().statusCode(200).body("id", equalTo("order-9001"));
        given().queryParam("delayMs", Duration.ofHours(2).toMillis()).put("/queues/order-timeuot/orders/9002")
                .then().statusCode(200).body("id", equalTo("order-9002"));

        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> when().get("/q/metrics").then().statusCode(200)
                .body(containsString("pacer_delayed_unconsumed{queue=\"order-timeuot\"} 2.0")));
        when().get("/q/metrics").then()
                .body(matchesPattern("(?s).*pacer_delayed_depth\\{queue=\"order-timeout\",state=\"scheduled\"} \\d+\\.0.*"))
                .body(matchesPattern("(?s).*pacer_delayed_depth\\{queue=\"order-timeout\",state=\"due\"} \\d+\\.0.*"))
                .body(matchesPattern("(?s).*pacer_delayed_depth\\{queue=\"order-timeout\",state=\"in-flight\"} \\d+\\.0.*"))
                .body(matchesPattern("(?s).*pacer_delayed_depth\\{queue=\"order-timeout\",state=\"dead\"} \\d+\\.0.*"))
                .body(matchesPattern("(?s).*pacer_delayed_oldest_overdue_seconds\\{queue=\"order-timeout\"} [0-9.E-]+.*"));

        when().delete("/queues/order-timeuot/orders/9001").then().statusCode(204);
        when().delete("/queues/order-timeuot/orders/9002").then().statusCode(204);
        when().delete("/queues/order-timeuot/orders/9002").then().statusCode(404);
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> when().get("/q/metrics").then()
                .body(containsString("pacer_delayed_unconsumed{queue=\"order-timeuot\"} 0.0")));
    }
}
