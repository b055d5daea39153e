package io.quarkiverse.pacer.it;

import io.quarkus.test.junit.QuarkusIntegrationTest;

@QuarkusIntegrationTest
class ThrottledEndpointsIT extends ThrottledEndpointsTest {
}
