package io.quarkiverse.pacer.devservices.common;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;

/**
 * The {@code redis-server} binaries shipped in the Maven artifact {@code com.github.codemonstur:embedded-redis}, on the
 * classpath only where an application (or this repository's tests) opted in with {@link #OPT_IN_ARTIFACT}. The binary
 * for this OS and CPU is copied once into a cache directory, made executable and reused by every later build.
 */
public final class EmbeddedRedisBinary {

    static final String ARTIFACT = "com.github.codemonstur:embedded-redis";
    /** The opt-in dependency that brings {@link #ARTIFACT}, and nothing else, onto the classpath. */
    public static final String OPT_IN_ARTIFACT = "io.quarkiverse.pacer:quarkus-pacer-embedded-redis";
    private static final String POM_PROPERTIES = "META-INF/maven/com.github.codemonstur/embedded-redis/pom.properties";

    private EmbeddedRedisBinary() {
    }

    /** The artifact's version, which names the cache directory, or empty when the artifact is not on the classpath. */
    static Optional<String> artifactVersion() {
        try (InputStream in = classLoader().getResourceAsStream(POM_PROPERTIES)) {
            if (in == null) {
                return Optional.empty();
            }
            Properties properties = new Properties();
            properties.load(in);
            return Optional.ofNullable(properties.getProperty("version"));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /**
     * The classpath resource holding the binary for {@code os.name}/{@code os.arch}, or empty where the artifact ships
     * none (the Windows binary is a Redis 5.0 port, below the supported range, so Windows has none).
     */
    static Optional<String> resourceName(String osName, String osArch) {
        String os = osName.toLowerCase(Locale.ROOT);
        String arch = osArch.toLowerCase(Locale.ROOT);
        boolean x64 = arch.equals("amd64") || arch.equals("x86_64");
        boolean arm64 = arch.equals("aarch64") || arch.equals("arm64");
        boolean x86 = arch.equals("x86") || arch.equals("i386") || arch.equals("i486") || arch.equals("i586")
                || arch.equals("i686");
        if (os.startsWith("linux")) {
            if (x64) {
                return Optional.of("redis-server-6.2.6-v5-linux-amd64");
            }
            if (arm64) {
                return Optional.of("redis-server-6.2.7-linux-arm64");
            }
            if (x86) {
                return Optional.of("redis-server-6.2.7-linux-386");
            }
        } else if (os.startsWith("mac") || os.startsWith("darwin")) {
            if (x64) {
                return Optional.of("redis-server-6.2.6-v5-darwin-amd64");
            }
            if (arm64) {
                return Optional.of("redis-server-6.2.6-v5-darwin-arm64");
            }
        }
        return Optional.empty();
    }

    /** {@code ~/.cache/quarkus-pacer/redis/<artifact version>/}, or under {@code $XDG_CACHE_HOME} when set. */
    static Path cacheDirectory(String version) {
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
        return base.resolve("quarkus-pacer").resolve("redis").resolve(version);
    }

    /**
     * The extracted, executable binary for this machine. Extraction writes a temporary file next to the target and
     * renames it atomically, so parallel builds never see (or run) a half-written binary.
     *
     * @throws IllegalStateException with the reason when there is no binary for this machine or it cannot be written
     */
    static Path extract() {
        String version = artifactVersion().orElseThrow(() -> new IllegalStateException(
                "the application has no " + OPT_IN_ARTIFACT + " dependency (scope provided or test)"));
        return extractInto(cacheDirectory(version));
    }

    /** {@link #extract()} into {@code dir}. */
    static Path extractInto(Path dir) {
        String version = artifactVersion().orElse("?");
        String resource = resourceName(System.getProperty("os.name"), System.getProperty("os.arch"))
                .orElseThrow(() -> new IllegalStateException(ARTIFACT + ":" + version + " has no redis-server for "
                        + System.getProperty("os.name") + "/" + System.getProperty("os.arch")));
        Path target = dir.resolve(resource);
        if (Files.isRegularFile(target) && Files.isExecutable(target)) {
            return target;
        }
        try (InputStream in = classLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is missing from " + ARTIFACT + ":" + version);
            }
            Files.createDirectories(dir);
            Path temp = Files.createTempFile(dir, resource, ".part");
            try {
                Files.copy(in, temp, StandardCopyOption.REPLACE_EXISTING);
                if (!temp.toFile().setExecutable(true, false)) {
                    throw new IOException("cannot make " + temp + " executable");
                }
                moveAtomically(temp, target);
            } finally {
                Files.deleteIfExists(temp);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot extract " + resource + " into " + dir + ": " + e, e);
        }
        return target;
    }

    private static void moveAtomically(Path temp, Path target) throws IOException {
        try {
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (FileAlreadyExistsException raced) {
            // another build extracted the same binary first: theirs is complete, keep it
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** Forgets a cached binary that does not run, so the next build extracts it again. */
    static void discard(Path binary) {
        try {
            Files.deleteIfExists(binary);
        } catch (IOException ignored) {
            // the next extraction replaces it
        }
    }

    private static ClassLoader classLoader() {
        return EmbeddedRedisBinary.class.getClassLoader();
    }
}
