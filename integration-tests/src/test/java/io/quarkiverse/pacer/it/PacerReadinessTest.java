package io.quarkiverse.pacer.it;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;

@QuarkusTest
class PacerReadinessTest {

    @Test
    void readinessReportsPacerRedisUp() {
        given().when().get("/q/health/ready")
                .then().statusCode(200)
                .body("status", equalTo("UP"))
                .body("checks.name", hasItem("Pacer Redis connection"))
                .body("checks.find { it.name == 'Pacer Redis connection' }.status", equalTo("UP"))
                .body("checks.find { it.name == 'Pacer Redis connection' }.data.client", equalTo("<default>"));
    }
}
