package io.quarkiverse.pacer.deployment;

import static io.quarkiverse.pacer.deployment.MethodNames.display;
import static io.quarkiverse.pacer.deployment.PacerDotNames.DELAYED;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import org.jboss.jandex.AnnotationInstance;
import org.jboss.jandex.AnnotationTarget;
import org.jboss.jandex.MethodInfo;
import org.jboss.jandex.Type;
import org.jboss.logging.Logger;

import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.deployment.DelayedMethodsBuildItem.DelayedMethod;
import io.quarkiverse.pacer.runtime.delay.DelayedConsumerDefinition;
import io.quarkiverse.pacer.runtime.delay.PayloadKind;
import io.quarkus.arc.deployment.BeanArchiveIndexBuildItem;
import io.quarkus.arc.deployment.BeanDiscoveryFinishedBuildItem;
import io.quarkus.arc.deployment.InvokerFactoryBuildItem;
import io.quarkus.arc.deployment.ValidationPhaseBuildItem.ValidationErrorBuildItem;
import io.quarkus.arc.processor.BeanInfo;
import io.quarkus.arc.processor.InvokerInfo;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.builditem.CombinedIndexBuildItem;
import io.quarkus.deployment.builditem.nativeimage.ReflectiveHierarchyBuildItem;

/**
 * Finds the {@code @Delayed} methods, obtains an ArC invoker for each valid one and validates them: every problem
 * reported at once, naming the annotation, class and method.
 */
class DelayedMethodsProcessor {

    private static final Logger LOG = Logger.getLogger(DelayedMethodsProcessor.class);

    /** Reads every {@code @Delayed} method and builds the invoker of each valid one; problems are reported later. */
    @BuildStep
    DelayedMethodsBuildItem collectDelayedMethods(BeanArchiveIndexBuildItem beanArchive,
            CombinedIndexBuildItem combinedIndex, BeanDiscoveryFinishedBuildItem beanDiscovery,
            InvokerFactoryBuildItem invokerFactory, BuildProducer<ReflectiveHierarchyBuildItem> jsonPayloads) {
        List<AnnotationInstance> annotations = new ArrayList<>();
        for (AnnotationInstance annotation : beanArchive.getIndex().getAnnotations(DELAYED)) {
            if (annotation.target().kind() == AnnotationTarget.Kind.METHOD) {
                annotations.add(annotation);
            }
        }
        annotations.sort(Comparator.comparing(a -> a.target().asMethod().declaringClass().name().toString() + "#"
                + a.target().asMethod().name() + a.target().asMethod().descriptor()));
        List<String> problems = new ArrayList<>();
        List<DelayedMethod> methods = new ArrayList<>();
        Map<String, List<String>> methodsByQueue = new TreeMap<>();
        for (AnnotationInstance annotation : annotations) {
            MethodInfo method = annotation.target().asMethod();
            String queue = annotation.value().asString();
            String where = "@Delayed(\"" + queue + "\") declared on " + display(method);
            methodsByQueue.computeIfAbsent(queue, q -> new ArrayList<>()).add(display(method));
            Optional<DelayedConsumerDefinition> definition = DelayedConsumerDefinitions.define(annotation, method,
                    combinedIndex.getIndex(),
                    where, problems);
            if (definition.isEmpty()) {
                continue;
            }
            Optional<BeanInfo> bean = beanDiscovery.beanStream().classBeans()
                    .withBeanClass(method.declaringClass().name()).stream().findFirst();
            if (bean.isEmpty()) {
                problems.add(where + ": the declaring class is not a CDI bean");
                continue;
            }
            InvokerInfo invoker = invokerFactory.createInvoker(bean.get(), method).withInstanceLookup().build();
            methods.add(new DelayedMethod(method, definition.get(), className(invoker)));
            if (definition.get().getPayloadKind() == PayloadKind.JSON) {
                // Jackson decodes the payload reflectively, also in a native image.
                Type parameter = method.parameterType(0);
                Type payload = definition.get().isMessageParameter()
                        ? parameter.asParameterizedType().arguments().get(0)
                        : parameter;
                jsonPayloads.produce(ReflectiveHierarchyBuildItem.builder(payload).source(where).build());
            }
            LOG.debugf("Found %s", where);
        }
        methodsByQueue.forEach((queue, declared) -> {
            if (declared.size() > 1) {
                problems.add("@Delayed(\"" + queue + "\") declared on " + declared.get(0)
                        + ": queue " + queue + " already has a consumer; a queue has one consumer method, found "
                        + String.join(", ", declared));
            }
        });
        return new DelayedMethodsBuildItem(methods, problems);
    }

    @BuildStep
    void validateDelayedMethods(DelayedMethodsBuildItem methods, BuildProducer<ValidationErrorBuildItem> errors) {
        BuildProblems.report("Invalid @Delayed usage", methods.getProblems(), errors);
    }

    /** Every injected typed queue handle names a queue whose consumer takes its payload type. */
    @BuildStep
    void validateTypedQueues(BeanDiscoveryFinishedBuildItem beanDiscovery, DelayedMethodsBuildItem methods,
            BuildProducer<ValidationErrorBuildItem> errors) {
        BuildProblems.report("Invalid typed delay queue injection",
                TypedQueueChecks.check(beanDiscovery.getInjectionPoints(), methods.getMethods()), errors);
    }

    private static String className(InvokerInfo invoker) {
        String descriptor = invoker.getClassDesc().descriptorString();
        return descriptor.substring(1, descriptor.length() - 1).replace('/', '.');
    }
}
