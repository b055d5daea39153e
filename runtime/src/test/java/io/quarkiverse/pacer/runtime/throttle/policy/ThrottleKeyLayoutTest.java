package io.quarkiverse.pacer.runtime.throttle.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.vertx.redis.client.impl.ZModem;

class ThrottleKeyLayoutTest {

    @Test
    void keyedBaseKeyPutsTheKeyInTheTagAndThePolicyAfterIt() {
        assertThat(ThrottleKeyLayout.baseKey("pacer", "search", "acme", "search")).isEqualTo("pacer:t:{acme}search");
    }

    @Test
    void globalBaseKeyUsesTheGroupTag() {
        assertThat(ThrottleKeyLayout.baseKey("pacer", "search-burst", "", "search"))
                .isEqualTo("pacer:t:{\\gsearch}search-burst");
    }

    @Test
    void policyNameAndKeyValueNeverCollide() {
        // The collision of the old layout: policy "search" with key "burst:" and the global key of "search:burst".
        String keyed = ThrottleKeyLayout.baseKey("pacer", "search", ThrottleKeyBuilder.of("burst:"), "search");
        String global = ThrottleKeyLayout.baseKey("pacer", "search:burst", "", "search:burst");
        assertThat(keyed).isNotEqualTo(global);

        Set<String> keys = new HashSet<>();
        List<String> names = List.of("a", "a:", ":a", "a}", "}a", "a%", "a%3A", "a:tb", "a{", "\\ga", "%7D");
        for (String policy : names) {
            keys.add(ThrottleKeyLayout.baseKey("p", policy, "", policy) + ":tb");
            for (String key : names) {
                keys.add(ThrottleKeyLayout.baseKey("p", policy, ThrottleKeyBuilder.of(key), policy) + ":tb");
                // With a suffix that could be mistaken for part of a name.
                keys.add(ThrottleKeyLayout.baseKey("p", policy, ThrottleKeyBuilder.of(key), policy) + ":fw:1");
            }
        }
        assertThat(keys).hasSize(names.size() + 2 * names.size() * names.size());
    }

    @Test
    void escapedPartsNeverEndTheTagOrTheNameEarly() {
        String key = ThrottleKeyLayout.baseKey("pacer", "a:b%c", ThrottleKeyBuilder.of("x}y%z"), "a:b%c");
        assertThat(key).isEqualTo("pacer:t:{x%7Dy%25z}a%3Ab%25c");
    }

    @Test
    void everyPolicyOfOneCallSharesTheSlotOfTheKey() {
        for (String value : List.of("acme", "tenant}42", "{x}", "")) {
            String encoded = value.isEmpty() ? "" : ThrottleKeyBuilder.of(value);
            int slot = slot(ThrottleKeyLayout.baseKey("pacer", "search", encoded, "search") + ":sw:123");
            assertThat(slot(ThrottleKeyLayout.baseKey("pacer", "search-burst", encoded, "search") + ":tb"))
                    .as("key %s", value).isEqualTo(slot);
            assertThat(slot(ThrottleKeyLayout.baseKey("pacer", "x}y", encoded, "search") + ":cc"))
                    .as("key %s", value).isEqualTo(slot);
        }
    }

    @Test
    void globalGroupsLinkPoliciesStackedTogetherTransitively() {
        Map<String, String> groups = ThrottleKeyLayout.globalGroups(List.of(
                List.of("search", "search-burst"),
                List.of("export", "search-burst"),
                List.of("ping"),
                List.of("zeta", "beta")));
        assertThat(groups).containsExactlyInAnyOrderEntriesOf(Map.of(
                "search", "export",
                "search-burst", "export",
                "export", "export",
                "ping", "ping",
                "zeta", "beta",
                "beta", "beta"));
    }

    @Test
    void prefixWithBracesIsInvalid() {
        assertThat(ThrottleKeyLayout.isValidKeyPrefix("pacer")).isTrue();
        assertThat(ThrottleKeyLayout.isValidKeyPrefix("app{1}")).isFalse();
        assertThat(ThrottleKeyLayout.isValidKeyPrefix("app}")).isFalse();
    }

    private static int slot(String key) {
        return ZModem.generate(key);
    }
}
