package io.quarkiverse.pacer.deployment;

import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

import jakarta.inject.Singleton;

import org.jboss.jandex.AnnotationInstance;
import org.jboss.jandex.AnnotationValue;
import org.jboss.jandex.ClassInfo;
import org.jboss.jandex.DotName;
import org.jboss.jandex.IndexView;
import org.jboss.jandex.Type;
import org.jboss.logging.Logger;

import io.quarkiverse.pacer.runtime.config.PacerBuildTimeConfig;
import io.quarkiverse.pacer.runtime.scheduler.JobTaskClasses;
import io.quarkiverse.pacer.runtime.scheduler.MicrometerSchedulerMetrics;
import io.quarkiverse.pacer.runtime.scheduler.PacerScheduler;
import io.quarkiverse.pacer.runtime.scheduler.PacerSchedulerRecorder;
import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.arc.deployment.SyntheticBeanBuildItem;
import io.quarkus.arc.deployment.UnremovableBeanBuildItem;
import io.quarkus.arc.deployment.ValidationPhaseBuildItem.ValidationErrorBuildItem;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.annotations.ExecutionTime;
import io.quarkus.deployment.annotations.Record;
import io.quarkus.deployment.builditem.CombinedIndexBuildItem;
import io.quarkus.deployment.builditem.nativeimage.ReflectiveClassBuildItem;
import io.quarkus.deployment.metrics.MetricsCapabilityBuildItem;
import io.quarkus.deployment.recording.RecorderContext;
import io.quarkus.runtime.metrics.MetricsFactory;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.deployment.ForceStartSchedulerBuildItem;
import io.quarkus.scheduler.deployment.ScheduledBusinessMethodItem;
import io.quarkus.scheduler.deployment.SchedulerImplementationBuildItem;
import io.quarkus.scheduler.runtime.SchedulerConfig;

/**
 * The {@code PACER} implementation of Quarkus's scheduler: registered when Quarkus's composite scheduler is on (the
 * application chooses a scheduler per method or programmatic job), so an application without it keeps Quarkus's
 * scheduler as it was; {@code quarkus.pacer.scheduler.default-implementation} makes it the implementation of the methods
 * and jobs that choose none. What this implementation does not support fails the build, naming the method. The classes
 * that can be the task of a programmatic job are handed to the runtime, which recreates stored jobs from them.
 */
public class PacerSchedulerProcessor {

    private static final Logger LOG = Logger.getLogger(PacerSchedulerProcessor.class);

    static final String DEFAULT_IMPLEMENTATION = "quarkus.pacer.scheduler.default-implementation";

    /**
     * Below Quarkus's own implementations ({@code SIMPLE} is 0, {@code QUARTZ} 1): {@code PACER} is only chosen with
     * {@code executeWith}, so the application's other methods stay put.
     */
    static final int PRIORITY = -100;

    /** Above Quarkus's own implementations: Quarkus makes the implementation of highest priority the default one. */
    static final int DEFAULT_PRIORITY = 100;

    @BuildStep
    void registerImplementation(SchedulerConfig schedulerConfig, PacerBuildTimeConfig config,
            BuildProducer<SchedulerImplementationBuildItem> implementations,
            BuildProducer<AdditionalBeanBuildItem> beans, BuildProducer<ForceStartSchedulerBuildItem> forceStart) {
        if (!schedulerConfig.useCompositeScheduler()) {
            // Without the composite scheduler a second implementation cannot be chosen per method:
            // validatePacerScheduledMethods() names the methods that ask for it.
            return;
        }
        implementations.produce(new SchedulerImplementationBuildItem(PacerScheduler.IMPLEMENTATION,
                DotName.createSimple(PacerScheduler.class),
                config.scheduler().defaultImplementation() ? DEFAULT_PRIORITY : PRIORITY));
        beans.produce(AdditionalBeanBuildItem.unremovableOf(PacerScheduler.class));
        // The composite scheduler's pause() and resume() reach Quarkus's own scheduler first, which throws unless it
        // was started: an application whose only scheduled methods are PACER ones could not pause them all. Pacer's
        // own jobs need it too when PACER is the default.
        forceStart.produce(new ForceStartSchedulerBuildItem());
    }

    @BuildStep
    void registerMetrics(SchedulerConfig schedulerConfig, Optional<MetricsCapabilityBuildItem> metrics,
            BuildProducer<AdditionalBeanBuildItem> beans) {
        if (metrics.isPresent() && metrics.get().metricsSupported(MetricsFactory.MICROMETER)
                && schedulerConfig.useCompositeScheduler()) {
            beans.produce(AdditionalBeanBuildItem.unremovableOf(MicrometerSchedulerMetrics.class));
        }
    }

