package io.quarkiverse.pacer.optional.app;

import static io.restassured.RestAssured.given;
import static io.restassured.RestAssured.when;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusIntegrationTest;

/** {@code forward-to} in the packaged application: a due message goes to a Quarkus Messaging channel, which acks it. */
@QuarkusIntegrationTest
class ForwardToIT {

    @Test
    void dueMessagesReachTheChannel() {
        given().queryParam("payload", "hello").post("/handoff/message-1").then().statusCode(200)
                .body(equalTo("message-1"));
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> when().get("/handoff").then().statusCode(200)
                .body("$", hasItem("app-handoff/message-1#1: hello")));
        // Acknowledged in Redis: the message leaves the queue.
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> when().get("/handoff/pending").then().statusCode(200).body(equalTo("0")));
    }
}
