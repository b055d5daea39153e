package io.quarkiverse.pacer.benchmarks.delay;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.jboss.logging.Logger;

/**
 * The BullMQ the peer rows run: the versions pinned by {@code benchmarks/bullmq/package-lock.json}, installed from the
 * npm registry with {@code npm ci} into {@code target/bullmq} beside the peer script, once per lockfile.
 */
final class BullMqInstallation {

    private static final Logger LOG = Logger.getLogger(BullMqInstallation.class);
    private static final List<String> FILES = List.of("package.json", "package-lock.json", "peer.mjs");
    private static final long NPM_TIMEOUT_MINUTES = 5;

    /** Why BullMQ cannot run here, in words the table prints. */
    static final class Unavailable extends Exception {
        Unavailable(String message) {
            super(message);
        }
    }

    private BullMqInstallation() {
    }

    /** Installs the pinned packages into {@code target} (unless already installed from the same lockfile). */
    static Path install(Path source, Path target) throws Unavailable, InterruptedException {
        for (String tool : List.of("node", "npm")) {
            if (!runs(tool, "--version")) {
                throw new Unavailable(tool + " is not on the PATH: install Node.js 18 or later with npm (e.g."
                        + " apt-get install nodejs npm) to measure BullMQ");
            }
        }
        if (!Files.isRegularFile(source.resolve("package-lock.json"))) {
            throw new Unavailable("no package-lock.json in " + source + " (set bench.bullmq.dir to benchmarks/bullmq)");
        }
        try {
            Files.createDirectories(target);
            boolean installed = Files.isDirectory(target.resolve("node_modules/bullmq"))
                    && Files.isRegularFile(target.resolve("package-lock.json"))
                    && Arrays.equals(Files.readAllBytes(source.resolve("package-lock.json")),
                            Files.readAllBytes(target.resolve("package-lock.json")));
            for (String file : FILES) {
                Files.copy(source.resolve(file), target.resolve(file), StandardCopyOption.REPLACE_EXISTING);
            }
            if (!installed) {
                LOG.infof("Installing BullMQ with npm ci into %s", target);
                // --ignore-scripts: BullMQ runs without any package's install step (msgpackr uses its prebuilt or JS
                // code); nothing fetched is built or run at install time.
                Process npm = new ProcessBuilder("npm", "ci", "--no-audit", "--no-fund", "--ignore-scripts")
                        .directory(target.toFile()).redirectErrorStream(true).start();
                String output = new String(npm.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                if (!npm.waitFor(NPM_TIMEOUT_MINUTES, TimeUnit.MINUTES) || npm.exitValue() != 0) {
                    npm.destroyForcibly();
                    throw new Unavailable("npm ci failed in " + target + " (is the npm registry reachable?): "
                            + output.strip());
                }
            }
        } catch (IOException e) {
            throw new Unavailable("cannot install BullMQ into " + target + ": " + e.getMessage());
        }
        return target;
    }

    private static boolean runs(String executable, String argument) throws InterruptedException {
        try {
            Process probe = new ProcessBuilder(executable, argument).redirectErrorStream(true).start();
            probe.getInputStream().readAllBytes();
            return probe.waitFor(30, TimeUnit.SECONDS) && probe.exitValue() == 0;
        } catch (IOException e) {
            return false;
        }
    }
}
