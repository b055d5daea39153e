package io.quarkiverse.pacer.runtime.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The catch-ups a {@link RedisTimeSleeper} was asked for and has not finished: each is done once a read (or pass)
 * started after it found nothing due. Not thread-safe: its owner guards it with its own lock, the one that also orders
 * its reads. Empty in an application (only the test kit asks).
 */
public final class CatchUps {

    private record CatchUp(long number, CompletableFuture<Void> done) {
    }

    private final List<CatchUp> waiting = new ArrayList<>(0);
    /** Catch-ups asked for, numbered from 1. */
    private long asked;
    /** The catch-ups the read in progress was started after. */
    private long reading;

    /** A new catch-up: completes once a read started after this call found nothing due. */
    public CompletableFuture<Void> ask() {
        CompletableFuture<Void> done = new CompletableFuture<>();
        waiting.add(new CatchUp(++asked, done));
        return done;
    }

    /** A read starts now: it counts for the catch-ups asked so far. */
    public void reading() {
        reading = asked;
    }

    /** Whether a catch-up was asked for after the read in progress started: it needs a read of its own. */
    public boolean askedSinceRead() {
        return asked > reading;
    }

    /** Whether some catch-up is not done yet. */
    public boolean pending() {
        return !waiting.isEmpty();
    }

    /** The read in progress found nothing due: the catch-ups it was started after are done. */
    public void caughtUp() {
        if (waiting.isEmpty()) {
            return;
        }
        waiting.removeIf(catchUp -> {
            if (catchUp.number() <= reading) {
                catchUp.done().complete(null);
                return true;
            }
            return false;
        });
    }

    /** The loop stopped: every catch-up is done. */
    public void completeAll() {
        waiting.forEach(catchUp -> catchUp.done().complete(null));
        waiting.clear();
    }
}
