package io.quarkiverse.pacer.runtime.health;

import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.smallrye.health.api.AsyncHealthCheck;
import io.smallrye.mutiny.Uni;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;

/**
 * Ready when the Redis Pacer uses answers {@code PING} within a short time: without it no decision can be made and no
 * message delivered.
 */
@Readiness
@ApplicationScoped
public class PacerRedisReadinessCheck implements AsyncHealthCheck {

    static final String NAME = "Pacer Redis connection";
    private static final Duration PING_TIMEOUT = Duration.ofSeconds(2);

    private final PacerRedis redis;

    PacerRedisReadinessCheck(PacerRedis redis) {
        this.redis = redis;
    }

    @Override
    public Uni<HealthCheckResponse> call() {
        return Uni.createFrom().deferred(() -> redis.send(Request.cmd(Command.PING)))
                .ifNoItem().after(PING_TIMEOUT).fail()
                .map(pong -> HealthCheckResponse.named(NAME).up().withData("client", redis.clientDisplayName()).build())
                .onFailure().recoverWithItem(failure -> HealthCheckResponse.named(NAME).down()
                        .withData("client", redis.clientDisplayName())
                        .withData("error", String.valueOf(failure.getMessage()))
                        .build());
    }
}
