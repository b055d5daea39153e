package io.quarkiverse.pacer.benchmarks.scheduler;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * CPU time of this JVM's threads grouped by name ({@code /proc/self/task/<tid>/comm}, digits dropped, so the event
 * loops, the worker threads and Pacer's connection threads are one group each), for where a scheduler row's JVM CPU
 * goes. Empty where {@code /proc} is missing.
 */
final class ThreadCpu {

    /** Clock ticks per second of {@code /proc/.../stat} times (USER_HZ, 100 on Linux). */
    private static final double TICKS_PER_SECOND = 100;

    private ThreadCpu() {
    }

    /** Ticks of CPU (user + system) per thread group, now. */
    static Map<String, Long> snapshot() {
        Map<String, Long> groups = new HashMap<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path task : tasks) {
                try {
                    String name = Files.readString(task.resolve("comm")).trim().replaceAll("[0-9]+", "#");
                    String stat = Files.readString(task.resolve("stat"));
                    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    // after the name: state(0) ... utime(11) stime(12)
                    long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
                    groups.merge(name, ticks, Long::sum);
                } catch (IOException | RuntimeException e) {
                    // the thread ended meanwhile
                }
            }
        } catch (IOException | RuntimeException e) {
            return Map.of();
        }
        return groups;
    }

    /** Busy and total jiffies of the whole machine ({@code /proc/stat}), {0, 0} where it is missing. */
    static long[] machine() {
        try {
            String[] fields = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            long total = 0;
            for (int i = 1; i < fields.length; i++) {
                total += Long.parseLong(fields[i]);
            }
            // idle and iowait
            long idle = Long.parseLong(fields[4]) + Long.parseLong(fields[5]);
            return new long[] { total - idle, total };
        } catch (IOException | RuntimeException e) {
            return new long[] { 0, 0 };
        }
    }

    /** The machine's busy share between two {@link #machine()} readings. */
    static double busyShare(long[] before, long[] after) {
        long total = after[1] - before[1];
        return total <= 0 ? 0 : (after[0] - before[0]) / (double) total;
    }

    /** The {@code limit} busiest groups between two snapshots, in cores over {@code seconds}. */
    static String busiest(Map<String, Long> before, Map<String, Long> after, double seconds, int limit) {
        Map<String, Long> delta = new HashMap<>();
        after.forEach((name, ticks) -> delta.put(name, ticks - before.getOrDefault(name, 0L)));
        return delta.entrySet().stream().filter(e -> e.getValue() > 0)
                .sorted(Map.Entry.<String, Long> comparingByValue().reversed()).limit(limit)
                .map(e -> String.format(Locale.ROOT, "%s %.2f", e.getKey(), e.getValue() / TICKS_PER_SECOND / seconds))
                .collect(Collectors.joining(", "));
    }
}
