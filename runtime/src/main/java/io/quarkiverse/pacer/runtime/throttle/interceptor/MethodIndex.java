package io.quarkiverse.pacer.runtime.throttle.interceptor;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import jakarta.enterprise.util.Nonbinding;
import jakarta.interceptor.InterceptorBinding;

import io.quarkiverse.pacer.runtime.throttle.policy.ThrottleDefinitions;

/**
 * Added by the build to every {@code @Throttled} method: the position of its definition in
 * {@link ThrottleDefinitions#methods()}. The interceptor reads it from the invocation's interceptor bindings, so a
 * method finds its build-time metadata without a second, runtime computation of its identity. Not for application
 * code.
 */
@InterceptorBinding
@Retention(RetentionPolicy.RUNTIME)
@Target({ ElementType.METHOD, ElementType.TYPE })
public @interface MethodIndex {

    @Nonbinding
    int value();
}
