package io.quarkiverse.pacer.it;

import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import io.quarkiverse.pacer.runtime.redis.LuaScript;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.smallrye.mutiny.Uni;

/**
 * Shows which Redis the demo talks to and that Pacer's scripts run there.
 */
@Path("/redis")
public class RedisStatusResource {

    private static final LuaScript SERVER_TIME = LuaScript.load("server-time");

    @Inject
    PacerRedis redis;

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<Map<String, Object>> status() {
        return redis.eval(SERVER_TIME, List.of(), List.of())
                .map(time -> Map.of("client", redis.clientDisplayName(), "serverTimeMicros", time.toLong()));
    }
}
