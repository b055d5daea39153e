package io.quarkiverse.pacer.deployment;

import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;

/**
 * The test kit (quarkus-pacer-test, a test-scoped dependency): when it is on the application's class path, its beans
 * are registered, so a test can inject them and its clock can shift Pacer's time. Without it, nothing happens here and
 * Pacer's scripts run as shipped.
 */
class PacerTestKitProcessor {

    /** The kit's beans, by name: the deployment module does not depend on the kit. */
    static final String[] TEST_KIT_BEANS = {
            "io.quarkiverse.pacer.test.PacerTestClock",
            "io.quarkiverse.pacer.test.PacerTestQueues",
            "io.quarkiverse.pacer.test.PacerTestThrottles" };

    @BuildStep
    void registerTestKitBeans(BuildProducer<AdditionalBeanBuildItem> beans) {
        if (isTestKitPresent()) {
            beans.produce(AdditionalBeanBuildItem.builder().addBeanClasses(TEST_KIT_BEANS).setUnremovable().build());
        }
    }

    /**
     * Whether the kit is on the class path. A resource lookup rather than
     * {@code QuarkusClassLoader.isClassPresentAtRuntime}, which does not see the classes of the module a
     * {@code QuarkusUnitTest} runs in (the kit's own tests).
     */
    private static boolean isTestKitPresent() {
        return Thread.currentThread().getContextClassLoader()
                .getResource(TEST_KIT_BEANS[0].replace('.', '/') + ".class") != null;
    }
}
