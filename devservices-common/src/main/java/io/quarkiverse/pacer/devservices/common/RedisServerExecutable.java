package io.quarkiverse.pacer.devservices.common;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code redis-server} executable Pacer's Dev Services can start, checked by running it with {@code --version}.
 *
 * @param path the executable
 * @param version the Redis version it reports, e.g. {@code 6.2.11}
 * @param origin where it comes from, for the log, e.g. {@code on the PATH}
 */
public record RedisServerExecutable(Path path, String version, String origin) {

    private static final Pattern VERSION = Pattern.compile("Redis server v=(\\S+)");
    private static final long VERSION_TIMEOUT_SECONDS = 10;

    /**
     * Resolves {@code command} (a path, or a bare name looked up on the {@code PATH}) to an executable file.
     */
    static Optional<Path> locate(String command) {
        if (command.contains("/") || command.contains(File.separator)) {
            Path path = Path.of(command);
            return Files.isRegularFile(path) && Files.isExecutable(path) ? Optional.of(path) : Optional.empty();
        }
        String pathVariable = System.getenv("PATH");
        if (pathVariable == null) {
            return Optional.empty();
        }
        for (String dir : pathVariable.split(File.pathSeparator)) {
            if (dir.isBlank()) {
                continue;
            }
            Path candidate = Path.of(dir, command);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /**
     * Runs {@code executable --version}.
     *
     * @throws IllegalStateException with what the executable printed when it does not run or is not a redis-server
     */
    static RedisServerExecutable check(Path executable, String origin) {
        String output;
        int exit;
        try {
            Process process = new ProcessBuilder(executable.toString(), "--version").redirectErrorStream(true).start();
            try (InputStream in = process.getInputStream()) {
                output = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
            }
            if (!process.waitFor(VERSION_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(executable + " --version did not finish within "
                        + VERSION_TIMEOUT_SECONDS + " s");
            }
            exit = process.exitValue();
        } catch (IOException e) {
            throw new IllegalStateException(executable + " cannot be run: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + executable + " --version", e);
        }
        Matcher matcher = VERSION.matcher(output);
        if (exit != 0 || !matcher.find()) {
            throw new IllegalStateException(executable + " --version failed (exit code " + exit + "): " + output);
        }
        return new RedisServerExecutable(executable, matcher.group(1), origin);
    }

    /** Whether the reported version is below {@code major.minor}; false when it cannot be read. */
    public boolean olderThan(int major, int minor) {
        String[] parts = version.split("\\.");
        try {
            int actualMajor = Integer.parseInt(parts[0]);
            int actualMinor = parts.length > 1 ? Integer.parseInt(parts[1]) : 0;
            return actualMajor < major || (actualMajor == major && actualMinor < minor);
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** For the log: {@code redis-server 6.2.11 (embedded, /home/me/.cache/...)}. */
    public String describe() {
        return "redis-server " + version + " (" + origin + ", " + path + ")";
    }
}
