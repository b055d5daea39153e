package io.quarkiverse.pacer.runtime.redis;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import io.vertx.redis.client.Response;

/**
 * The batching of one {@link PipelinedConnection}, confined to its context: a {@link Batchable} request goes out at
 * once while its group has fewer than {@link #MAX_IN_FLIGHT} calls in flight on the connection; otherwise it waits,
 * and when one of the group's calls is answered everything waiting (up to {@link #MAX_PARTS}) goes as one call. So a
 * batch is only what queued while Redis was busy with the group: no timer, no delay for a lone caller. When
 * {@link #FULL_PARTS} wait and the group has fewer than {@link #MAX_IN_FLIGHT_FULL} calls in flight, they go at once
 * as one call: many callers do not wait for an answer when their batch already amortizes a script call.
 */
final class RequestBatches {

    /** Calls of one group in flight at once: two keep Redis busy while the next batch fills. */
    static final int MAX_IN_FLIGHT = 2;
    /** Requests per batch, at most, so that one call stays well under a millisecond of Redis's time. */
    static final int MAX_PARTS = 32;
    /** Waiting requests that go at once as one call, without waiting for an answer, while there is room in flight. */
    static final int FULL_PARTS = 8;
    /** Calls of one group in flight at once when the later ones are batches of {@link #FULL_PARTS} or more. */
    static final int MAX_IN_FLIGHT_FULL = 4;

    private final Map<Object, Group> groups = new HashMap<>();
    /** Resends a batch with the script's source after {@code NOSCRIPT}. */
    private final Consumer<PendingRequest> resend;
    private int waiting;

    RequestBatches(Consumer<PendingRequest> resend) {
        this.resend = resend;
    }

    private static final class Group {
        final Object key;
        final ArrayDeque<PendingRequest> waiting = new ArrayDeque<>();
        int inFlight;

        Group(Object key) {
            this.key = key;
        }
    }

    /** Requests waiting for their group, over all groups. */
    int waiting() {
        return waiting;
    }

    /**
     * Takes {@code request} into its group and returns the call to send now: {@code request} itself (not batchable, or
     * its group has room in flight), a batch of what waits in its group ({@link #FULL_PARTS} wait and the group has
     * room for it, {@link #MAX_IN_FLIGHT_FULL}), or {@code null} while it waits. A call of a group must be
     * {@link #released} once it leaves the connection.
     */
    PendingRequest admit(PendingRequest request) {
        Batchable batchable = request.batchable();
        if (batchable == null) {
            return request;
        }
        Group group = groups.computeIfAbsent(batchable.group(), Group::new);
        request.group(group);
        if (group.inFlight < MAX_IN_FLIGHT) {
            group.inFlight++;
            return request;
        }
        group.waiting.add(request);
        waiting++;
        if (group.waiting.size() >= FULL_PARTS && group.inFlight < MAX_IN_FLIGHT_FULL) {
            return next(group);
        }
        return null;
    }

    /**
     * A request that counted against its group left the connection (answered, failed or skipped): returns the group's
     * next call, a batch of what waited (or one request alone), or {@code null}.
     */
    PendingRequest released(PendingRequest request) {
        Group group = (Group) request.group();
        if (group == null) {
            return null;
        }
        request.group(null);
        group.inFlight--;
        return next(group);
    }

    /** What waits in {@code group} (up to {@link #MAX_PARTS}) as its next call in flight, or {@code null}. */
    private PendingRequest next(Group group) {
        List<PendingRequest> parts = new ArrayList<>();
        while (parts.size() < MAX_PARTS && !group.waiting.isEmpty()) {
            PendingRequest next = group.waiting.poll();
            waiting--;
            if (!next.isDone()) {
                parts.add(next);
            }
        }
        if (parts.isEmpty()) {
            if (group.inFlight == 0 && group.waiting.isEmpty()) {
                groups.remove(group.key);
            }
            return null;
        }
        group.inFlight++;
        PendingRequest next = parts.size() == 1 ? parts.get(0) : batch(parts, false);
        next.group(group);
        return next;
    }

    /** A request that waited timed out: it leaves its group's queue. */
    boolean remove(PendingRequest request) {
        Group group = (Group) request.group();
        if (group != null && group.waiting.remove(request)) {
            waiting--;
            request.group(null);
            return true;
        }
        return false;
    }

    private PendingRequest batch(List<PendingRequest> parts, boolean source) {
        List<Batchable> batchables = new ArrayList<>(parts.size());
        long budget = Long.MAX_VALUE;
        for (PendingRequest part : parts) {
            batchables.add(part.batchable());
            budget = Math.min(budget, part.budgetNanos());
        }
        PendingRequest[] batch = new PendingRequest[1];
        batch[0] = new PendingRequest(batchables.get(0).batch(batchables, source), budget,
                response -> answer(parts, response), failure -> {
                    if (!source && PacerRedis.isNoScript(failure)) {
                        PendingRequest again = batch(parts, true);
                        // The failed call still holds its group's place until it is released: the resend takes its own.
                        Group group = (Group) batch[0].group();
                        if (group != null) {
                            group.inFlight++;
                            again.group(group);
                        }
                        resend.accept(again);
                    } else {
                        for (PendingRequest part : parts) {
                            part.fail(failure);
                        }
                    }
                }, null);
        batch[0].parts(parts);
        return batch[0];
    }

    /**
     * {@code parts} (of one group, at most {@link #MAX_PARTS}) as one call, for a caller that sends it itself
     * ({@link GroupCommit}); a failure of the call fails every part, which its own caller may retry alone, after
     * {@code noScript} got the batch's script when the failure was {@code NOSCRIPT}.
     */
    static PendingRequest together(List<PendingRequest> parts, Consumer<LuaScript> noScript) {
        List<Batchable> batchables = new ArrayList<>(parts.size());
        long budget = Long.MAX_VALUE;
        for (PendingRequest part : parts) {
            batchables.add(part.batchable());
            budget = Math.min(budget, part.budgetNanos());
        }
        PendingRequest batch = new PendingRequest(batchables.get(0).batch(batchables, false), budget,
                response -> answer(parts, response), failure -> {
                    LuaScript script = batchables.get(0).batchScript();
                    if (script != null && PacerRedis.isNoScript(failure)) {
                        noScript.accept(script);
                    }
                    for (PendingRequest part : parts) {
                        part.fail(failure);
                    }
                }, null);
        batch.parts(parts);
        return batch;
    }

    private static void answer(List<PendingRequest> parts, Response response) {
        for (int i = 0; i < parts.size(); i++) {
            PendingRequest part = parts.get(i);
            Response answer;
            try {
                answer = part.batchable().part(response, i);
            } catch (RuntimeException e) {
                part.fail(e);
                continue;
            }
            if (answer instanceof Throwable failure) {
                part.fail(failure);
            } else {
                part.complete(answer);
            }
        }
    }
}
