package io.quarkiverse.pacer.benchmarks.delay;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.vertx.core.json.JsonObject;

/**
 * One {@code node peer.mjs} process: a JSON command per line on its standard input, a JSON reply per line on its
 * standard output; its standard error goes to {@code peer-<role>.log} beside the script.
 */
final class NodePeerProcess implements AutoCloseable {

    private final Process process;
    private final Writer commands;
    private final BufferedReader replies;
    private final Path log;

    private NodePeerProcess(Process process, Path log) {
        this.process = process;
        this.log = log;
        this.commands = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        this.replies = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    static NodePeerProcess start(Path directory, int redisPort, String role) {
        Path log = directory.resolve("peer-" + role + ".log");
        try {
            Process process = new ProcessBuilder("node", "peer.mjs", Integer.toString(redisPort))
                    .directory(directory.toFile())
                    .redirectError(log.toFile())
                    .start();
            return new NodePeerProcess(process, log);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot start node in " + directory, e);
        }
    }

    long pid() {
        return process.pid();
    }

    /** Sends {@code op} with the given fields and returns the reply; a failed operation throws with its message. */
    synchronized JsonObject call(String op, Object... fields) {
        JsonObject command = new JsonObject().put("op", op);
        for (int i = 0; i < fields.length; i += 2) {
            command.put((String) fields[i], fields[i + 1]);
        }
        String line;
        try {
            commands.write(command.encode());
            commands.write('\n');
            commands.flush();
            line = replies.readLine();
        } catch (IOException e) {
            throw new IllegalStateException("BullMQ peer (" + op + "): " + e.getMessage() + "; " + logTail(), e);
        }
        if (line == null) {
            throw new IllegalStateException("BullMQ peer exited during " + op + "; " + logTail());
        }
        JsonObject reply = new JsonObject(line);
        if (!reply.getBoolean("ok", false)) {
            throw new IllegalStateException("BullMQ peer (" + op + "): " + reply.getString("error"));
        }
        return reply;
    }

    private String logTail() {
        try {
            List<String> lines = Files.readAllLines(log);
            return log + ": " + String.join(" / ", lines.subList(Math.max(0, lines.size() - 5), lines.size()));
        } catch (IOException e) {
            return "no log";
        }
    }

    /** Ends the command stream: the peer closes its queues, worker and connections and exits. */
    @Override
    public void close() {
        try {
            commands.close();
            if (!process.waitFor(15, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (IOException e) {
            process.destroyForcibly();
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
