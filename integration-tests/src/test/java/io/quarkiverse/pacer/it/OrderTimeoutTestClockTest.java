package io.quarkiverse.pacer.it;

import static io.restassured.RestAssured.given;
import static io.restassured.RestAssured.when;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import java.time.Duration;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.quarkiverse.pacer.test.PacerResetExtension;
import io.quarkiverse.pacer.test.PacerTestClock;
import io.quarkiverse.pacer.test.PacerTestQueues;
import io.quarkiverse.pacer.test.QueuedMessage;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/**
 * The demo's flows under Pacer's test kit: the test clock moves 30 minutes and an unpaid order (the default 30-minute
 * timeout) expires within a second of real time; the kit lists the scheduled timeout and delivers it on demand; a
 * tenant's burst limit refills when the clock moves a minute. The kit works in the test's JVM (it injects beans), so
 * this class has no {@code @QuarkusIntegrationTest} twin; it runs in an application of its own (a test profile), so its
 * orders and decisions never reach the other tests' metrics.
 */
@QuarkusTest
@TestProfile(OrderTimeoutTestClockTest.TestKit.class)
@ExtendWith(PacerResetExtension.class)
class OrderTimeoutTestClockTest {

    /** The demo app as it is, in an application of its own. */
    public static class TestKit implements QuarkusTestProfile {
    }

    @Inject
    PacerTestClock clock;

    @Inject
    PacerTestQueues queues;

    @Test
    void unpaidOrderExpiresWhenTheClockMovesThirtyMinutes() {
        when().post("/orders/42").then().statusCode(200).body("status", equalTo("PENDING"));
        assertThat(queues.waiting("order-timeout")).singleElement().satisfies(timeout -> {
            assertThat(timeout.id()).isEqualTo("order-42");
            assertThat(timeout.attempt()).isEqualTo(1);
            assertThat(timeout.payload()).isEqualTo("{\"id\":42}");
            assertThat(Duration.between(clock.now(), timeout.dueAt())).isBetween(Duration.ofMinutes(29),
                    Duration.ofMinutes(30));
        });

        clock.advance(Duration.ofMinutes(29));
        queues.awaitIdle();
        when().get("/orders/42").then().body("status", equalTo("PENDING"));

        clock.advance(Duration.ofMinutes(1));
        await().atMost(Duration.ofSeconds(1))
                .untilAsserted(() -> when().get("/orders/42").then().body("status", equalTo("EXPIRED")));
        when().post("/orders/42/pay").then().statusCode(409).body("status", equalTo("EXPIRED"));
        assertThat(queues.waiting("order-timeout")).isEmpty();
    }

    @Test
    void deliverAllNowFiresEveryPendingTimeout() {
        when().post("/orders/7").then().statusCode(200);
        when().post("/orders/8").then().statusCode(200);
        when().post("/orders/8/pay").then().statusCode(200);
        assertThat(queues.waiting("order-timeout")).extracting(QueuedMessage::id).containsExactly("order-7");

        assertThat(queues.deliverAllNow("order-timeout")).isEqualTo(1);

        when().get("/orders/7").then().body("status", equalTo("EXPIRED"));
        when().get("/orders/8").then().body("status", equalTo("PAID"));
    }

    @Test
    void tenantBurstRefillsWhenTheClockMovesAMinute() {
        // it-search-burst: 2 calls a minute per tenant.
        for (int i = 0; i < 2; i++) {
            given().queryParam("tenant", "acme").when().get("/throttled/search").then().statusCode(200);
        }
        given().queryParam("tenant", "acme").when().get("/throttled/search").then().statusCode(429);

        clock.advance(Duration.ofMinutes(1));
        for (int i = 0; i < 2; i++) {
            given().queryParam("tenant", "acme").when().get("/throttled/search").then().statusCode(200);
        }
        given().queryParam("tenant", "acme").when().get("/throttled/search").then().statusCode(429);
    }
}
