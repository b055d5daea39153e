package io.quarkiverse.pacer.it;

import io.quarkus.test.junit.QuarkusIntegrationTest;

@QuarkusIntegrationTest
class HeartbeatResourceIT extends HeartbeatResourceTest {
}
