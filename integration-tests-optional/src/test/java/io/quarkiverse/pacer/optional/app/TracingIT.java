package io.quarkiverse.pacer.optional.app;

import static io.restassured.RestAssured.given;
import static io.restassured.RestAssured.when;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusIntegrationTest;

/** OpenTelemetry in the packaged application: throttling decisions are span events, a schedule has its own span. */
@QuarkusIntegrationTest
class TracingIT {

    @Test
    void eachDecisionIsAnEventOfTheRequestsSpan() {
        given().queryParam("tenant", "acme").get("/traced/search").then().statusCode(200);
        given().queryParam("tenant", "acme").get("/traced/search").then().statusCode(429);

        List<Map<String, Object>> requests = await().atMost(Duration.ofSeconds(10))
                .until(() -> spans("GET /traced/search"), found -> found.size() == 2);
        assertThat(requests).extracting(span -> span.get("kind")).containsOnly("SERVER");
        assertThat(requests).extracting(TracingIT::throttleOutcome).containsExactly("allowed", "rejected");
        @SuppressWarnings("unchecked")
        Map<String, String> rejected = ((List<Map<String, Object>>) requests.get(1).get("events")).stream()
                .filter(event -> event.get("name").equals("pacer.throttle"))
                .map(event -> (Map<String, String>) event.get("attributes")).findFirst().orElseThrow();
        assertThat(rejected).containsEntry("pacer.throttle.policy", "app-search")
                .containsEntry("pacer.throttle.limit", "1").containsEntry("pacer.throttle.remaining", "0")
                .doesNotContainKey("pacer.throttle.key");
    }

    @Test
    void aScheduleIsASpanOfTheRequestThatScheduled() {
        given().queryParam("payload", "traced").post("/handoff/traced-1").then().statusCode(200);

        Map<String, Object> send = await().atMost(Duration.ofSeconds(10))
                .until(() -> spans("app-handoff send").stream().filter(span -> "traced-1".equals(attribute(span,
                        "messaging.message.id"))).toList(), found -> found.size() == 1)
                .get(0);
        assertThat(send.get("kind")).isEqualTo("PRODUCER");
        Map<String, Object> request = await().atMost(Duration.ofSeconds(10))
                .until(() -> spans(null).stream().filter(span -> span.get("spanId").equals(send.get("parentSpanId")))
                        .toList(), found -> found.size() == 1)
                .get(0);
        assertThat(request.get("name")).isEqualTo("POST /handoff/{id}");
        assertThat(request.get("kind")).isEqualTo("SERVER");
        assertThat(send.get("traceId")).isEqualTo(request.get("traceId"));
    }

    /** The exported spans named {@code name} (every span if null), in start order. */
    private static List<Map<String, Object>> spans(String name) {
        List<Map<String, Object>> all = when().get("/traced/spans").then().statusCode(200).extract().jsonPath()
                .getList("$");
        return all.stream().filter(span -> name == null || name.equals(span.get("name"))).toList();
    }

    @SuppressWarnings("unchecked")
    private static String attribute(Map<String, Object> span, String key) {
        return ((Map<String, String>) span.get("attributes")).get(key);
    }

    /** The outcome of the span's one decision (a rejected request's span also records the exception). */
    @SuppressWarnings("unchecked")
    private static String throttleOutcome(Map<String, Object> span) {
        List<Map<String, Object>> decisions = ((List<Map<String, Object>>) span.get("events")).stream()
                .filter(event -> event.get("name").equals("pacer.throttle")).toList();
        assertThat(decisions).hasSize(1);
        return ((Map<String, String>) decisions.get(0).get("attributes")).get("pacer.throttle.outcome");
    }
}
