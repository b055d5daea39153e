package io.quarkiverse.pacer.it.exactness;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;

import io.quarkiverse.pacer.throttle.Algorithm;
import io.quarkiverse.pacer.throttle.ThrottleKey;
import io.quarkiverse.pacer.throttle.Throttled;
import io.smallrye.mutiny.Uni;

/**
 * One endpoint per algorithm, limit {@value #LIMIT} per day and key: the two-instance exactness test fires hundreds of
 * concurrent calls at one key through several instances and counts the 200s (exactly {@value #LIMIT} across all).
 */
@Path("/exactness")
public class ExactnessResource {

    static final int LIMIT = 50;

    private final AtomicInteger holding = new AtomicInteger();
    private volatile CountDownLatch gate = new CountDownLatch(1);

    @POST
    @Path("/fixed-window/{key}")
    @Throttled(name = "exact-fixed-window", limit = LIMIT, window = "1d", algorithm = Algorithm.FIXED_WINDOW)
    public String fixedWindow(@PathParam("key") @ThrottleKey String key) {
        return "ok";
    }

    @POST
    @Path("/sliding-window/{key}")
    @Throttled(name = "exact-sliding-window", limit = LIMIT, window = "1d", algorithm = Algorithm.SLIDING_WINDOW)
    public String slidingWindow(@PathParam("key") @ThrottleKey String key) {
        return "ok";
    }

    @POST
    @Path("/sliding-log/{key}")
    @Throttled(name = "exact-sliding-log", limit = LIMIT, window = "1d", algorithm = Algorithm.SLIDING_LOG)
    public String slidingLog(@PathParam("key") @ThrottleKey String key) {
        return "ok";
    }

    @POST
    @Path("/token-bucket/{key}")
    @Throttled(name = "exact-token-bucket", limit = LIMIT, window = "1d", algorithm = Algorithm.TOKEN_BUCKET)
    public String tokenBucket(@PathParam("key") @ThrottleKey String key) {
        return "ok";
    }

    @POST
    @Path("/leaky-bucket/{key}")
    @Throttled(name = "exact-leaky-bucket", limit = LIMIT, window = "1d", algorithm = Algorithm.LEAKY_BUCKET)
    public String leakyBucket(@PathParam("key") @ThrottleKey String key) {
        return "ok";
    }

    /** Stacked: the daily {@value #LIMIT} is the stricter policy; the other admits everything it is asked. */
    @POST
    @Path("/stacked/{key}")
    @Throttled(name = "exact-stacked-day", limit = LIMIT, window = "1d", algorithm = Algorithm.FIXED_WINDOW)
    @Throttled(name = "exact-stacked-loose", limit = 10_000, window = "1h", algorithm = Algorithm.TOKEN_BUCKET)
    public String stacked(@PathParam("key") @ThrottleKey String key) {
        return "ok";
    }

    /** Reactive: decided at subscription on the event loop. */
    @POST
    @Path("/uni/{key}")
    @Throttled(name = "exact-uni", limit = LIMIT, window = "1d", algorithm = Algorithm.SLIDING_WINDOW)
    public Uni<String> uni(@PathParam("key") @ThrottleKey String key) {
        return Uni.createFrom().item("ok");
    }

    @POST
    @Path("/completion-stage/{key}")
    @Throttled(name = "exact-completion-stage", limit = LIMIT, window = "1d", algorithm = Algorithm.LEAKY_BUCKET)
    public CompletionStage<String> completionStage(@PathParam("key") @ThrottleKey String key) {
        return CompletableFuture.completedFuture("ok");
    }

    /** At most {@value #LIMIT} in flight across all instances: admitted calls wait at a gate until it is opened. */
    @POST
    @Path("/concurrency/{key}")
    @Throttled(name = "exact-concurrency", limit = LIMIT, window = "1h", algorithm = Algorithm.CONCURRENCY)
    public String concurrency(@PathParam("key") @ThrottleKey String key) throws InterruptedException {
        holding.incrementAndGet();
        try {
            gate.await(60, TimeUnit.SECONDS);
        } finally {
            holding.decrementAndGet();
        }
        return "ok";
    }

    /** How many admitted concurrency calls wait at the gate on this instance. */
    @POST
    @Path("/concurrency-holding")
    public int holding() {
        return holding.get();
    }

    /** Lets every waiting concurrency call finish, and closes the gate for the next run. */
    @POST
    @Path("/concurrency-open")
    public String open() {
        CountDownLatch current = gate;
        gate = new CountDownLatch(1);
        current.countDown();
        return "opened";
    }
}
