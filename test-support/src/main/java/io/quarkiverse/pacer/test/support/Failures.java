package io.quarkiverse.pacer.test.support;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/** Collects the messages of a failure, its causes and suppressed exceptions, for build- and startup-failure tests. */
public final class Failures {

    private Failures() {
    }

    public static String messages(Throwable failure) {
        List<String> messages = new ArrayList<>();
        collect(failure, messages, Collections.newSetFromMap(new IdentityHashMap<>()));
        return String.join("\n", messages);
    }

    private static void collect(Throwable failure, List<String> messages, Set<Throwable> seen) {
        if (failure == null || !seen.add(failure)) {
            return;
        }
        messages.add(failure.getClass().getName() + ": " + failure.getMessage());
        collect(failure.getCause(), messages, seen);
        for (Throwable suppressed : failure.getSuppressed()) {
            collect(suppressed, messages, seen);
        }
    }
}
