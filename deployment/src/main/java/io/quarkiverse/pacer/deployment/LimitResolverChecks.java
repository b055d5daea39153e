package io.quarkiverse.pacer.deployment;

import static io.quarkiverse.pacer.deployment.PacerDotNames.THROTTLE_LIMIT_RESOLVER;

import java.lang.reflect.Modifier;

import org.jboss.jandex.ClassInfo;
import org.jboss.jandex.DotName;
import org.jboss.jandex.IndexView;
import org.jboss.jandex.MethodInfo;

/**
 * The build-time checks of a {@code @Throttled(limits = ...)} class: it implements {@code ThrottleLimitResolver} and
 * implements {@code resolve} or {@code resolveAsync} (each defaults to the other, so a class with neither would recurse
 * forever at the first call).
 */
final class LimitResolverChecks {

    private LimitResolverChecks() {
    }

    /** What is wrong with the class, completing "limits = com.acme.X ...", or {@code null}. */
    static String problem(IndexView index, DotName name) {
        ClassInfo type = index.getClassByName(name);
        if (type == null) {
            return "is not in the application's index; add it to the application or index its dependency";
        }
        if (Modifier.isAbstract(type.flags()) || Modifier.isInterface(type.flags())) {
            return "must be a concrete class (a CDI bean)";
        }
        if (!TypeHierarchy.isSubtype(index, name, THROTTLE_LIMIT_RESOLVER)) {
            return "does not implement " + THROTTLE_LIMIT_RESOLVER;
        }
        for (ClassInfo current = type; current != null
                && !current.name().equals(DotName.OBJECT_NAME); current = superclass(index, current)) {
            for (MethodInfo method : current.methods()) {
                if ((method.name().equals("resolve") || method.name().equals("resolveAsync"))
                        && method.parametersCount() == 2 && !Modifier.isAbstract(method.flags())) {
                    return null;
                }
            }
        }
        return "implements neither resolve(String, String) nor resolveAsync(String, String); implement one of them";
    }

    private static ClassInfo superclass(IndexView index, ClassInfo type) {
        return type.superName() == null ? null : index.getClassByName(type.superName());
    }
}
