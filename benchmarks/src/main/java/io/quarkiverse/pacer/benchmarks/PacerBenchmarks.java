package io.quarkiverse.pacer.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.stream.Collectors;

import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.annotations.QuarkusMain;

/**
 * Entry point: starts a private {@code redis-server} on a free loopback port (with {@code -Dbench.only=cluster}: a
 * 3-master Redis Cluster), points the Quarkus Redis client at it,
 * runs {@link BenchmarkApplication} in prod mode, then stops the server and exits with the application's code.
 */
@QuarkusMain
public class PacerBenchmarks {

    public static void main(String... args) {
        BenchmarkSettings settings = BenchmarkSettings.fromSystemProperties();
        AutoCloseable redis;
        if (settings.onCluster()) {
            BenchmarkRedisCluster cluster = BenchmarkRedisCluster.start(settings.redisServer());
            System.setProperty("quarkus.redis.hosts", cluster.hosts());
            System.setProperty("quarkus.redis.client-type", "cluster");
            System.setProperty(BenchmarkApplication.PORT_PROPERTY, Integer.toString(cluster.ports().get(0)));
            System.setProperty(BenchmarkApplication.CLUSTER_PORTS_PROPERTY, cluster.ports().stream()
                    .map(String::valueOf).collect(Collectors.joining(",")));
            redis = cluster;
        } else {
            BenchmarkRedisServer server = BenchmarkRedisServer.start(settings.redisServer());
            System.setProperty("quarkus.redis.hosts", server.uri());
            System.setProperty(BenchmarkApplication.PORT_PROPERTY, Integer.toString(server.port()));
            redis = server;
        }
        // The REST rows' endpoints listen on a free loopback port.
        System.setProperty("quarkus.http.port", Integer.toString(freePort()));
        Quarkus.run(BenchmarkApplication.class, (exitCode, failure) -> {
            try {
                redis.close();
            } catch (Exception e) {
                e.printStackTrace();
            }
            if (failure != null) {
                failure.printStackTrace();
            }
            System.exit(exitCode);
        }, args);
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
