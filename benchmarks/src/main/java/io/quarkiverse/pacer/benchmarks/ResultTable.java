package io.quarkiverse.pacer.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * The one table a run prints: a row per scenario and implementation, with absolute figures, the ratio of Pacer's
 * figure to this row's, and the target where one applies. Written as text, Markdown and CSV.
 */
public final class ResultTable {

    /** One implementation in one scenario. Figures are {@code null} when not measured. */
    public static final class Row {
        final String scenario;
        final String implementation;
        Double throughput;
        Double p50Millis;
        Double p99Millis;
        Double maxMillis;
        Double cpuMicros;
        String note = "";
        Double pacerThroughputRatio;
        Double pacerP50Ratio;
        String target = "";
        String result = "";

        Row(String scenario, String implementation) {
            this.scenario = scenario;
            this.implementation = implementation;
        }

        public Row throughput(double value) {
            this.throughput = value;
            return this;
        }

        /** Latencies in milliseconds; a NaN (not measured) leaves its column empty. */
        public Row latencies(double p50, double p99, double max) {
            this.p50Millis = Double.isNaN(p50) ? null : p50;
            this.p99Millis = Double.isNaN(p99) ? null : p99;
            this.maxMillis = Double.isNaN(max) ? null : max;
            return this;
        }

        /** JVM CPU microseconds per operation (the client's cost). */
        public Row cpu(double micros) {
            this.cpuMicros = micros;
            return this;
        }

        public Row note(String text) {
            this.note = text;
            return this;
        }

        public Row addNote(String text) {
            this.note = note.isEmpty() ? text : note + "; " + text;
            return this;
        }

        /** Sets the ratio columns: Pacer's throughput and p50 divided by this row's. */
        public Row comparedTo(Row pacer) {
            if (pacer == null || pacer == this) {
                return this;
            }
            if (pacer.throughput != null && throughput != null && throughput > 0) {
                pacerThroughputRatio = pacer.throughput / throughput;
            }
            if (pacer.p50Millis != null && p50Millis != null && p50Millis > 0) {
                pacerP50Ratio = pacer.p50Millis / p50Millis;
            }
            return this;
        }

        /** Records a target and whether it was met; several targets on one row are joined. */
        public Row target(String text, boolean met) {
            target = target.isEmpty() ? text : target + "; " + text;
            String verdict = met ? "pass" : "MISS";
            result = result.isEmpty() ? verdict : result + "; " + verdict;
            return this;
        }

        public Double throughputValue() {
            return throughput;
        }

        public Double p50Value() {
            return p50Millis;
        }

        public Double p99Value() {
            return p99Millis;
        }

        public Double maxValue() {
            return maxMillis;
        }

        public Double pacerThroughputRatio() {
            return pacerThroughputRatio;
        }

        public Double pacerP50Ratio() {
            return pacerP50Ratio;
        }

        public String scenarioText() {
            return scenario;
        }

        public String implementationText() {
            return implementation;
        }

        public String targetText() {
            return target;
        }

        public String resultText() {
            return result;
        }

        public boolean missed() {
            return result.contains("MISS");
        }
    }

    private static final String[] HEADERS = { "Scenario", "Implementation", "ops/s", "p50 ms", "p99 ms", "max ms",
            "JVM CPU µs/op", "Pacer÷this ops/s", "Pacer÷this p50", "Target", "Result", "Notes" };

    private final List<Row> rows = new ArrayList<>();
    private final String title;

    public ResultTable(String title) {
        this.title = title;
    }

    public synchronized Row add(String scenario, String implementation) {
        Row row = new Row(scenario, implementation);
        rows.add(row);
        return row;
    }

    public synchronized List<Row> rows() {
        return List.copyOf(rows);
    }

    private List<String[]> cells() {
        List<String[]> cells = new ArrayList<>();
        for (Row row : rows()) {
            cells.add(new String[] { row.scenario, row.implementation, count(row.throughput), millis(row.p50Millis),
                    millis(row.p99Millis), millis(row.maxMillis), micros(row.cpuMicros),
                    ratio(row.pacerThroughputRatio), ratio(row.pacerP50Ratio), row.target, row.result, row.note });
        }
        return cells;
    }

