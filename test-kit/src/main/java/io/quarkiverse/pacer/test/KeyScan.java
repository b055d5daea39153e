package io.quarkiverse.pacer.test;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

/** Finds keys with {@code SCAN} on every node (every master of a Redis Cluster) and deletes them one by one. */
final class KeyScan {

    private static final int COUNT = 1000;

    private final PacerRedis redis;

    KeyScan(PacerRedis redis) {
        this.redis = redis;
    }

    /** The keys matching the glob {@code pattern} that {@code accept} keeps, over every node. */
    List<String> find(String pattern, Predicate<String> accept) {
        // SCAN may return a key twice.
        Set<String> found = new LinkedHashSet<>();
        for (int node = 0; node < redis.nodes(); node++) {
            String cursor = "0";
            do {
                Response page = redis.sendToNode(node,
                        Request.cmd(Command.SCAN).arg(cursor).arg("MATCH").arg(pattern).arg("COUNT").arg(COUNT))
                        .await().atMost(KitScripts.TIMEOUT);
                cursor = page.get(0).toString();
                for (Response key : page.get(1)) {
                    String name = key.toString();
                    if (accept.test(name)) {
                        found.add(name);
                    }
                }
            } while (!"0".equals(cursor));
        }
        return new ArrayList<>(found);
    }

    /** Deletes each key (one command per key, so each reaches its own slot on Redis Cluster); returns how many existed. */
    long delete(List<String> keys) {
        long deleted = 0;
        for (String key : keys) {
            deleted += redis.send(Request.cmd(Command.DEL).arg(key)).await().atMost(KitScripts.TIMEOUT).toLong();
        }
        return deleted;
    }

    /** Escapes the glob characters of {@code text}, so it matches only itself in a {@code SCAN} pattern. */
    static String literal(String text) {
        StringBuilder escaped = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\') {
                escaped.append('\\');
            }
            escaped.append(c);
        }
        return escaped.toString();
    }
}
