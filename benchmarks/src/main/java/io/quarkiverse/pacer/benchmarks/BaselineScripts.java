package io.quarkiverse.pacer.benchmarks;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** The physical-limit baselines' Lua scripts, from {@code baseline/} on the harness's classpath. */
public final class BaselineScripts {

    private BaselineScripts() {
    }

    /** The source of {@code baseline/<name>.lua}. */
    public static String read(String name) {
        String path = "baseline/" + name + ".lua";
        try (InputStream in = BaselineScripts.class.getClassLoader().getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("The baseline script " + path + " is missing from the classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
