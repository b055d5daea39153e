package io.quarkiverse.pacer.deployment;

import java.util.List;

import org.jboss.jandex.DotName;
import org.jboss.jandex.MethodInfo;
import org.jboss.jandex.Type;

import io.quarkiverse.pacer.runtime.throttle.interceptor.MethodIndex;

/** How build messages, logs and the Dev UI name a method. */
final class MethodNames {

    private MethodNames() {
    }

    /** {@code com.acme.Api#ping()}, as messages show a method. */
    static String display(MethodInfo method) {
        return method.declaringClass().name() + "#" + method.name() + "()";
    }

    /**
     * {@code com.acme.Api#search(java.lang.String,int)}: orders the methods reproducibly and names them in messages
     * and the Dev UI. Only the build computes it; the runtime finds a method by its {@link MethodIndex}.
     */
    static String idOf(MethodInfo method) {
        StringBuilder id = new StringBuilder(method.declaringClass().name().toString()).append('#')
                .append(method.name()).append('(');
        for (int i = 0; i < method.parametersCount(); i++) {
            if (i > 0) {
                id.append(',');
            }
            id.append(typeName(method.parameterType(i)));
        }
        return id.append(')').toString();
    }

    private static String typeName(Type type) {
        switch (type.kind()) {
            case ARRAY:
                return typeName(type.asArrayType().constituent()) + "[]".repeat(type.asArrayType().deepDimensions());
            case PRIMITIVE:
                return type.asPrimitiveType().name().toString();
            case TYPE_VARIABLE:
                List<Type> bounds = type.asTypeVariable().bounds();
                return bounds.isEmpty() ? "java.lang.Object" : typeName(bounds.get(0));
            default:
                DotName name = type.name();
                return name.toString();
        }
    }
}
