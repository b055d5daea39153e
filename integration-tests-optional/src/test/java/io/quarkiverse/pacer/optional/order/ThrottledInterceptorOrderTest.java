package io.quarkiverse.pacer.optional.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicInteger;

import jakarta.annotation.security.RolesAllowed;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.faulttolerance.Retry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkiverse.pacer.throttle.ThrottledException;
import io.quarkiverse.pacer.throttle.Throttler;
import io.quarkus.arc.Arc;
import io.quarkus.arc.ManagedContext;
import io.quarkus.cache.CacheResult;
import io.quarkus.security.UnauthorizedException;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Where {@code @Throttled} runs among the interceptors a Quarkus application stacks on one method
 * ({@link Throttled#INTERCEPTOR_PRIORITY}): a cached result and a call denied by security take no permit; Fault
 * Tolerance runs inside the permit, so {@code @Retry} repeats the method on one permit and never retries a rejection.
 */
class ThrottledInterceptorOrderTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Api.class));

    @Inject
    Api api;

    @Inject
    Throttler throttler;

    @Test
    void cachedResultTakesNoPermit() {
        assertThat(api.cached("a")).isEqualTo("a#1");
        assertThat(api.cached("a")).isEqualTo("a#1");
        assertThat(api.cached("a")).isEqualTo("a#1");
        assertThat(api.cachedCalls()).isEqualTo(1);
        assertThat(throttler.peek("order-cached", null).remaining()).isZero();
        // The one permit went to the first call: a new key of the cache reaches the throttle and is rejected.
        assertThatThrownBy(() -> api.cached("b")).isInstanceOf(ThrottledException.class);
        assertThat(api.cachedCalls()).isEqualTo(1);
    }

    @Test
    void retryRunsInsideOnePermitAndNeverRetriesARejection() {
        // Fails twice, then succeeds: @Retry repeats the method body under the one permit of the call.
        assertThat(api.flaky()).isEqualTo("ok after 3 attempts");
        assertThat(api.flakyCalls()).isEqualTo(3);
        assertThat(throttler.peek("order-retried", null).remaining()).isZero();
        // The next call is rejected before the method: @Retry (retryOn = Exception) does not see the rejection.
        assertThatThrownBy(() -> api.flaky()).isInstanceOf(ThrottledException.class);
        assertThat(api.flakyCalls()).isEqualTo(3);
    }

    @Test
    void deniedCallTakesNoPermit() {
        // As in a request: the security check reads the caller's identity from the request context.
        ManagedContext request = Arc.container().requestContext();
        request.activate();
        try {
            for (int i = 0; i < 3; i++) {
                assertThatThrownBy(() -> api.adminOnly()).isInstanceOf(UnauthorizedException.class);
            }
        } finally {
            request.terminate();
        }
        assertThat(throttler.peek("order-secured", null).remaining()).isEqualTo(1);
    }

    @ApplicationScoped
    public static class Api {
        final AtomicInteger cachedCalls = new AtomicInteger();
        final AtomicInteger flakyCalls = new AtomicInteger();

        @CacheResult(cacheName = "order-cache")
        @Throttled(name = "order-cached", limit = 1, window = "1h")
        public String cached(String key) {
            return key + "#" + cachedCalls.incrementAndGet();
        }

        @Retry(maxRetries = 3, delay = 0)
        @Throttled(name = "order-retried", limit = 1, window = "1h")
        public String flaky() {
            int attempt = flakyCalls.incrementAndGet();
            if (attempt < 3) {
                throw new IllegalStateException("attempt " + attempt + " fails");
            }
            return "ok after " + attempt + " attempts";
        }

        int cachedCalls() {
            return cachedCalls.get();
        }

        int flakyCalls() {
            return flakyCalls.get();
        }

        @RolesAllowed("admin")
        @Throttled(name = "order-secured", limit = 1, window = "1h")
        public String adminOnly() {
            return "secret";
        }
    }
}
