package io.quarkiverse.pacer.it.endpoints;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;

import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;

/**
 * Demo only: what the requests of {@link EndpointsResource} went through, by name: how often each method ran and on
 * which thread, how many requests reached a worker thread (a blocking request filter runs there), and on which thread
 * each response status was written.
 */
@ApplicationScoped
public class EndpointProbe {

    private final Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();
    private final Map<String, String> threads = new ConcurrentHashMap<>();

    void ran(String what) {
        counts.computeIfAbsent(what, k -> new AtomicInteger()).incrementAndGet();
        threads.put(what, Thread.currentThread().getName());
    }

    /** Blocking (the default): runs on the worker thread a blocking endpoint is dispatched to, after that hand-off. */
    @ServerRequestFilter
    void onWorker(ContainerRequestContext request) {
        String path = request.getUriInfo().getPath();
        if (path.startsWith("/endpoints/blocking") || path.equals("/endpoints/principal")
                || path.equals("/endpoints/api-key")) {
            ran("worker-filter");
        }
    }

    @ServerResponseFilter
    void onResponse(ContainerRequestContext request, ContainerResponseContext response) {
        if (request.getUriInfo().getPath().startsWith("/endpoints/") && !request.getUriInfo().getPath()
                .startsWith("/endpoints/probe")) {
            ran("response-" + response.getStatus());
        }
    }

    /** {@code name=count@thread} lines, sorted. */
    String report() {
        StringBuilder report = new StringBuilder();
        for (Map.Entry<String, AtomicInteger> count : new TreeMap<>(counts).entrySet()) {
            report.append(count.getKey()).append('=').append(count.getValue().get()).append('@')
                    .append(threads.get(count.getKey())).append('\n');
        }
        return report.toString();
    }

    void clear() {
        counts.clear();
        threads.clear();
    }
}
