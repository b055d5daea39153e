package io.quarkiverse.pacer.topologies;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/**
 * {@link ClusterFailoverScenario} with {@code durability=replicas}: the master dies under load, whatever its replica
 * has; every message whose {@code schedule} returned was confirmed by the replica, so it is delivered.
 */
class ClusterFailoverReplicasTest extends ClusterFailoverScenario {

    @RegisterExtension
    static final QuarkusUnitTest config = application("replicas");

    @Override
    boolean syncReplicaBeforeKill() {
        return false;
    }

    @Override
    String durability() {
        return "replicas";
    }
}
