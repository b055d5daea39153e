package io.quarkiverse.pacer.it;

import io.quarkus.test.junit.QuarkusIntegrationTest;
import io.quarkus.test.junit.TestProfile;

/** The test profile's configuration reaches the packaged app as system properties. */
@QuarkusIntegrationTest
@TestProfile(ThrottledResourceHeadersOnSuccessOffTest.HeadersOff.class)
class ThrottledResourceHeadersOnSuccessOffIT extends ThrottledResourceHeadersOnSuccessOffTest {
}
