package io.quarkiverse.pacer.it;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

@QuarkusTest
class HeartbeatResourceTest {

    @Test
    void eachTickRunsOnceAndIsCounted() {
        await().atMost(Duration.ofSeconds(30))
                .until(() -> status().getList("lastTicks", String.class).size() >= 2);
        JsonPath status = status();
        String instance = status.getString("instance");
        assertThat(status.getLong("runsHere")).isGreaterThanOrEqualTo(2);
        // The total counts this instance's runs too.
        assertThat(status.getLong("runsEverywhere")).isGreaterThanOrEqualTo(status.getLong("runsHere"));
        List<Long> ticks = new ArrayList<>();
        for (String tick : status.getList("lastTicks", String.class)) {
            String[] parts = tick.split(" ");
            assertThat(parts[1]).isEqualTo(instance);
            ticks.add(Long.parseLong(parts[0]));
        }
        // Newest first, each tick once, on the 2-second grid.
        assertThat(ticks).doesNotHaveDuplicates().isSortedAccordingTo((a, b) -> Long.compare(b, a));
        for (int i = 1; i < ticks.size(); i++) {
            assertThat((ticks.get(i - 1) - ticks.get(i)) % 2000).as("ticks %s", ticks).isZero();
        }
    }

    private static JsonPath status() {
        return given().when().get("/heartbeat").then().statusCode(200).extract().jsonPath();
    }
}
