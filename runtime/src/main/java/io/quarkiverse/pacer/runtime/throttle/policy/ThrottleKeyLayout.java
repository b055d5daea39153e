package io.quarkiverse.pacer.runtime.throttle.policy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where throttling state lives in Redis: {@code <prefix>:t:{<tag>}<policy>}, the base key an algorithm appends its
 * suffix to ({@code :tb}, {@code :fw:<window>}, ...).
 * <ul>
 * <li>The hash tag is the call's encoded key (see {@link ThrottleKeyBuilder}), so every policy of a stacked call sits
 * in one Redis Cluster slot: all policies of one method share the call's key. For the global key (a method without
 * key) the tag is {@code \g<group>}, where the group is the first name, in sorted order, of the policies linked by
 * methods stacking them globally; a policy keeps one state however many methods use it. No encoded key starts with
 * {@code \g}, so global and keyed tags never meet.</li>
 * <li>The tag escapes {@code %} and <code>}</code> ({@code %25}, {@code %7D}) so the tag ends at the closing brace
 * Pacer writes; the policy name escapes {@code %} and {@code :} ({@code %25}, {@code %3A}) so it ends where an
 * algorithm's suffix begins. The key therefore decodes to exactly one (tag, policy, suffix): no policy name and key
 * value can produce another pair's key.</li>
 * </ul>
 */
public final class ThrottleKeyLayout {

    /** Starts the tag of a global key; {@link ThrottleKeyBuilder} never produces it. */
    static final String GLOBAL_TAG_START = "\\g";

    private ThrottleKeyLayout() {
    }

    /** The part every base key of the prefix starts with, up to and including the tag's opening brace. */
    static String start(String keyPrefix) {
        return keyPrefix + ":t:{";
    }

    /** The part after the tag: the closing brace and the escaped policy name. */
    static String end(String policy) {
        return "}" + escape(policy, ':', "%3A");
    }

    /** The tag of an encoded key, escaped. */
    public static String tag(String encodedKey) {
        return escape(encodedKey, '}', "%7D");
    }

    /** The tag (escaped) of the global key of a policy whose group is led by {@code groupLeader}. */
    static String globalTag(String groupLeader) {
        return tag(GLOBAL_TAG_START + groupLeader);
    }

    /**
     * The base key of {@code policy} for an encoded key ({@code ""} for the global key of the group led by
     * {@code groupLeader}): the one rule, shared by Pacer and by tests that play a second instance.
     */
    public static String baseKey(String keyPrefix, String policy, String encodedKey, String groupLeader) {
        String tag = encodedKey.isEmpty() ? globalTag(groupLeader) : tag(encodedKey);
        return start(keyPrefix) + tag + end(policy);
    }

    /**
     * Whether {@code key} holds state of {@code policy} (any key, any algorithm suffix) under {@code keyPrefix}: the
     * decoding of {@link #baseKey}, for callers that find a policy's keys with {@code SCAN} (the test kit).
     */
    public static boolean isStateOf(String key, String keyPrefix, String policy) {
        String start = start(keyPrefix);
        if (!key.startsWith(start)) {
            return false;
        }
        // The tag escapes every closing brace, so the first one after the start ends it.
        int tagEnd = key.indexOf('}', start.length());
        String end = end(policy);
        return tagEnd >= 0 && key.startsWith(end, tagEnd)
                && (key.length() == tagEnd + end.length() || key.charAt(tagEnd + end.length()) == ':');
    }

    /** The start of every throttling key under {@code keyPrefix}, up to and including the tag's opening brace. */
    public static String stateKeyStart(String keyPrefix) {
        return start(keyPrefix);
    }

    /**
     * The global-key groups: policies that methods without a key stack together share their global tag, transitively,
     * so one decision touches one slot. Returns the group leader (the first name in sorted order) of every policy that
     * appears in {@code globalStacks}; any other policy leads its own group.
     */
    static Map<String, String> globalGroups(List<List<String>> globalStacks) {
        Map<String, String> parent = new TreeMap<>();
        for (List<String> stack : globalStacks) {
            for (String policy : stack) {
                parent.putIfAbsent(policy, policy);
            }
            for (int i = 1; i < stack.size(); i++) {
                String a = root(parent, stack.get(0));
                String b = root(parent, stack.get(i));
                if (!a.equals(b)) {
                    // The smaller name becomes the root, so the root is the group's first name in sorted order.
                    if (a.compareTo(b) < 0) {
                        parent.put(b, a);
                    } else {
                        parent.put(a, b);
                    }
                }
            }
        }
        Map<String, String> leaders = new HashMap<>();
        for (String policy : parent.keySet()) {
            leaders.put(policy, root(parent, policy));
        }
        return leaders;
    }

    private static String root(Map<String, String> parent, String policy) {
        String current = policy;
        while (true) {
            String next = parent.get(current);
            if (next.equals(current)) {
                return current;
            }
            current = next;
        }
    }

    /** Startup check: a brace in the prefix would move the hash tag away from the one Pacer writes. */
    static boolean isValidKeyPrefix(String keyPrefix) {
        return keyPrefix.indexOf('{') < 0 && keyPrefix.indexOf('}') < 0;
    }

    /** Escapes {@code %} and {@code special}; returns {@code text} itself when neither occurs (the common case). */
    private static String escape(String text, char special, String replacement) {
        if (text.indexOf('%') < 0 && text.indexOf(special) < 0) {
            return text;
        }
        StringBuilder escaped = new StringBuilder(text.length() + 8);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '%') {
                escaped.append("%25");
            } else if (c == special) {
                escaped.append(replacement);
            } else {
                escaped.append(c);
            }
        }
        return escaped.toString();
    }
}
