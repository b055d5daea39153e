package io.quarkiverse.pacer.deployment;

import java.util.List;

import org.jboss.jandex.DotName;
import org.jboss.jandex.MethodInfo;
import org.jboss.jandex.Type;

/**
 * A method as the build knows it, comparable across Jandex indexes (the combined index the build steps read and the
 * bean archive index ArC transforms hold different {@link MethodInfo} objects for the same method).
 */
record MethodKey(DotName declaringClass, String name, List<DotName> parameterTypes) {

    static MethodKey of(MethodInfo method) {
        return new MethodKey(method.declaringClass().name(), method.name(),
                method.parameterTypes().stream().map(Type::name).toList());
    }
}
