package io.quarkiverse.pacer.benchmarks.delay;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.quarkiverse.pacer.benchmarks.BenchmarkContext;
import io.quarkiverse.pacer.benchmarks.LoadRunner;
import io.quarkiverse.pacer.benchmarks.LoadRunner.LoadResult;

/**
 * Redis's work per message of one implementation over its measured slices, from {@code INFO commandstats} reset
 * before each: script calls ({@code EVAL}, {@code EVALSHA}) and the Redis time they took (which includes the commands
 * they ran). Approximate: a slice's messages are its measured calls scaled to the slice's lead-in.
 */
final class ScriptWork {

    private static final Pattern SCRIPT_STATS = Pattern.compile("cmdstat_(?:evalsha|eval):calls=(\\d+),usec=(\\d+)");

    private long calls;
    private long micros;
    private double messages;

    /** {@code slice}, with the script work of its measured runs added to this one. */
    LoadRunner.Slice around(BenchmarkContext context, LoadRunner.Slice slice) {
        return (leadIn, window) -> {
            context.admin("CONFIG", "RESETSTAT");
            LoadResult result = slice.run(leadIn, window);
            if (!window.isZero()) {
                Matcher stats = SCRIPT_STATS.matcher(String.valueOf(context.admin("INFO", "commandstats")));
                while (stats.find()) {
                    calls += Long.parseLong(stats.group(1));
                    micros += Long.parseLong(stats.group(2));
                }
                messages += result.calls() * (double) leadIn.plus(window).toNanos() / window.toNanos();
            }
            return result;
        };
    }

    String describe() {
        if (messages <= 0) {
            return "Redis work not measured";
        }
        return String.format(Locale.ROOT, "Redis per msg ≈ %.2f script calls, %.1f µs in scripts (INFO commandstats)",
                calls / messages, micros / messages);
    }
}
