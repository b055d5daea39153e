package io.quarkiverse.pacer.it.plans;

import io.quarkus.test.junit.QuarkusIntegrationTest;

@QuarkusIntegrationTest
class PlansResourceIT extends PlansResourceTest {
}
