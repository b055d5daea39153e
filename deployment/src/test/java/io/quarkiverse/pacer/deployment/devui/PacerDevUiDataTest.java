package io.quarkiverse.pacer.deployment.devui;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;

import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.throttle.Algorithm;
import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkus.test.QuarkusDevModeTest;

/**
 * In dev mode the Dev UI card lists the application's throttle policies and delay queues, and serves its three pages.
 */
class PacerDevUiDataTest {

    @RegisterExtension
    static final QuarkusDevModeTest devMode = new QuarkusDevModeTest()
            .withApplicationRoot(jar -> jar.addClasses(Api.class, Reminders.class));

    @Test
    void cardDataListsPoliciesAndQueuesAndServesPages() {
        given().when().get("/q/dev-ui/quarkus-pacer-data.js")
                .then().statusCode(200)
                .body(containsString("export const policies = [{\"name\":\"dev-ui-policy\",\"algorithm\":\"SLIDING_LOG\","
                        + "\"limit\":7,\"window\":\"1m\",\"burst\":7,\"shadow\":false,"
                        + "\"declaredOn\":\"" + Api.class.getName() + "#call()\"}]"))
                .body(containsString("export const queues = [{\"queue\":\"dev-ui-queue\",\"consumer\":\""
                        + Reminders.class.getName() + "#remind\""));
        pagesAreServed();
    }

    /** One test method only: each method of a dev-mode test starts the application, and its Redis, again. */
    private static void pagesAreServed() {
        given().when().get("/q/dev-ui/quarkus-pacer/qwc-pacer-throttling.js")
                .then().statusCode(200)
                .body(containsString("customElements.define('qwc-pacer-throttling', QwcPacerThrottling)"));
        given().when().get("/q/dev-ui/quarkus-pacer/qwc-pacer-delay-queues.js")
                .then().statusCode(200)
                .body(containsString("customElements.define('qwc-pacer-delay-queues', QwcPacerDelayQueues)"));
        given().when().get("/q/dev-ui/quarkus-pacer/qwc-pacer-schedules.js")
                .then().statusCode(200)
                .body(containsString("customElements.define('qwc-pacer-schedules', QwcPacerSchedules)"));
        // What the pages share, imported by each of them.
        given().when().get("/q/dev-ui/quarkus-pacer/pacer-ui.js")
                .then().statusCode(200)
                .body(containsString("export function formatMillis(millis)"));
        // The pages' JSON-RPC methods come from three services (throttling, delay queues, schedules) under the one
        // namespace.
        String methods = given().when().get("/q/dev-ui/devui-jsonrpc-data.js").then().statusCode(200).extract().asString();
        for (String method : List.of("getPolicies", "setOverride", "clearOverride", "getDecisionCounts", "inspectKey",
                "resetKey", "getQueues", "getAfterCommit", "getWaitingMessages", "getDeadLetters", "deliverNow", "cancel",
                "replay", "replayAll", "purge", "purgeAll", "scheduleTestMessage", "getJobs", "pauseJob", "resumeJob",
                "runJobNow", "getRecurringSchedules", "pauseRecurring", "resumeRecurring", "triggerRecurringNow")) {
            assertThat(methods).contains("\"quarkus-pacer_" + method + "\"");
        }
    }

    @ApplicationScoped
    public static class Api {
        @Throttled(name = "dev-ui-policy", limit = 7, window = "1m", algorithm = Algorithm.SLIDING_LOG)
        public void call() {
        }
    }

    @ApplicationScoped
    public static class Reminders {
        @Delayed("dev-ui-queue")
        void remind(String text) {
        }
    }
}
