package io.quarkiverse.pacer.deployment.devservices;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;

/**
 * A cheap look for any sign of a container runtime: {@code DOCKER_HOST}, a Testcontainers {@code docker.host}, or a
 * Docker/Podman socket where the usual installations put it. Without any, a full probe (Testcontainers tries every
 * strategy and logs an ERROR when all fail) cannot succeed, so Pacer skips it.
 */
public final class ContainerRuntimeTraces {

    private ContainerRuntimeTraces() {
    }

    /** Whether any sign of a container runtime exists on this machine. */
    public static boolean found() {
        if (isSet(System.getenv("DOCKER_HOST")) || isSet(System.getenv("TESTCONTAINERS_HOST_OVERRIDE"))
                || isSet(System.getenv("TESTCONTAINERS_DOCKER_SOCKET_OVERRIDE"))) {
            return true;
        }
        String home = System.getProperty("user.home");
        if (testcontainersDockerHostConfigured(Path.of(home, ".testcontainers.properties"))) {
            return true;
        }
        if (System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows")) {
            // Docker Desktop and Podman listen on named pipes; java.io.File sees those, NIO paths do not.
            return new File("\\\\.\\pipe\\docker_engine").exists()
                    || new File("\\\\.\\pipe\\podman-machine-default").exists();
        }
        for (Path socket : knownSockets(home)) {
            if (Files.exists(socket)) {
                return true;
            }
        }
        return false;
    }

    private static List<Path> knownSockets(String home) {
        List<Path> sockets = new ArrayList<>(List.of(
                Path.of("/var/run/docker.sock"),
                Path.of("/run/docker.sock"),
                Path.of("/run/podman/podman.sock"),
                Path.of(home, ".docker", "run", "docker.sock"),
                Path.of(home, ".docker", "desktop", "docker.sock"),
                Path.of(home, ".colima", "default", "docker.sock"),
                Path.of(home, ".colima", "docker.sock"),
                Path.of(home, ".rd", "docker.sock"),
                Path.of(home, ".orbstack", "run", "docker.sock"),
                Path.of(home, ".local", "share", "containers", "podman", "machine", "podman.sock")));
        String runtimeDir = System.getenv("XDG_RUNTIME_DIR");
        if (isSet(runtimeDir)) {
            sockets.add(Path.of(runtimeDir, "docker.sock"));
            sockets.add(Path.of(runtimeDir, "podman", "podman.sock"));
        }
        return sockets;
    }

    private static boolean testcontainersDockerHostConfigured(Path file) {
        if (!Files.isRegularFile(file)) {
            return false;
        }
        Properties properties = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            properties.load(in);
        } catch (IOException e) {
            return true; // unreadable: let the full probe decide
        }
        return isSet(properties.getProperty("docker.host")) || isSet(properties.getProperty("tc.host"));
    }

    private static boolean isSet(String value) {
        return value != null && !value.isBlank();
    }
}
