package io.quarkiverse.pacer.deployment;

import static io.quarkiverse.pacer.deployment.MethodNames.display;
import static io.quarkiverse.pacer.deployment.MethodNames.idOf;
import static io.quarkiverse.pacer.deployment.PacerDotNames.THROTTLED;
import static io.quarkiverse.pacer.deployment.PacerDotNames.THROTTLED_INTERCEPTOR;
import static io.quarkiverse.pacer.deployment.PacerDotNames.THROTTLED_LIST;
import static io.quarkiverse.pacer.deployment.PacerDotNames.THROTTLE_KEY;

import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.jboss.jandex.AnnotationInstance;
import org.jboss.jandex.AnnotationTarget;
import org.jboss.jandex.ClassInfo;
import org.jboss.jandex.DotName;
import org.jboss.jandex.IndexView;
import org.jboss.jandex.MethodInfo;
import org.jboss.jandex.MethodParameterInfo;
import org.jboss.logging.Logger;

import io.quarkiverse.pacer.runtime.throttle.policy.MethodDefinition;
import io.quarkiverse.pacer.runtime.throttle.policy.PolicyDefinition;
import io.quarkus.arc.deployment.ValidationPhaseBuildItem;
import io.quarkus.arc.deployment.ValidationPhaseBuildItem.ValidationErrorBuildItem;
import io.quarkus.deployment.Capabilities;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.builditem.CombinedIndexBuildItem;

/**
 * Finds the {@code @Throttled} methods with Jandex (a method's own annotations win over its class's) and validates
 * them: every problem reported at once, naming the annotation, class and method.
 */
class ThrottledMethodsProcessor {

    private static final Logger LOG = Logger.getLogger(ThrottledMethodsProcessor.class);

    @BuildStep
    ThrottledMethodsBuildItem collectThrottledMethods(CombinedIndexBuildItem combinedIndex, Capabilities capabilities) {
        IndexView index = combinedIndex.getIndex();
        Map<MethodInfo, List<AnnotationInstance>> onMethods = new LinkedHashMap<>();
        Map<ClassInfo, List<AnnotationInstance>> onClasses = new LinkedHashMap<>();
        for (AnnotationInstance annotation : index.getAnnotations(THROTTLED)) {
            collect(annotation, annotation.target(), onMethods, onClasses);
        }
        for (AnnotationInstance container : index.getAnnotations(THROTTLED_LIST)) {
            for (AnnotationInstance annotation : container.value().asNestedArray()) {
                collect(annotation, container.target(), onMethods, onClasses);
            }
        }

        List<String> problems = new ArrayList<>();
        // Effective annotations per method: the method's own win over its class's.
        Map<MethodInfo, List<AnnotationInstance>> effective = new LinkedHashMap<>();
        Map<MethodInfo, Boolean> fromClass = new LinkedHashMap<>();
        List<MethodInfo> annotatedMethods = new ArrayList<>(onMethods.keySet());
        annotatedMethods.sort(Comparator.comparing(MethodNames::idOf));
        for (MethodInfo method : annotatedMethods) {
            if (Modifier.isPrivate(method.flags())) {
                problems.add("@Throttled declared on " + display(method)
                        + ": private methods cannot be intercepted; make it package-private, protected or public");
                continue;
            }
            effective.put(method, onMethods.get(method));
            fromClass.put(method, false);
        }
        for (Map.Entry<ClassInfo, List<AnnotationInstance>> entry : onClasses.entrySet()) {
            for (MethodInfo method : entry.getKey().methods()) {
                if (isBusinessMethod(method) && !onMethods.containsKey(method)) {
                    effective.put(method, entry.getValue());
                    fromClass.put(method, true);
                }
            }
        }

        Map<String, PolicyDefinition> policies = new TreeMap<>();
        Map<String, String> policyOrigins = new TreeMap<>();
        List<MethodDefinition> methods = new ArrayList<>();
        List<MethodKey> methodKeys = new ArrayList<>();
        // Sorted, so the first declaration of a shared policy name (and so every message) is reproducible.
        List<Map.Entry<MethodInfo, List<AnnotationInstance>>> sorted = new ArrayList<>(effective.entrySet());
        sorted.sort(Comparator.comparing(entry -> idOf(entry.getKey())));
        for (Map.Entry<MethodInfo, List<AnnotationInstance>> entry : sorted) {
            MethodDefinition definition = ThrottledMethodDefinitions.define(entry.getKey(), entry.getValue(),
                    fromClass.get(entry.getKey()),
                    index, capabilities, policies, policyOrigins, problems);
            if (definition != null) {
                methods.add(definition);
                methodKeys.add(MethodKey.of(entry.getKey()));
            }
        }

        for (AnnotationInstance key : index.getAnnotations(THROTTLE_KEY)) {
            if (key.target().kind() != AnnotationTarget.Kind.METHOD_PARAMETER) {
                continue;
            }
            MethodParameterInfo parameter = key.target().asMethodParameter();
            if (!effective.containsKey(parameter.method())) {
                problems.add("@ThrottleKey declared on parameter " + parameter.position() + " of "
                        + display(parameter.method()) + ": the method has no @Throttled (add one, or remove @ThrottleKey)");
            }
        }

        // Already in id order (see above): the position of a definition is the index its method is bound to.
        for (MethodDefinition method : methods) {
            LOG.debugf("@Throttled method %s: policies %s", method.getId(), method.getPolicies());
        }
        return new ThrottledMethodsBuildItem(new ArrayList<>(policies.values()), methods, methodKeys, problems);
    }

