package io.quarkiverse.pacer.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.jboss.logging.Logger;
import org.junit.jupiter.api.Test;

class SparseWarningTest {

    private final List<String> lines = new ArrayList<>();

    private final Logger log = new Logger("sparse-warning-test") {
        @Override
        protected void doLog(Level level, String fqcn, Object message, Object[] parameters, Throwable thrown) {
            lines.add(level + " " + message);
        }

        @Override
        protected void doLogf(Level level, String fqcn, String format, Object[] parameters, Throwable thrown) {
            lines.add(level + " " + String.format(format, parameters));
        }

        @Override
        public boolean isEnabled(Level level) {
            return true;
        }
    };

    @Test
    void oneWarningPerIntervalTheOthersAtDebug() {
        SparseWarning warning = new SparseWarning(log, Duration.ofHours(1));
        warning.warnf("job %s skipped", "a");
        warning.warnf("job %s skipped", "b");
        warning.warnf("job %s skipped", "c");
        assertThat(lines).containsExactly("WARN job a skipped", "DEBUG job b skipped", "DEBUG job c skipped");
    }

    @Test
    void theNextWarningCountsTheOnesHeldBack() {
        long[] now = { 1_000 };
        SparseWarning warning = new SparseWarning(log, Duration.ofSeconds(10), () -> now[0]);
        warning.warnf("job %s skipped", "a");
        now[0] += Duration.ofSeconds(9).toNanos();
        warning.warnf("job %s skipped", "b");
        warning.warnf("job %s skipped", "c");
        now[0] += Duration.ofSeconds(1).toNanos();
        warning.warnf("job %s skipped", "d");
        warning.warnf("job %s skipped", "e");
        assertThat(lines).containsExactly("WARN job a skipped", "DEBUG job b skipped", "DEBUG job c skipped",
                "WARN job d skipped (and 2 more like it since the last one, logged at DEBUG)", "DEBUG job e skipped");
    }
}
