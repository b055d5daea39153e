package io.quarkiverse.pacer.deployment.throttle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.throttle.CompositeKey;
import io.quarkiverse.pacer.throttle.ReactiveThrottler;
import io.quarkiverse.pacer.throttle.ThrottleDecision;
import io.quarkiverse.pacer.throttle.ThrottleKey;
import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkiverse.pacer.throttle.ThrottledException;
import io.quarkiverse.pacer.throttle.Throttler;
import io.quarkus.test.QuarkusUnitTest;

/**
 * {@code Throttler.check} and {@code ThrottleDecision.orThrow} throw the {@link ThrottledException} an annotated method
 * throws; a {@link CompositeKey} addresses exactly the key the interceptor builds from two {@code @ThrottleKey}
 * parameters, so a programmatic reset frees that caller and no other.
 */
class ThrottlerCheckTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Api.class));

    @Inject
    Api api;

    @Inject
    Throttler throttler;

    @Inject
    ReactiveThrottler reactive;

    @Test
    void checkThrowsWhenRejected() {
        assertThat(throttler.check("check-policy", "acme").remaining()).isEqualTo(1);
        assertThat(throttler.check("check-policy", "acme", 1).remaining()).isZero();
        assertThatThrownBy(() -> throttler.check("check-policy", "acme")).isInstanceOfSatisfying(
                ThrottledException.class, e -> {
                    assertThat(e.decision().policy()).isEqualTo("check-policy");
                    assertThat(e.decision().key()).isEqualTo("acme");
                    assertThat(e.retryAfter()).isPositive();
                });
        ThrottleDecision rejected = throttler.acquire("check-policy", "acme");
        assertThat(rejected.allowed()).isFalse();
        assertThatThrownBy(rejected::orThrow).isInstanceOf(ThrottledException.class);
        assertThatThrownBy(() -> reactive.check("check-policy", "acme").await().atMost(Duration.ofSeconds(10)))
                .isInstanceOf(ThrottledException.class);
        // Another key is unaffected; an allowing decision passes orThrow unchanged.
        ThrottleDecision allowed = throttler.acquire("check-policy", "other");
        assertThat(allowed.orThrow()).isSameAs(allowed);
    }

    @Test
    void compositeKeyAddressesTheInterceptorsKey() {
        api.search("acme", "eu,west", "q");
        assertThatThrownBy(() -> api.search("acme", "eu,west", "q")).isInstanceOfSatisfying(ThrottledException.class,
                e -> assertThat(e.decision().key()).isEqualTo(CompositeKey.of("acme", "eu,west").value()));
        api.search("acme", "us", "q");
        // A plain string "acme,eu,west" is one value: a different key, so this resets nothing of the caller.
        throttler.reset("composite-search", "acme,eu,west");
        assertThatThrownBy(() -> api.search("acme", "eu,west", "q")).isInstanceOf(ThrottledException.class);
        assertThat(throttler.peek("composite-search", CompositeKey.of("acme", "eu,west")).allowed()).isFalse();

        throttler.reset("composite-search", CompositeKey.of("acme", "eu,west"));
        api.search("acme", "eu,west", "q");
        // The other caller keeps its state.
        assertThatThrownBy(() -> api.search("acme", "us", "q")).isInstanceOf(ThrottledException.class);
        // One part is the plain value; null is a value of its own.
        assertThat(CompositeKey.of("acme")).isEqualTo(CompositeKey.of("acme"));
        assertThat(CompositeKey.of("acme").value()).isEqualTo("acme");
        assertThat(CompositeKey.of((Object) null).value()).isNotEqualTo(CompositeKey.of("null").value());
        assertThat(CompositeKey.global().value()).isEmpty();
    }

    @ApplicationScoped
    public static class Api {
        @Throttled(name = "check-policy", limit = 2, window = "1h")
        public void checked() {
        }

        @Throttled(name = "composite-search", limit = 1, window = "1h")
        public void search(@ThrottleKey String tenant, @ThrottleKey String region, String query) {
        }
    }
}
