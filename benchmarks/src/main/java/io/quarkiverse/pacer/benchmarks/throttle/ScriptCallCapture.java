package io.quarkiverse.pacer.benchmarks.throttle;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import io.quarkiverse.pacer.benchmarks.RespConnection;

/**
 * Records, with {@code MONITOR}, the exact {@code EVALSHA} Pacer sends for one call, so the raw-script baseline runs
 * the very same script with the very same arguments (and keeps working whatever the argument layout becomes).
 */
public final class ScriptCallCapture {

    /**
     * One captured script call. {@code varyingArgs} are the ARGV positions that differed between two captured calls
     * (a per-call token, say): the baseline fills them with a fresh unique value per call, as Pacer does.
     */
    public record CapturedCall(String sha, List<String> keys, List<String> args, Set<Integer> varyingArgs) {
    }

    private ScriptCallCapture() {
    }

    /**
     * Calls {@code pacerCall} twice while monitoring and returns its {@code EVALSHA}. The call must use a key that
     * contains {@code marker}, which is how its command is told apart from any other traffic.
     */
    public static CapturedCall capture(int port, String marker, Runnable pacerCall) throws Exception {
        pacerCall.run(); // loads the script (EVALSHA, NOSCRIPT, EVAL) before recording
        try (RespConnection monitor = RespConnection.open(port)) {
            monitor.write("MONITOR");
            monitor.read(); // +OK
            pacerCall.run();
            pacerCall.run();
            monitor.timeout(5000);
            List<List<String>> calls = new ArrayList<>();
            long deadline = System.currentTimeMillis() + 10_000;
            while (calls.size() < 2 && System.currentTimeMillis() < deadline) {
                Object line;
                try {
                    line = monitor.read();
                } catch (SocketTimeoutException e) {
                    break;
                }
                if (line instanceof String text) {
                    List<String> command = parseMonitorLine(text);
                    if (command.size() > 2 && command.get(0).equalsIgnoreCase("EVALSHA")
                            && String.join(" ", command).contains(marker)) {
                        calls.add(command);
                    }
                }
            }
            if (calls.size() < 2) {
                throw new IllegalStateException("MONITOR saw no EVALSHA carrying '" + marker + "' for a Pacer call");
            }
            return toCall(calls.get(0), calls.get(1));
        }
    }

    private static CapturedCall toCall(List<String> first, List<String> second) {
        String sha = first.get(1);
        int numKeys = Integer.parseInt(first.get(2));
        List<String> keys = List.copyOf(first.subList(3, 3 + numKeys));
        List<String> args = List.copyOf(first.subList(3 + numKeys, first.size()));
        List<String> otherArgs = second.subList(3 + numKeys, second.size());
        Set<Integer> varying = new HashSet<>();
        for (int i = 0; i < args.size() && i < otherArgs.size(); i++) {
            if (!args.get(i).equals(otherArgs.get(i))) {
                varying.add(i);
            }
        }
        return new CapturedCall(sha, keys, args, Set.copyOf(varying));
    }

    /**
     * Parses {@code 1700000000.123456 [0 127.0.0.1:1234] "EVALSHA" "abc" ...}: quoted arguments with Redis's escapes.
     */
    static List<String> parseMonitorLine(String line) throws IOException {
        List<String> args = new ArrayList<>();
        int i = line.indexOf(']');
        if (i < 0) {
            return args;
        }
        i++;
        while (i < line.length()) {
            char c = line.charAt(i);
            if (c != '"') {
                i++;
                continue;
            }
            StringBuilder arg = new StringBuilder();
            i++;
            while (i < line.length() && line.charAt(i) != '"') {
                char ch = line.charAt(i);
                if (ch == '\\' && i + 1 < line.length()) {
                    char next = line.charAt(i + 1);
                    switch (next) {
                        case 'n' -> arg.append('\n');
                        case 'r' -> arg.append('\r');
                        case 't' -> arg.append('\t');
                        case 'a' -> arg.append((char) 7);
                        case 'b' -> arg.append('\b');
                        case 'x' -> {
                            arg.append((char) Integer.parseInt(line.substring(i + 2, i + 4), 16));
                            i += 2;
                        }
                        default -> arg.append(next);
                    }
                    i += 2;
                } else {
                    arg.append(ch);
                    i++;
                }
            }
            args.add(arg.toString());
            i++;
        }
        return args;
    }
}
