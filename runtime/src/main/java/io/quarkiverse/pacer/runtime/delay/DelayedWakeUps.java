package io.quarkiverse.pacer.runtime.delay;

import java.util.List;
import java.util.Map;

import org.jboss.logging.Logger;

import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

/**
 * Listens on the wake-up channels of the queues this instance consumes, one pub/sub connection for all of them, and
 * tells a loop when a producer stored a new earliest message. Correctness never depends on it: a lost notification
 * costs at most one poll interval. A dropped connection is reopened by the next safety poll.
 */
final class DelayedWakeUps {

    private static final Logger LOG = Logger.getLogger(DelayedWakeUps.class);

    private final PacerRedis redis;
    private final Map<String, DelayedConsumerLoop> loopsByChannel;
    private volatile RedisConnection connection;
    private volatile boolean connecting;
    private volatile boolean closed;

    DelayedWakeUps(PacerRedis redis, Map<String, DelayedConsumerLoop> loopsByChannel) {
        this.redis = redis;
        this.loopsByChannel = loopsByChannel;
    }

    /** Opens the subscription unless it is open or opening. */
    synchronized void ensureSubscribed() {
        if (closed || connecting || connection != null || loopsByChannel.isEmpty()) {
            return;
        }
        connecting = true;
        redis.client().connect().onComplete(ar -> {
            synchronized (this) {
                connecting = false;
                if (ar.failed()) {
                    LOG.debugf("Cannot open the delay queue wake-up subscription, relying on polling: %s", ar.cause());
                    return;
                }
                RedisConnection opened = ar.result();
                if (closed) {
                    opened.close();
                    return;
                }
                connection = opened;
                opened.handler(this::onMessage);
                opened.exceptionHandler(failure -> dropped(opened));
                opened.endHandler(v -> dropped(opened));
                Request subscribe = Request.cmd(Command.SUBSCRIBE);
                List<String> channels = List.copyOf(loopsByChannel.keySet());
                channels.forEach(subscribe::arg);
                opened.send(subscribe).onFailure(failure -> dropped(opened));
            }
        });
    }

    private synchronized void dropped(RedisConnection which) {
        if (connection == which) {
            connection = null;
            which.close();
        }
    }

    private void onMessage(Response message) {
        // RESP2 delivers ["message", channel, data] as an array, RESP3 as a push; both index the same way.
        if (message == null || message.size() < 3 || !"message".equals(message.get(0).toString())) {
            return;
        }
        DelayedConsumerLoop loop = loopsByChannel.get(message.get(1).toString());
        if (loop != null) {
            try {
                loop.wakeAt(Long.parseLong(message.get(2).toString()));
            } catch (NumberFormatException e) {
                loop.poll();
            }
        }
    }

    synchronized void close() {
        closed = true;
        RedisConnection current = connection;
        connection = null;
        if (current != null) {
            current.close();
        }
    }
}
