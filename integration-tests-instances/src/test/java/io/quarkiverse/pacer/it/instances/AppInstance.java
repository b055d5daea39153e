package io.quarkiverse.pacer.it.instances;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.awaitility.Awaitility;

/**
 * One instance of the packaged demo application ({@code target/quarkus-app/quarkus-run.jar}) in a JVM of its own, in
 * prod mode with Quarkus's default settings, pointed at the test's Redis.
 */
final class AppInstance implements AutoCloseable {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private final int port = RedisServerProcess.freePort();
    private final Process process;
    private final Path log;

    AppInstance(String name, String redisUri, String... extraProperties) throws IOException {
        Path jar = Path.of(System.getProperty("pacer.it.app-jar", "target/quarkus-app/quarkus-run.jar"));
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("Run the package phase first: " + jar.toAbsolutePath() + " is missing");
        }
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(List.of(java, "-Xmx256m",
                "-Dquarkus.http.port=" + port,
                "-Dquarkus.redis.hosts=" + redisUri));
        for (String property : extraProperties) {
            command.add("-D" + property);
        }
        command.addAll(List.of("-jar", jar.toString()));
        log = Files.createTempFile("pacer-it-" + name, ".log");
        process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                    .until(() -> status("GET", "/q/health/ready") == 200);
        } catch (RuntimeException e) {
            // What the instance printed is what tells why it never became ready.
            Answer health = call("GET", "/q/health/ready");
            threadDump();
            String printed = Files.readString(log);
            process.destroyForcibly();
            throw new IllegalStateException("Instance " + name + " not ready within 60 s (readiness: " + health.status()
                    + " " + health.body() + "); its log:\n"
                    + printed.substring(Math.max(0, printed.length() - 20_000)), e);
        }
    }

    /** Has the JVM print its threads into its log, as {@code kill -3} does, and gives it a moment to do so. */
    private void threadDump() {
        try {
            new ProcessBuilder("kill", "-3", Long.toString(process.pid())).start().waitFor(5, TimeUnit.SECONDS);
            Thread.sleep(1000);
        } catch (IOException e) {
            // No thread dump then: the log is still printed.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    int status(String method, String path) {
        try {
            return HTTP.send(HttpRequest.newBuilder(uri(path)).method(method, HttpRequest.BodyPublishers.noBody())
                    .timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    /** The status, body and headers of a call; status -1 when the instance could not be reached. */
    record Answer(int status, String body, HttpHeaders headers) {

        Answer(int status, String body) {
            this(status, body, HttpHeaders.of(Map.of(), (name, value) -> true));
        }

        /** The value of header {@code name} as a number; -1 when it is missing. */
        long longHeader(String name) {
            return headers.firstValueAsLong(name).orElse(-1);
        }
    }

    Answer call(String method, String path) {
        try {
            HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(uri(path))
                    .method(method, HttpRequest.BodyPublishers.noBody()).timeout(Duration.ofSeconds(60)).build(),
                    HttpResponse.BodyHandlers.ofString());
            return new Answer(response.statusCode(), response.body(), response.headers());
        } catch (IOException e) {
            return new Answer(-1, e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Answer(-1, e.toString());
        }
    }

    String get(String path) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    String post(String path) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(uri(path)).POST(HttpRequest.BodyPublishers.noBody())
                .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString()).body();
    }

    /** The sum of {@code pacer_throttle_decisions_total} with outcome {@code fallback}, over all policies. */
    double fallbackDecisions() throws IOException, InterruptedException {
        double sum = 0;
        for (String line : get("/q/metrics").split("\n")) {
            if (line.startsWith("pacer_throttle_decisions_total{") && line.contains("outcome=\"fallback\"")) {
                sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return sum;
    }

    String log() throws IOException {
        return Files.readString(log);
    }

    /** Kills the instance at once, as {@code kill -9} does: nothing of it runs any more, nothing is released. */
    void kill() throws InterruptedException {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
