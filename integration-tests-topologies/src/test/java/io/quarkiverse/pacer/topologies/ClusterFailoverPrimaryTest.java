package io.quarkiverse.pacer.topologies;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/**
 * {@link ClusterFailoverScenario} with {@code durability=primary}: the replica has caught up when its master dies, so
 * nothing acknowledged may be lost.
 */
class ClusterFailoverPrimaryTest extends ClusterFailoverScenario {

    @RegisterExtension
    static final QuarkusUnitTest config = application("primary");

    @Override
    boolean syncReplicaBeforeKill() {
        return true;
    }

    @Override
    String durability() {
        return "primary";
    }
}
