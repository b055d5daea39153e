package io.quarkiverse.pacer.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.delay.DelayedMessage;

/**
 * The demo app's native build, as far as a machine without GraalVM goes: the build's {@code native-sources} execution
 * ({@code quarkus.native.sources-only}) ran every Quarkus native build step and wrote the {@code native-image}
 * arguments and the generated configuration. Every Lua script Pacer loads is a registered resource, every JSON payload
 * type of a {@code @Delayed} method is registered for reflection the way Jackson needs it, and so are the classes
 * Pacer instantiates reflectively. Whether GraalVM then compiles and runs the image is not verified here.
 */
class NativeSourcesIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static Path sources;
    private static JsonNode reflection;
    private static JsonNode resources;

    @BeforeAll
    static void readTheGeneratedConfiguration() throws IOException {
        sources = Path.of(System.getProperty("pacer.it.native-sources"));
        assertThat(sources.resolve("native-image.args")).as("the native-sources build ran").exists();
        try (JarFile runner = new JarFile(runnerJar().toFile())) {
            reflection = JSON.readTree(runner.getInputStream(runner.getEntry("META-INF/native-image/reflect-config.json")));
            resources = JSON.readTree(runner.getInputStream(runner.getEntry("META-INF/native-image/resource-config.json")));
        }
    }

    @Test
    void theArgumentsBuildTheRunnerWithQuarkusFeatureAndNoFallback() throws IOException {
        List<String> args = List.of(Files.readString(sources.resolve("native-image.args")).trim().split("\\s+"));
        assertThat(args).contains("--no-fallback", "-jar", runnerJar().getFileName().toString());
        assertThat(args).anySatisfy(arg -> assertThat(arg).startsWith("--features=").contains("io.quarkus.runner.Feature"));
        // Pacer needs no class initialized at run time nor any extra native-image option of its own.
        assertThat(args).noneMatch(arg -> arg.contains("io.quarkiverse.pacer"));
    }

    @Test
    void everyLuaScriptIsARegisteredResource() throws IOException {
        List<Pattern> includes = new ArrayList<>();
        resources.path("resources").path("includes").forEach(include -> includes.add(Pattern.compile(
                include.path("pattern").asText())));
        Set<String> scripts = new TreeSet<>();
        try (Stream<Path> libs = Files.list(sources.resolve("lib"))) {
            for (Path lib : libs.filter(p -> p.getFileName().toString().contains("io.quarkiverse.pacer.quarkus-pacer-"))
                    .toList()) {
                try (JarFile jar = new JarFile(lib.toFile())) {
                    jar.stream().map(JarEntry::getName).filter(name -> name.endsWith(".lua")).forEach(scripts::add);
                }
            }
        }
        assertThat(scripts).as("Pacer's scripts in its runtime jar").contains("META-INF/pacer/delayed-schedule.lua",
                "META-INF/pacer/throttle-prelude.lua");
        for (String script : scripts) {
            assertThat(includes).as(script + " is included in the native image")
                    .anyMatch(pattern -> pattern.matcher(script).matches());
        }
    }

    @Test
    void everyJsonPayloadTypeIsRegisteredForJackson() throws Exception {
        Set<String> payloadTypes = new TreeSet<>();
        Path classes = Path.of(System.getProperty("pacer.it.classes"));
        try (Stream<Path> files = Files.walk(classes)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
                String name = classes.relativize(file).toString().replace('/', '.').replaceAll("\\.class$", "");
                for (Method method : Class.forName(name, false, NativeSourcesIT.class.getClassLoader())
                        .getDeclaredMethods()) {
                    if (method.isAnnotationPresent(Delayed.class)) {
                        payloadTypes.add(payloadType(method.getGenericParameterTypes()[0]));
                    }
                }
            }
        }
        payloadTypes.removeAll(Set.of(String.class.getName(), byte[].class.getName()));
        assertThat(payloadTypes).as("the demo's JSON payload types").contains(OrderRef.class.getName());
        for (String type : payloadTypes) {
            JsonNode entry = registered(type);
            assertThat(entry).as(type + " is registered for reflection").isNotNull();
            assertThat(entry.path("allDeclaredConstructors").asBoolean()).as(type + " constructors").isTrue();
            assertThat(entry.path("allDeclaredMethods").asBoolean()).as(type + " methods").isTrue();
            assertThat(entry.path("allDeclaredFields").asBoolean()).as(type + " fields").isTrue();
        }
    }

    @Test
    void theClassesPacerInstantiatesReflectivelyAreRegistered() {
        // The REST exception mapper of ThrottledException (HTTP 429), and Pacer's configuration mappings.
        assertThat(registered("io.quarkiverse.pacer.runtime.throttle.http.ThrottledExceptionMapper")).isNotNull();
        assertThat(registered("io.quarkiverse.pacer.runtime.config.PacerConfig$$CMImpl")).isNotNull();
        assertThat(registered("io.quarkiverse.pacer.runtime.config.DelayedRuntimeConfig$$CMImpl")).isNotNull();
        assertThat(registered("io.quarkiverse.pacer.runtime.config.ThrottleRuntimeConfig$$CMImpl")).isNotNull();
    }

    /** The payload type of a {@code @Delayed} method's parameter: {@code T} of {@code DelayedMessage<T>}. */
    private static String payloadType(Type parameter) {
        if (parameter instanceof ParameterizedType generic && generic.getRawType() == DelayedMessage.class) {
            return payloadType(generic.getActualTypeArguments()[0]);
        }
        return parameter instanceof Class<?> type ? type.getName() : parameter.getTypeName();
    }

    private static JsonNode registered(String className) {
        for (JsonNode entry : reflection) {
            if (className.equals(entry.path("name").asText())) {
                return entry;
            }
        }
        return null;
    }

    private static Path runnerJar() throws IOException {
        try (Stream<Path> files = Files.list(sources)) {
            return files.filter(f -> f.getFileName().toString().endsWith("-runner.jar")).findFirst().orElseThrow();
        }
    }
}
