package io.quarkiverse.pacer.it;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThan;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;

@QuarkusTest
class RedisStatusResourceTest {

    @Test
    void scriptRunsAgainstTheRedisStartedForTests() {
        given().when().get("/redis")
                .then().statusCode(200)
                .body("client", equalTo("<default>"))
                .body("serverTimeMicros", greaterThan(1_700_000_000_000_000L));
    }
}
