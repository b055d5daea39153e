package io.quarkiverse.pacer.it;

import static io.restassured.RestAssured.given;
import static io.restassured.RestAssured.when;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;

/** Unpaid orders expire when their timeout fires; paying cancels the timeout. */
@QuarkusTest
class OrderTimeoutFlowTest {

    @Test
    void unpaidOrderExpiresPaidOrderStaysPaid() {
        // Paying cancels the timeout: the message leaves the queue.
        given().queryParam("timeoutMs", 60_000).when().post("/orders/2")
                .then().statusCode(200).body("status", equalTo("PENDING")).body("timeout", equalTo("order-2"));
        when().get("/orders/timeouts/pending").then().body("size", equalTo(1));
        when().post("/orders/2/pay").then().statusCode(200).body("status", equalTo("PAID"));
        when().get("/orders/timeouts/pending").then().body("size", equalTo(0));

        // An unpaid order expires when its timeout fires, and can no longer be paid.
        given().queryParam("timeoutMs", 300).when().post("/orders/1")
                .then().statusCode(200).body("status", equalTo("PENDING"));
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> when().get("/orders/1").then().body("status", equalTo("EXPIRED")));
        when().post("/orders/1/pay").then().statusCode(409).body("status", equalTo("EXPIRED"));

        when().get("/orders/2").then().body("status", equalTo("PAID"));

        // deliverNow fires a timeout at once instead of waiting half an hour.
        when().post("/orders/3").then().statusCode(200).body("status", equalTo("PENDING"));
        when().post("/orders/3/timeout/now").then().statusCode(202).body("delivering", equalTo(true));
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> when().get("/orders/3").then().body("status", equalTo("EXPIRED")));
        when().post("/orders/3/timeout/now").then().statusCode(404).body("delivering", equalTo(false));
        await().atMost(Duration.ofSeconds(5))
                .untilAsserted(() -> when().get("/orders/timeouts/pending").then().body("size", equalTo(0)));

        // Micrometer meters per queue
        when().get("/q/metrics").then().statusCode(200)
                .body(containsString("pacer_delayed_scheduled_total{queue=\"order-timeout\"} 3.0"))
                .body(containsString("pacer_delayed_delivered_total{queue=\"order-timeout\"} 2.0"))
                .body(containsString("pacer_delayed_lateness_seconds_count{queue=\"order-timeout\"} 2"));
    }
}
