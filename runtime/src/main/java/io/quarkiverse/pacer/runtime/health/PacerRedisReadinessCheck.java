package io.quarkiverse.pacer.runtime.health;

import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;

import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

import io.quarkiverse.pacer.runtime.delay.integration.AfterCommitSender;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.smallrye.health.api.AsyncHealthCheck;
import io.smallrye.mutiny.Uni;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;

/**
 * Ready when the Redis Pacer uses answers {@code PING} within a short time: without it no decision can be made and no
 * message delivered. With schedule on commit, the detail {@code delayed after-commit pending} counts the operations of
 * committed transactions not yet stored in Redis.
 */
@Readiness
@ApplicationScoped
public class PacerRedisReadinessCheck implements AsyncHealthCheck {

    static final String NAME = "Pacer Redis connection";
    private static final Duration PING_TIMEOUT = Duration.ofSeconds(2);

    static final String AFTER_COMMIT_PENDING = "delayed after-commit pending";

    private final PacerRedis redis;
    private final Instance<AfterCommitSender> afterCommit;

    PacerRedisReadinessCheck(PacerRedis redis, Instance<AfterCommitSender> afterCommit) {
        this.redis = redis;
        this.afterCommit = afterCommit;
    }

    @Override
    public Uni<HealthCheckResponse> call() {
        return Uni.createFrom().deferred(() -> redis.send(Request.cmd(Command.PING)))
                .ifNoItem().after(PING_TIMEOUT).fail()
                .map(pong -> response().up().build())
                .onFailure().recoverWithItem(failure -> response().down()
                        .withData("error", String.valueOf(failure.getMessage()))
                        .build());
    }

    private HealthCheckResponseBuilder response() {
        HealthCheckResponseBuilder builder = HealthCheckResponse.named(NAME).withData("client", redis.clientDisplayName());
        if (afterCommit.isResolvable()) {
            builder.withData(AFTER_COMMIT_PENDING, afterCommit.get().pending());
        }
        return builder;
    }
}
