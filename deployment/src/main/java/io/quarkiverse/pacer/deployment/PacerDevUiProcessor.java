package io.quarkiverse.pacer.deployment;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.quarkiverse.pacer.runtime.delay.DelayedConsumerDefinition;
import io.quarkiverse.pacer.runtime.dev.ui.PacerDelayQueuesJsonRpcService;
import io.quarkiverse.pacer.runtime.dev.ui.PacerSchedulesJsonRpcService;
import io.quarkiverse.pacer.runtime.dev.ui.PacerThrottlingJsonRpcService;
import io.quarkiverse.pacer.runtime.throttle.policy.PolicyDefinition;
import io.quarkiverse.pacer.runtime.throttle.policy.ThrottleRules;
import io.quarkus.deployment.IsLocalDevelopment;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.devui.spi.JsonRPCProvidersBuildItem;
import io.quarkus.devui.spi.page.CardPageBuildItem;
import io.quarkus.devui.spi.page.Page;

/**
 * The Dev UI card: a throttling page, a delay-queue page and a schedules page (web components under {@code dev-ui/})
 * that read live state and act through {@link PacerThrottlingJsonRpcService}, {@link PacerDelayQueuesJsonRpcService}
 * and {@link PacerSchedulesJsonRpcService}; the build-time lists stay available as card data.
 */
class PacerDevUiProcessor {

    static final String POLICIES = "policies";
    static final String QUEUES = "queues";

    @BuildStep(onlyIf = IsLocalDevelopment.class)
    CardPageBuildItem pacerCard(ThrottledMethodsBuildItem throttled, DelayedMethodsBuildItem delayed) {
        CardPageBuildItem card = new CardPageBuildItem();
        card.addBuildTimeData(POLICIES, policies(throttled), "The @Throttled policies of the application");
        card.addBuildTimeData(QUEUES, queues(delayed), "The @Delayed queues of the application and their consumers");
        card.addPage(Page.webComponentPageBuilder()
                .title("Throttling")
                .icon("font-awesome-solid:gauge-high")
                .componentLink("qwc-pacer-throttling.js")
                .staticLabel(String.valueOf(throttled.getPolicies().size())));
        card.addPage(Page.webComponentPageBuilder()
                .title("Delay queues")
                .icon("font-awesome-solid:clock")
                .componentLink("qwc-pacer-delay-queues.js")
                .staticLabel(String.valueOf(delayed.getMethods().size())));
        card.addPage(Page.webComponentPageBuilder()
                .title("Schedules")
                .icon("font-awesome-solid:calendar-days")
                .componentLink("qwc-pacer-schedules.js"));
        return card;
    }

    /** One service a page; all answer under the extension's namespace, so the pages call them by method name. */
    @BuildStep(onlyIf = IsLocalDevelopment.class)
    void registerJsonRpcServices(BuildProducer<JsonRPCProvidersBuildItem> services) {
        services.produce(new JsonRPCProvidersBuildItem(PacerThrottlingJsonRpcService.class));
        services.produce(new JsonRPCProvidersBuildItem(PacerDelayQueuesJsonRpcService.class));
        services.produce(new JsonRPCProvidersBuildItem(PacerSchedulesJsonRpcService.class));
    }

    private static List<Map<String, Object>> policies(ThrottledMethodsBuildItem throttled) {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (PolicyDefinition policy : throttled.getPolicies()) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("name", policy.getName());
            row.put("algorithm", policy.getAlgorithm().name());
            row.put("limit", policy.getLimit());
            row.put("window", policy.getWindow());
            row.put("burst", ThrottleRules.effectiveBurst(policy.getLimit(), policy.getBurst()));
            row.put("shadow", policy.isShadow());
            row.put("declaredOn", policy.getDeclaredOn());
            rows.add(row);
        }
        rows.sort(Comparator.comparing(row -> (String) row.get("name")));
        return rows;
    }

    private static List<Map<String, Object>> queues(DelayedMethodsBuildItem delayed) {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (DelayedMethodsBuildItem.DelayedMethod method : delayed.getMethods()) {
            DelayedConsumerDefinition consumer = method.definition();
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("queue", consumer.getQueue());
            row.put("consumer", consumer.getDeclaringClass() + "#" + consumer.getMethodName());
            row.put("concurrency", consumer.getConcurrency());
            row.put("maxAttempts", consumer.getMaxAttempts());
            row.put("backoff", consumer.getBackoffMillis() + "ms");
            row.put("lease", consumer.getLeaseMillis() + "ms");
            rows.add(row);
        }
        rows.sort(Comparator.comparing(row -> (String) row.get("queue")));
        return rows;
    }
}
