package io.quarkiverse.pacer.runtime.redis;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ReplicaCheckTest {

    @Test
    void countsOnlyReplicasOnline() {
        String info = "# Replication\r\nrole:master\r\nconnected_slaves:3\r\n"
                + "slave0:ip=127.0.0.1,port=7004,state=online,offset=100,lag=0\r\n"
                + "slave1:ip=127.0.0.1,port=7005,state=wait_bgsave,offset=0,lag=0\r\n"
                + "slave2:ip=127.0.0.1,port=7006,state=online,offset=100,lag=1\r\n"
                + "master_failover_state:no-failover\r\nmaster_replid:abc\r\n";
        assertThat(ReplicaCheck.onlineReplicas(info)).isEqualTo(2);
    }

    @Test
    void noReplica() {
        assertThat(ReplicaCheck.onlineReplicas("# Replication\nrole:master\nconnected_slaves:0\n"
                + "master_failover_state:no-failover\n")).isZero();
    }
}
