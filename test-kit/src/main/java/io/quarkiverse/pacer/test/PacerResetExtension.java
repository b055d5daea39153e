package io.quarkiverse.pacer.test;

import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import io.quarkus.arc.Arc;
import io.quarkus.arc.ArcContainer;

/**
 * A JUnit 5 extension that gives each test a clean Pacer: before each test it puts the {@link PacerTestClock} back to
 * Redis time, deletes the throttling state of every policy ({@link PacerTestThrottles#resetAll()}) and every message of
 * every delay queue ({@link PacerTestQueues#purgeAll()}).
 *
 * <pre>
 * {@code
 * &#64;QuarkusTest
 * &#64;ExtendWith(PacerResetExtension.class)
 * class OrdersTest {
 *     ...
 * }
 * }
 * </pre>
 *
 * It works in {@code @QuarkusTest} classes (the application runs in the test's JVM); it cannot reach the application
 * of a {@code @QuarkusIntegrationTest}.
 */
public class PacerResetExtension implements BeforeEachCallback {

    /** Creates the extension; JUnit does, for {@code @ExtendWith(PacerResetExtension.class)}. */
    public PacerResetExtension() {
    }

    /**
     * Clears Pacer's state before a test: the clock back to Redis time, no throttling state, no delayed message.
     *
     * @param context the test about to run
     * @throws IllegalStateException if no Quarkus application runs in the test's JVM
     */
    @Override
    public void beforeEach(ExtensionContext context) {
        ArcContainer container = Arc.container();
        if (container == null || !container.isRunning()) {
            throw new IllegalStateException("PacerResetExtension needs the application running in the test's JVM"
                    + " (@QuarkusTest); " + context.getRequiredTestClass().getName() + " has none");
        }
        container.instance(PacerTestClock.class).get().reset();
        container.instance(PacerTestThrottles.class).get().resetAll();
        container.instance(PacerTestQueues.class).get().purgeAll();
    }
}
