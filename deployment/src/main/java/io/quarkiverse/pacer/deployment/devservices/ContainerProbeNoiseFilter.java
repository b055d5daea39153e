package io.quarkiverse.pacer.deployment.devservices;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Filter;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Keeps the build log clean when Pacer runs its own {@code redis-server} because the machine has no container
 * runtime at all: the Redis client's Dev Services still ask Testcontainers for Docker, which logs an ERROR (and INFO
 * lines) when every strategy fails, and then the Redis client warns that {@code hosts} is missing. Both are noise
 * there: Pacer configures {@code hosts} and says so in one INFO line.
 * <p>
 * Only while {@link #quiet(String)} is in force (set per build by {@link PacerDevServicesProcessor}), only these
 * messages, and only when {@link ContainerRuntimeTraces} found no sign of Docker or Podman; a broken Docker
 * installation still reports its ERROR.
 */
final class ContainerProbeNoiseFilter implements Filter {

    private static final List<String> TESTCONTAINERS_PROBE_LOGGERS = List.of(
            "org.testcontainers.DockerClientFactory",
            "org.testcontainers.dockerclient.DockerClientProviderStrategy",
            "org.testcontainers.dockerclient.DockerMachineClientProviderStrategy");
    private static final String REDIS_DEV_SERVICES_LOGGER = "io.quarkus.redis.deployment.client.DevServicesRedisProcessor";

    /** Strong references: a JUL logger that is only weakly reachable may lose its filter. */
    private static final List<Logger> LOGGERS = new ArrayList<>();
    private static volatile String quietedClientWarning;
    private static boolean installed;

    private final Filter previous;
    private final boolean testcontainers;

    private ContainerProbeNoiseFilter(Filter previous, boolean testcontainers) {
        this.previous = previous;
        this.testcontainers = testcontainers;
    }

    /**
     * From now on, drops the Testcontainers probe messages and the Redis client's missing-hosts warning for
     * {@code redisClientName}.
     */
    static synchronized void quiet(String redisClientName) {
        install();
        quietedClientWarning = "Please configure quarkus.redis.hosts for "
                + ("<default>".equals(redisClientName) ? "default redis client" : redisClientName) + " ";
    }

    /** Lets every message through again, e.g. after a restart found a container runtime or configured hosts. */
    static void speak() {
        quietedClientWarning = null;
    }

    private static void install() {
        if (installed) {
            return;
        }
        installed = true;
        for (String name : TESTCONTAINERS_PROBE_LOGGERS) {
            addTo(Logger.getLogger(name), true);
        }
        addTo(Logger.getLogger(REDIS_DEV_SERVICES_LOGGER), false);
    }

    private static void addTo(Logger logger, boolean testcontainers) {
        LOGGERS.add(logger);
        logger.setFilter(new ContainerProbeNoiseFilter(logger.getFilter(), testcontainers));
    }

    @Override
    public boolean isLoggable(LogRecord record) {
        String clientWarning = quietedClientWarning;
        if (clientWarning != null) {
            String message = record.getMessage();
            if (testcontainers || (message != null && message.startsWith(clientWarning))) {
                return false;
            }
        }
        return previous == null || previous.isLoggable(record);
    }
}