    /**
     * The classes a programmatic job can name as its task or skip predicate: a stored job is recreated from them (class
     * proxies, never a class loaded by name), the ones that are not beans are instantiated with their no-arg
     * constructor (registered for reflection, for native executables), and the beans among them stay.
     */
    @BuildStep
    @Record(ExecutionTime.STATIC_INIT)
    void recordTaskClasses(CombinedIndexBuildItem index, SchedulerConfig schedulerConfig, PacerSchedulerRecorder recorder,
            RecorderContext recorderContext, BuildProducer<SyntheticBeanBuildItem> beans,
            BuildProducer<ReflectiveClassBuildItem> reflection, BuildProducer<UnremovableBeanBuildItem> unremovable) {
        if (!schedulerConfig.useCompositeScheduler()) {
            return;
        }
        TreeSet<String> names = taskClasses(index.getIndex());
        Map<String, Class<?>> classes = new TreeMap<>();
        for (String name : names) {
            classes.put(name, recorderContext.classProxy(name));
        }
        if (!names.isEmpty()) {
            reflection.produce(ReflectiveClassBuildItem.builder(names.toArray(String[]::new)).constructors().build());
            unremovable.produce(UnremovableBeanBuildItem.beanClassNames(names));
        }
        beans.produce(SyntheticBeanBuildItem.configure(JobTaskClasses.class)
                .scope(Singleton.class)
                .unremovable()
                .supplier(recorder.taskClasses(classes))
                .done());
    }

    static TreeSet<String> taskClasses(IndexView index) {
        TreeSet<String> names = new TreeSet<>();
        for (ClassInfo type : index.getAllKnownImplementors(PacerDotNames.CONSUMER)) {
            if (instantiable(type) && implementsWithExecution(index, type, PacerDotNames.CONSUMER)) {
                names.add(type.name().toString());
            }
        }
        for (ClassInfo type : index.getAllKnownImplementors(PacerDotNames.FUNCTION)) {
            if (instantiable(type) && implementsWithExecution(index, type, PacerDotNames.FUNCTION)) {
                names.add(type.name().toString());
            }
        }
        for (ClassInfo type : index.getAllKnownImplementors(PacerDotNames.SKIP_PREDICATE)) {
            if (instantiable(type)) {
                names.add(type.name().toString());
            }
        }
        return names;
    }

    private static boolean instantiable(ClassInfo type) {
        // Anonymous and local classes have no usable no-arg constructor: they cannot be a stored job's task.
        return !type.isInterface() && !Modifier.isAbstract(type.flags())
                && (type.nestingType() == ClassInfo.NestingType.TOP_LEVEL
                        || type.nestingType() == ClassInfo.NestingType.INNER);
    }

    /** {@code type} or one of its indexed superclasses implements {@code Consumer<ScheduledExecution>} (or Function). */
    private static boolean implementsWithExecution(IndexView index, ClassInfo type, DotName functional) {
        ClassInfo current = type;
        while (current != null) {
            for (Type implemented : current.interfaceTypes()) {
                if (implemented.name().equals(functional) && implemented.kind() == Type.Kind.PARAMETERIZED_TYPE
                        && implemented.asParameterizedType().arguments().get(0).name()
                                .equals(PacerDotNames.SCHEDULED_EXECUTION)) {
                    return true;
                }
            }
            current = current.superName() == null ? null : index.getClassByName(current.superName());
        }
        return false;
    }

    /**
     * Every schedule that runs with {@code PACER}, chosen with {@code executeWith} or by default, goes through the same
     * checks. {@code PACER} as the default needs the composite scheduler even without any method: programmatic jobs
     * and Pacer's own jobs are scheduled through it.
     */
    @BuildStep
    void validatePacerScheduledMethods(List<ScheduledBusinessMethodItem> methods, SchedulerConfig schedulerConfig,
            PacerBuildTimeConfig config, BuildProducer<ValidationErrorBuildItem> errors) {
        boolean byDefault = config.scheduler().defaultImplementation();
        List<String> problems = new ArrayList<>();
        if (byDefault && !schedulerConfig.useCompositeScheduler()) {
            problems.add(DEFAULT_IMPLEMENTATION + "=true needs quarkus.scheduler.use-composite-scheduler=true "
                    + "(Quarkus's default is false): set both, so that PACER runs the methods and jobs that choose no "
                    + "scheduler while Quarkus's own scheduler stays available for executeWith = Scheduled.SIMPLE and for "
                    + "Pacer's own per-instance jobs; or remove " + DEFAULT_IMPLEMENTATION);
        }
        for (ScheduledBusinessMethodItem method : methods) {
            for (AnnotationInstance scheduled : method.getSchedules()) {
                String executeWith = executeWith(scheduled);
                boolean chosen = PacerScheduler.IMPLEMENTATION.equals(executeWith);
                if (!chosen && !(byDefault && Scheduled.AUTO.equals(executeWith))) {
                    continue;
                }
                String where = (chosen ? "@Scheduled(executeWith = \"PACER\")" : "@Scheduled")
                        + " declared on " + MethodNames.display(method.getMethod()) + ": ";
                if (!chosen) {
                    LOG.debugf("%sruns with PACER, the default implementation", where);
                }
                if (chosen && !schedulerConfig.useCompositeScheduler()) {
                    // A defaulted method has the problem above, once for the application.
                    problems.add(where + "set quarkus.scheduler.use-composite-scheduler=true (Quarkus's default is "
                            + "false), so that each method can choose its scheduler");
                }
            }
        }
        BuildProblems.report("Invalid @Scheduled usage", problems, errors);
    }

    /** The implementation a schedule asks for: {@code Scheduled.AUTO} when it names none. */
    private static String executeWith(AnnotationInstance scheduled) {
        AnnotationValue executeWith = scheduled.value("executeWith");
        return executeWith == null ? Scheduled.AUTO : executeWith.asString();
    }
}
