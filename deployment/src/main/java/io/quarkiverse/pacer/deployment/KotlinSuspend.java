package io.quarkiverse.pacer.deployment;

import static io.quarkiverse.pacer.deployment.PacerDotNames.KOTLIN_CONTINUATION;

import org.jboss.jandex.MethodInfo;

/**
 * Recognizes Kotlin {@code suspend} functions, which Pacer does not support: the JVM sees them with a hidden last
 * parameter of type {@code kotlin.coroutines.Continuation}, compared by name so Kotlin need not be present.
 */
final class KotlinSuspend {

    static final String PROBLEM = "Kotlin suspend functions are not supported; declare a plain function"
            + " (it runs on a worker thread) or return Uni<Void>";

    private KotlinSuspend() {
    }

    static boolean isSuspend(MethodInfo method) {
        int count = method.parametersCount();
        return count > 0 && method.parameterType(count - 1).name().equals(KOTLIN_CONTINUATION);
    }
}
