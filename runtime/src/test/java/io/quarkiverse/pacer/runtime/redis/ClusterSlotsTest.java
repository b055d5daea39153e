package io.quarkiverse.pacer.runtime.redis;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Slots as Redis computes them ({@code CLUSTER KEYSLOT}), hash tags included. */
class ClusterSlotsTest {

    @Test
    void knownSlots() {
        assertThat(ClusterSlots.slot("foo")).isEqualTo(12182);
        assertThat(ClusterSlots.slot("bar")).isEqualTo(5061);
        assertThat(ClusterSlots.slot("123456789")).isEqualTo(0x31C3 & 16383);
        assertThat(ClusterSlots.slot("")).isZero();
    }

    @Test
    void hashTagsShareASlot() {
        assertThat(ClusterSlots.slot("{user1000}.following")).isEqualTo(ClusterSlots.slot("{user1000}.followers"))
                .isEqualTo(ClusterSlots.slot("user1000"));
        assertThat(ClusterSlots.slot("pacer:d:{orders#3}:due")).isEqualTo(ClusterSlots.slot("orders#3"));
    }

    @Test
    void onlyTheFirstNonEmptyTagCounts() {
        // "{}" is no tag: the whole key is hashed; only the first "{" opens a tag.
        assertThat(ClusterSlots.slot("foo{}{bar}")).isNotEqualTo(ClusterSlots.slot("bar"));
        assertThat(ClusterSlots.slot("foo{{bar}}zap")).isEqualTo(ClusterSlots.slot("{bar"));
        assertThat(ClusterSlots.slot("foo{bar}{zap}")).isEqualTo(ClusterSlots.slot("bar"));
        assertThat(ClusterSlots.slot("no-closing{brace")).isNotEqualTo(ClusterSlots.slot("brace"));
    }

    @Test
    void nonAsciiKeysAreHashedAsUtf8() {
        assertThat(ClusterSlots.slot("{ключ}a")).isEqualTo(ClusterSlots.slot("ключ"));
    }
}
