package dev.loomscope.events;

import java.util.ArrayList;
import java.util.List;

/**
 * The results file a workload JVM writes with {@code --results FILE.csv} (the study's control JVMs, which run without
 * agent or JFR): a header, then a row per run as the run's {@code loomscope.WorkloadRun} event would record it. Its
 * columns are the run's start (epoch nanoseconds) and duration (nanoseconds), then every field {@link WorkloadRunEvent}
 * declares, by name: one declaration for the event and the file. Values with a comma, quote or line break are quoted as
 * RFC 4180 says; a reader finds columns by name, so files of an earlier loomscope (other order, fewer optional columns)
 * read too.
 */
public final class RunResults {
    private RunResults() {}

    /** The run's start, epoch nanoseconds. */
    public static final String START = "startEpochNanos";

    /** The run's duration, nanoseconds. */
    public static final String NANOS = "nanos";

    /** The columns: start, duration, then the event's fields. */
    public static List<String> columns() {
        List<String> columns = new ArrayList<>(List.of(START, NANOS));
        EventSchema.fields(WorkloadRunEvent.class).forEach(f -> columns.add(f.name()));
        return columns;
    }

    /** The header line (without its line break). */
    public static String header() {
        return String.join(",", columns());
    }

    /**
     * The row of a run whose event is {@code e}, which started at {@code startEpochNanos} and took {@code nanos}
     * (without its line break).
     */
    public static String row(WorkloadRunEvent e, long startEpochNanos, long nanos) {
        List<String> values = new ArrayList<>(List.of(Long.toString(startEpochNanos), Long.toString(nanos)));
        for (EventSchema.Field f : EventSchema.fields(WorkloadRunEvent.class)) {
            Object v;
            try {
                v = WorkloadRunEvent.class.getField(f.name()).get(e);
            } catch (ReflectiveOperationException notPublic) {
                throw new IllegalStateException("WorkloadRunEvent." + f.name() + " is not a public field", notPublic);
            }
            values.add(quoted(v == null ? "" : String.valueOf(v)));
        }
        return String.join(",", values);
    }

    private static String quoted(String v) {
        if (v.indexOf(',') < 0 && v.indexOf('"') < 0 && v.indexOf('\n') < 0 && v.indexOf('\r') < 0) {
            return v;
        }
        return '"' + v.replace("\"", "\"\"") + '"';
    }

    /** One line's values, quotes undone; null when a quote is not closed on the line. */
    public static List<String> split(String line) {
        List<String> values = new ArrayList<>();
        StringBuilder v = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    v.append('"');
                    i++;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    v.append(c);
                }
            } else if (c == '"' && v.isEmpty()) {
                quoted = true;
            } else if (c == ',') {
                values.add(v.toString());
                v.setLength(0);
            } else {
                v.append(c);
            }
        }
        if (quoted) {
            return null;
        }
        values.add(v.toString());
        return values;
    }
}
