package io.quarkiverse.pacer.optional.app;

import static io.restassured.RestAssured.when;
import static org.hamcrest.Matchers.equalTo;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusIntegrationTest;

/** JTA in the packaged application: a schedule reaches Redis when its transaction commits, never on a rollback. */
@QuarkusIntegrationTest
class ScheduleOnCommitIT {

    @Test
    void scheduledOnCommitOnly() {
        when().post("/checkout/order-1").then().statusCode(200)
                .body("sizeInTransaction", equalTo(0))
                .body("sizeAfterCommit", equalTo(1));
        when().post("/checkout/order-2/refused").then().statusCode(200)
                .body("error", equalTo("payment refused"))
                .body("sizeAfterRollback", equalTo(1));
    }
}