    /** Fixed-width text for the console. */
    public String toText() {
        List<String[]> cells = cells();
        int[] widths = new int[HEADERS.length];
        for (int i = 0; i < HEADERS.length; i++) {
            widths[i] = HEADERS[i].length();
        }
        for (String[] line : cells) {
            for (int i = 0; i < line.length; i++) {
                widths[i] = Math.max(widths[i], line[i].length());
            }
        }
        StringBuilder text = new StringBuilder(title).append('\n');
        appendLine(text, HEADERS, widths);
        StringBuilder rule = new StringBuilder();
        for (int width : widths) {
            rule.append("-".repeat(width)).append("-+-");
        }
        text.append(rule, 0, rule.length() - 3).append('\n');
        String previous = null;
        for (String[] line : cells) {
            if (previous != null && !previous.equals(line[0])) {
                text.append('\n');
            }
            previous = line[0];
            appendLine(text, line, widths);
        }
        return text.toString();
    }

    private static void appendLine(StringBuilder text, String[] line, int[] widths) {
        for (int i = 0; i < line.length; i++) {
            boolean numeric = i >= 2 && i <= 8;
            String cell = line[i];
            String padded = numeric ? " ".repeat(widths[i] - cell.length()) + cell
                    : cell + " ".repeat(widths[i] - cell.length());
            text.append(padded);
            if (i < line.length - 1) {
                text.append(" | ");
            }
        }
        text.append('\n');
    }

    public String toMarkdown() {
        StringBuilder md = new StringBuilder("# ").append(title).append("\n\n");
        md.append('|').append(String.join("|", HEADERS)).append("|\n|");
        for (int i = 0; i < HEADERS.length; i++) {
            md.append(i >= 2 && i <= 8 ? "---:|" : "---|");
        }
        md.append('\n');
        for (String[] line : cells()) {
            md.append('|');
            for (String cell : line) {
                md.append(cell.replace("|", "\\|")).append('|');
            }
            md.append('\n');
        }
        return md.toString();
    }

    public String toCsv() {
        StringBuilder csv = new StringBuilder();
        csv.append("scenario,implementation,ops_per_s,p50_ms,p99_ms,max_ms,jvm_cpu_us_per_op,pacer_over_this_ops,"
                + "pacer_over_this_p50,"
                + "target,result,notes\n");
        Function<Double, String> raw = v -> v == null ? "" : String.format(Locale.ROOT, "%.4f", v);
        for (Row row : rows()) {
            csv.append(String.join(",", quote(row.scenario), quote(row.implementation), raw.apply(row.throughput),
                    raw.apply(row.p50Millis), raw.apply(row.p99Millis), raw.apply(row.maxMillis),
                    raw.apply(row.cpuMicros), raw.apply(row.pacerThroughputRatio), raw.apply(row.pacerP50Ratio),
                    quote(row.target), quote(row.result), quote(row.note))).append('\n');
        }
        return csv.toString();
    }

    public void write(Path directory, String baseName, String preamble) {
        try {
            Files.createDirectories(directory);
            Files.writeString(directory.resolve(baseName + ".md"), preamble + "\n" + toMarkdown());
            Files.writeString(directory.resolve(baseName + ".csv"), toCsv());
            Files.writeString(directory.resolve(baseName + ".txt"), preamble + "\n" + toText());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String quote(String text) {
        return '"' + text.replace("\"", "\"\"") + '"';
    }

    static String count(Double value) {
        if (value == null) {
            return "";
        }
        return String.format(Locale.ROOT, "%,.0f", value);
    }

    public static String millis(Double value) {
        if (value == null) {
            return "";
        }
        if (value >= 100) {
            return String.format(Locale.ROOT, "%.0f", value);
        }
        if (value >= 10) {
            return String.format(Locale.ROOT, "%.1f", value);
        }
        return String.format(Locale.ROOT, "%.3f", value);
    }

    static String micros(Double value) {
        return value == null ? "" : String.format(Locale.ROOT, "%.1f", value);
    }

    static String ratio(Double value) {
        return value == null ? "" : String.format(Locale.ROOT, "%.2f×", value);
    }
}
