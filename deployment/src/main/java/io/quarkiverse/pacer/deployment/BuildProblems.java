package io.quarkiverse.pacer.deployment;

import java.util.List;

import jakarta.enterprise.inject.spi.DeploymentException;

import io.quarkus.arc.deployment.ValidationPhaseBuildItem.ValidationErrorBuildItem;
import io.quarkus.deployment.annotations.BuildProducer;

/** How the build reports what it found wrong: every problem at once, in one message. */
final class BuildProblems {

    private BuildProblems() {
    }

    /**
     * All problems in one clean message: no exception type in front of each line.
     *
     * @param what the first line, e.g. {@code Invalid @Delayed usage}
     */
    static void report(String what, List<String> problems, BuildProducer<ValidationErrorBuildItem> errors) {
        if (!problems.isEmpty()) {
            errors.produce(new ValidationErrorBuildItem(new DeploymentException(
                    what + ":\n - " + String.join("\n - ", problems))));
        }
    }
}
