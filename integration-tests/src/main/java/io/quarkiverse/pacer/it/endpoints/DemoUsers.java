package io.quarkiverse.pacer.it.endpoints;

import java.util.Arrays;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.IdentityProvider;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.UsernamePasswordAuthenticationRequest;
import io.quarkus.security.runtime.QuarkusPrincipal;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.smallrye.mutiny.Uni;

/**
 * Demo only: HTTP Basic users for {@link EndpointsResource#principal()}, any user name with the password
 * {@value #PASSWORD}, checked without blocking.
 */
@ApplicationScoped
public class DemoUsers implements IdentityProvider<UsernamePasswordAuthenticationRequest> {

    static final String PASSWORD = "pacer-demo";

    @Override
    public Class<UsernamePasswordAuthenticationRequest> getRequestType() {
        return UsernamePasswordAuthenticationRequest.class;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(UsernamePasswordAuthenticationRequest request,
            AuthenticationRequestContext context) {
        if (!Arrays.equals(PASSWORD.toCharArray(), request.getPassword().getPassword())) {
            return Uni.createFrom().failure(new AuthenticationFailedException());
        }
        return Uni.createFrom().item(QuarkusSecurityIdentity.builder()
                .setPrincipal(new QuarkusPrincipal(request.getUsername()))
                .build());
    }
}
