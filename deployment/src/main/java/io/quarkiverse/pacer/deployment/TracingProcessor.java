package io.quarkiverse.pacer.deployment;

import org.jboss.logging.Logger;

import io.quarkiverse.pacer.runtime.config.PacerBuildTimeConfig;
import io.quarkiverse.pacer.runtime.tracing.OpenTelemetryDelayedTracing;
import io.quarkiverse.pacer.runtime.tracing.OpenTelemetryForwardedMessageTracing;
import io.quarkiverse.pacer.runtime.tracing.OpenTelemetryThrottleTracing;
import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.deployment.Capabilities;
import io.quarkus.deployment.Capability;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;

/**
 * OpenTelemetry tracing of delay queues and throttling decisions, registered only when {@code quarkus-opentelemetry}
 * provides its tracer (present, with {@code quarkus.otel.traces.enabled}) and {@code quarkus.pacer.tracing.enabled}
 * is on. Otherwise the runtime keeps its no-op tracing, and no OpenTelemetry class is loaded through Pacer.
 */
class TracingProcessor {

    private static final Logger LOG = Logger.getLogger(TracingProcessor.class);

    @BuildStep
    void registerTracing(Capabilities capabilities, PacerBuildTimeConfig config,
            BuildProducer<AdditionalBeanBuildItem> beans) {
        if (!capabilities.isPresent(Capability.OPENTELEMETRY_TRACER)) {
            return;
        }
        if (!config.tracing().enabled()) {
            LOG.debugf("quarkus.pacer.tracing.enabled=false: Pacer adds nothing to traces");
            return;
        }
        beans.produce(AdditionalBeanBuildItem.unremovableOf(OpenTelemetryDelayedTracing.class));
        beans.produce(AdditionalBeanBuildItem.unremovableOf(OpenTelemetryThrottleTracing.class));
        if (capabilities.isPresent(Capability.MESSAGING) || capabilities.isPresent(Capability.SMALLRYE_REACTIVE_MESSAGING)) {
            beans.produce(AdditionalBeanBuildItem.unremovableOf(OpenTelemetryForwardedMessageTracing.class));
        }
    }
}
