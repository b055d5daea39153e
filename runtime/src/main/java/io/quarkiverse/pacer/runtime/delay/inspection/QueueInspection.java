package io.quarkiverse.pacer.runtime.delay.inspection;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import io.quarkiverse.pacer.runtime.delay.DelayedScripts;
import io.quarkiverse.pacer.runtime.delay.PayloadCodec;
import io.quarkiverse.pacer.runtime.delay.QueueShards;
import io.quarkiverse.pacer.runtime.delay.StoredPayload;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.smallrye.mutiny.Uni;
import io.vertx.redis.client.Response;

/** Read-only views of a queue over its shards: its depth by state and its waiting messages. */
public final class QueueInspection {

    private final PacerRedis redis;
    private final QueueShards shards;

    public QueueInspection(PacerRedis redis, QueueShards shards) {
        this.redis = redis;
        this.shards = shards;
    }

    /** The messages of a queue in each state, summed over its shards; O(log n) per shard. */
    public Uni<QueueDepth> depth(String queue) {
        return shards.each(queue, k -> redis.eval(DelayedScripts.SIZE, k.all, List.of()))
                .map(responses -> {
                    long scheduled = 0, overdue = 0, inFlight = 0, dead = 0, oldestAge = -1;
                    for (Response r : responses) {
                        scheduled += r.get(0).toLong();
                        overdue += r.get(1).toLong();
                        inFlight += r.get(2).toLong();
                        dead += r.get(3).toLong();
                        long oldestDue = r.get(4).toLong();
                        if (oldestDue >= 0) {
                            oldestAge = Math.max(oldestAge, Math.max(0, r.get(5).toLong() - oldestDue));
                        }
                    }
                    return new QueueDepth(queue, scheduled, overdue, inFlight, dead, oldestAge);
                });
    }

    /**
     * The waiting messages of {@code queue} due first, at most {@code limit} (1 to 1000), payloads cut to
     * {@code maxPayloadBytes}.
     */
    public Uni<List<WaitingMessage>> waiting(String queue, int limit, int maxPayloadBytes) {
        if (limit < 1 || limit > 1000) {
            throw new IllegalArgumentException("Waiting message limit must be between 1 and 1000: " + limit);
        }
        return shards.each(queue, k -> redis.eval(DelayedScripts.WAITING, k.all,
                List.of(Integer.toString(limit), Integer.toString(maxPayloadBytes))))
                .map(responses -> {
                    List<WaitingMessage> messages = new ArrayList<>();
                    for (Response r : responses) {
                        for (int i = 0; i + 6 < r.size(); i += 7) {
                            String cut = r.get(i + 4).toString();
                            StoredPayload payload = StoredPayload.read(cut, r.get(i + 5).toString());
                            String encoding = payload.encoding();
                            String stored = payload.value();
                            long length = r.get(i + 6).toLong() - (cut.length() - stored.length());
                            // A cut Base64 text cannot be decoded: show it as stored.
                            String text = PayloadCodec.BYTES.equals(encoding) ? "base64:" + stored : stored;
                            messages.add(new WaitingMessage(r.get(i).toString(), queue,
                                    Instant.ofEpochMilli(r.get(i + 1).toLong()), r.get(i + 2).toInteger(),
                                    r.get(i + 3).toInteger(), text, stored.length() < length));
                        }
                    }
                    messages.sort(Comparator.comparing(WaitingMessage::dueAt).thenComparing(WaitingMessage::id));
                    return messages.size() > limit ? new ArrayList<>(messages.subList(0, limit)) : messages;
                });
    }
}
