package io.quarkiverse.pacer.benchmarks.delay;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The Redis calls of a census window (every command, from a slow log with a 0 µs threshold) against the messages
 * delivered meanwhile: script calls by name and the queue commands, then every command in all (Redis logs the
 * commands a script runs as entries of their own, so the total counts the work inside scripts too).
 */
record CallCensus(Map<String, Long> named, long commands, long delivered) {

    /** Commands named on their own, beside script calls: the peers' queue commands. */
    private static final List<String> QUEUE_COMMANDS = List.of("BLPOP", "LPOP", "PUBLISH", "BZPOPMIN");

    @SuppressWarnings("unchecked")
    static CallCensus of(List<Object> slowlog, long delivered, Map<String, String> scriptNames) {
        Map<String, Long> named = new HashMap<>();
        long commands = 0;
        for (Object entry : slowlog) {
            List<Object> args = (List<Object>) ((List<Object>) entry).get(3);
            if (args.isEmpty() || isHarnessCommand(String.valueOf(args.get(0)))) {
                continue;
            }
            commands++;
            String command = String.valueOf(args.get(0)).toUpperCase(Locale.ROOT);
            if (command.equals("EVALSHA") || command.equals("EVAL")) {
                String sha = args.size() > 1 ? String.valueOf(args.get(1)) : "?";
                named.merge(scriptNames.getOrDefault(sha, "script " + sha.substring(0, Math.min(8, sha.length()))),
                        1L, Long::sum);
            } else if (QUEUE_COMMANDS.contains(command)) {
                named.merge(command, 1L, Long::sum);
            }
        }
        return new CallCensus(named, commands, delivered);
    }

    static boolean isHarnessCommand(String command) {
        String upper = command.toUpperCase(Locale.ROOT);
        return upper.equals("SLOWLOG") || upper.equals("CONFIG") || upper.equals("FLUSHALL");
    }

    CallCensus plus(CallCensus other) {
        Map<String, Long> sum = new HashMap<>(named);
        other.named.forEach((name, count) -> sum.merge(name, count, Long::sum));
        return new CallCensus(sum, commands + other.commands, delivered + other.delivered);
    }

    /** The five commonest named calls per delivered message, then all commands per message. */
    String describe() {
        if (delivered <= 0) {
            return "none delivered";
        }
        StringBuilder text = new StringBuilder();
        named.entrySet().stream().sorted(Map.Entry.<String, Long> comparingByValue().reversed()).limit(5)
                .forEach(e -> text.append(text.length() == 0 ? "" : ", ").append(e.getKey()).append(' ')
                        .append(String.format(Locale.ROOT, "%.2f", e.getValue() / (double) delivered)));
        text.append(String.format(Locale.ROOT, "; %.1f Redis commands per msg in all", commands / (double) delivered));
        return text.toString();
    }
}
