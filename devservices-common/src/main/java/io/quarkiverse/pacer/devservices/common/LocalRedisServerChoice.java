package io.quarkiverse.pacer.devservices.common;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Chooses the {@code redis-server} executable Pacer's Dev Services start, from
 * {@code quarkus.pacer.devservices.redis-server}: {@code auto} (the one on the {@code PATH}, else the embedded one when
 * the application depends on {@link EmbeddedRedisBinary#OPT_IN_ARTIFACT}), {@code path}, {@code embedded}, or an
 * explicit executable.
 */
public final class LocalRedisServerChoice {

    public static final String AUTO = "auto";
    static final String PATH = "path";
    static final String EMBEDDED = "embedded";
    private static final String ON_PATH_NAME = "redis-server";
    private static final String EMBEDDED_ORIGIN = "embedded in ";

    private LocalRedisServerChoice() {
    }

    /** Whether {@code setting} leaves the choice to Pacer, containers included. */
    public static boolean isAuto(String setting) {
        return AUTO.equals(setting);
    }

    /** Whether {@code server} is the embedded one. */
    public static boolean isEmbedded(RedisServerExecutable server) {
        return server.origin().startsWith(EMBEDDED_ORIGIN);
    }

    /**
     * The executable to start, checked with {@code --version}.
     *
     * @throws IllegalStateException listing every candidate tried and why it was not usable
     */
    public static RedisServerExecutable choose(String setting) {
        List<String> failures = new ArrayList<>();
        Optional<RedisServerExecutable> chosen = switch (setting) {
            case AUTO -> onPath(failures).or(() -> embedded(failures));
            case PATH -> onPath(failures);
            case EMBEDDED -> embedded(failures);
            default -> explicit(setting, failures);
        };
        return chosen.orElseThrow(() -> new IllegalStateException(String.join("; ", failures)));
    }

    private static Optional<RedisServerExecutable> onPath(List<String> failures) {
        Optional<Path> found = RedisServerExecutable.locate(ON_PATH_NAME);
        if (found.isEmpty()) {
            failures.add("'" + ON_PATH_NAME + "' was not found on the PATH");
            return Optional.empty();
        }
        return check(found.get(), "on the PATH", failures);
    }

    private static Optional<RedisServerExecutable> explicit(String command, List<String> failures) {
        Optional<Path> found = RedisServerExecutable.locate(command);
        if (found.isEmpty()) {
            failures.add("'" + command + "' was not found" + (command.contains("/") ? "" : " on the PATH"));
            return Optional.empty();
        }
        return check(found.get(), "quarkus.pacer.devservices.redis-server", failures);
    }

    private static Optional<RedisServerExecutable> embedded(List<String> failures) {
        String origin = EMBEDDED_ORIGIN + EmbeddedRedisBinary.ARTIFACT + ":"
                + EmbeddedRedisBinary.artifactVersion().orElse("?");
        for (int attempt = 1; attempt <= 2; attempt++) {
            Path binary;
            try {
                binary = EmbeddedRedisBinary.extract();
            } catch (IllegalStateException e) {
                failures.add("no embedded redis-server: " + e.getMessage());
                return Optional.empty();
            }
            List<String> checkFailures = new ArrayList<>();
            Optional<RedisServerExecutable> checked = check(binary, origin, checkFailures);
            if (checked.isPresent()) {
                return checked;
            }
            // e.g. a truncated copy left by a crashed build: extract afresh once; missing system libraries fail again
            EmbeddedRedisBinary.discard(binary);
            if (attempt == 2) {
                failures.add("the embedded redis-server does not run: " + String.join("; ", checkFailures));
            }
        }
        return Optional.empty();
    }

    private static Optional<RedisServerExecutable> check(Path executable, String origin, List<String> failures) {
        try {
            return Optional.of(RedisServerExecutable.check(executable, origin));
        } catch (IllegalStateException e) {
            failures.add(e.getMessage());
            return Optional.empty();
        }
    }
}
