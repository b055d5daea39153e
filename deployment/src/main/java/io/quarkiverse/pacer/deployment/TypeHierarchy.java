package io.quarkiverse.pacer.deployment;

import static io.quarkiverse.pacer.deployment.PacerDotNames.COMPLETABLE_FUTURE;
import static io.quarkiverse.pacer.deployment.PacerDotNames.COMPLETION_STAGE;

import org.jboss.jandex.ClassInfo;
import org.jboss.jandex.DotName;
import org.jboss.jandex.IndexView;

/**
 * Subtype checks on the application's index, for decisions the build makes about declared types (a
 * {@code @Throttled} method's return kind, a resolver's interface) so the runtime never inspects classes.
 */
final class TypeHierarchy {

    private TypeHierarchy() {
    }

    /**
     * Whether {@code type} is {@code target} or extends or implements it, as far as the index knows the hierarchy
     * (JDK classes are not indexed: {@code CompletableFuture} is known to be a {@code CompletionStage}).
     */
    static boolean isSubtype(IndexView index, DotName type, DotName target) {
        if (type.equals(target) || (target.equals(COMPLETION_STAGE) && type.equals(COMPLETABLE_FUTURE))) {
            return true;
        }
        ClassInfo info = index.getClassByName(type);
        if (info == null) {
            return false;
        }
        if (info.superName() != null && !info.superName().equals(DotName.OBJECT_NAME)
                && isSubtype(index, info.superName(), target)) {
            return true;
        }
        for (DotName interfaceName : info.interfaceNames()) {
            if (isSubtype(index, interfaceName, target)) {
                return true;
            }
        }
        return false;
    }
}
