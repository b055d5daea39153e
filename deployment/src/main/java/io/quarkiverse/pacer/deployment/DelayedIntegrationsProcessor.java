package io.quarkiverse.pacer.deployment;

import org.jboss.logging.Logger;

import io.quarkiverse.pacer.runtime.config.PacerBuildTimeConfig;
import io.quarkiverse.pacer.runtime.delay.JtaDelayedTransactions;
import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.deployment.Capabilities;
import io.quarkus.deployment.Capability;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;

/**
 * Delay queues with optional integrations: producer operations that wait for a JTA commit when
 * {@code quarkus-narayana-jta} is present.
 */
class DelayedIntegrationsProcessor {

    private static final Logger LOG = Logger.getLogger(DelayedIntegrationsProcessor.class);

    @BuildStep
    void registerTransactionalScheduling(Capabilities capabilities, PacerBuildTimeConfig config,
            BuildProducer<AdditionalBeanBuildItem> beans) {
        if (!capabilities.isPresent(Capability.TRANSACTIONS)) {
            return;
        }
        if (!config.delayed().transactional()) {
            LOG.debugf("quarkus.pacer.delayed.transactional=false: schedule and cancel act at once, also in a transaction");
            return;
        }
        beans.produce(AdditionalBeanBuildItem.unremovableOf(JtaDelayedTransactions.class));
    }
}
