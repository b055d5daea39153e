package io.quarkiverse.pacer.deployment.devservices;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/**
 * {@code quarkus.pacer.devservices.cluster-replicas} out of its range: the build fails naming the property and the
 * range, before any process starts.
 */
class PacerDevServicesClusterReplicasOutOfRangeTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .overrideConfigKey("quarkus.pacer.devservices.topology", "cluster")
            .overrideConfigKey("quarkus.pacer.devservices.cluster-replicas", "3")
            .assertException(t -> {
                Throwable root = t;
                while (root.getCause() != null && !(root instanceof IllegalStateException)) {
                    root = root.getCause();
                }
                assertThat(root).isInstanceOf(IllegalStateException.class);
                assertThat(root.getMessage())
                        .isEqualTo("quarkus.pacer.devservices.cluster-replicas must be between 0 and 2, was 3");
            });

    @Test
    void buildFails() {
        // assertException above checks the failure
    }
}
