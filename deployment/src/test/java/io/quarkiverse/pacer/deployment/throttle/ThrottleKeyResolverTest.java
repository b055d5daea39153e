package io.quarkiverse.pacer.deployment.throttle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.interceptor.InvocationContext;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.throttle.ThrottleKeyResolver;
import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkiverse.pacer.throttle.ThrottledException;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A {@link ThrottleKeyResolver} bean computes the key from the invocation.
 */
class ThrottleKeyResolverTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Api.class, DomainResolver.class));

    @Inject
    Api api;

    @Test
    void resolverFormsTheKey() {
        api.send("alice@acme.com");
        assertThatThrownBy(() -> api.send("bob@acme.com")).isInstanceOfSatisfying(ThrottledException.class,
                e -> assertThat(e.decision().key()).isEqualTo("acme.com"));
        api.send("carol@example.org");
    }

    @ApplicationScoped
    public static class DomainResolver implements ThrottleKeyResolver {
        @Override
        public String resolve(InvocationContext invocation) {
            String address = (String) invocation.getParameters()[0];
            return address.substring(address.indexOf('@') + 1);
        }
    }

    @ApplicationScoped
    public static class Api {
        @Throttled(limit = 1, window = "1h", key = DomainResolver.class)
        public void send(String address) {
        }
    }
}