    @BuildStep
    void validateThrottledMethods(ThrottledMethodsBuildItem throttled, BuildProducer<ValidationErrorBuildItem> errors) {
        BuildProblems.report("Invalid @Throttled usage", throttled.getProblems(), errors);
    }

    /** A {@code limits} class must be a bean: a plain class would only fail at the first call. */
    @BuildStep
    void validateLimitResolverBeans(ThrottledMethodsBuildItem throttled, ValidationPhaseBuildItem validation,
            BuildProducer<ValidationErrorBuildItem> errors) {
        List<String> problems = new ArrayList<>();
        for (PolicyDefinition policy : throttled.getPolicies()) {
            String resolver = policy.getLimitsResolver();
            if (resolver != null && validation.getContext().beans().withBeanClass(DotName.createSimple(resolver))
                    .isEmpty()) {
                problems.add("@Throttled declared on " + policy.getDeclaredOn() + " (policy \"" + policy.getName()
                        + "\"): limits = " + resolver + " is not a CDI bean; annotate it with @ApplicationScoped or"
                        + " @Singleton");
            }
        }
        BuildProblems.report("Invalid @Throttled usage", problems, errors);
    }

    private static void collect(AnnotationInstance annotation, AnnotationTarget target,
            Map<MethodInfo, List<AnnotationInstance>> onMethods, Map<ClassInfo, List<AnnotationInstance>> onClasses) {
        if (target.kind() == AnnotationTarget.Kind.METHOD) {
            onMethods.computeIfAbsent(target.asMethod(), m -> new ArrayList<>()).add(annotation);
        } else if (target.kind() == AnnotationTarget.Kind.CLASS
                && !target.asClass().name().equals(THROTTLED_INTERCEPTOR)) {
            onClasses.computeIfAbsent(target.asClass(), c -> new ArrayList<>()).add(annotation);
        }
    }

    private static boolean isBusinessMethod(MethodInfo method) {
        int flags = method.flags();
        return !method.isConstructor() && !method.isStaticInitializer() && !Modifier.isPrivate(flags)
                && !Modifier.isStatic(flags) && (flags & 0x1000) == 0 && (flags & 0x0040) == 0;
    }
}
