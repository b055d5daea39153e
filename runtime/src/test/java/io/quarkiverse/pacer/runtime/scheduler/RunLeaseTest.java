package io.quarkiverse.pacer.runtime.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A run's member in the job's runs names its tick and which start of the tick it is, whatever the token holds. */
class RunLeaseTest {

    @Test
    void theMemberCarriesTheTickAndTheStart() {
        String member = RunLease.member(1_700_000_000_000L, 2, "3f2c9a1e-0b7d-4c55-9d1e-2a6f0c8b7e11:42");
        assertThat(member).isEqualTo("1700000000000:2:3f2c9a1e-0b7d-4c55-9d1e-2a6f0c8b7e11:42");
        RunLease lease = new RunLease(member, 1_700_000_010_000L);
        assertThat(lease.tick()).isEqualTo(1_700_000_000_000L);
        assertThat(lease.start()).isEqualTo(2);
    }

    @Test
    void aLeaseHasExpiredFromItsDeadlineOn() {
        RunLease lease = new RunLease(RunLease.member(1_000, 1, "token:1"), 5_000);
        assertThat(lease.expiredAt(4_999)).isFalse();
        assertThat(lease.expiredAt(5_000)).isTrue();
        assertThat(lease.expiredAt(6_000)).isTrue();
    }
}
