package dev.loomscope.analyzer.compare;

import dev.loomscope.analyzer.errors.UsageException;
import dev.loomscope.analyzer.reduce.RecordingFacts;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which group each recording belongs to: a key the recording itself stores ({@link By}), or explicit
 * {@code name=GLOB} rules, first match wins.
 */
public final class Grouping {
    private Grouping() {}

    /** What the recordings are grouped by when no {@code --group} rule is given. */
    public enum By {
        /** The thread kind the agent stored; a recording without one goes by its label. */
        threadKind,
        /** The label of the run (the agent's {@code label=} option, the study's workload and kind). */
        label,
        /** The JVM that recorded it (name and version), for a fleet that moves to another JDK. */
        jvm;

        String of(RecordingFacts f) {
            return switch (this) {
                case threadKind -> f.group();
                case label -> f.summary.label != null ? f.summary.label : "unlabelled";
                case jvm -> jvmKey(f.summary.jvm);
            };
        }
    }

    /**
     * The JVM's name and version out of {@code jdk.JVMInformation}'s jvmVersion ("OpenJDK 64-Bit
     * Server VM (25.0.3+9-LTS) for linux-amd64 JRE ..., built on ..."): the build's date and compiler
     * do not split a fleet.
     */
    static String jvmKey(String jvmVersion) {
        if (jvmVersion == null || jvmVersion.isBlank()) {
            return "unknown JVM";
        }
        int open = jvmVersion.indexOf(" (");
        int close = jvmVersion.indexOf(')', open + 2);
        return open > 0 && close > open ? jvmVersion.substring(0, open) + " " + jvmVersion.substring(open + 2, close) : jvmVersion;
    }

    /** Groups by the thread kind (else the label), or by {@code rules} when there are some. */
    public static Map<String, List<RecordingFacts>> of(List<RecordingFacts> facts, List<String> rules) {
        return of(facts, rules, By.threadKind);
    }

    public static Map<String, List<RecordingFacts>> of(List<RecordingFacts> facts, List<String> rules, By by) {
        Map<String, List<RecordingFacts>> groups = new LinkedHashMap<>();
        if (rules == null || rules.isEmpty()) {
            for (RecordingFacts f : facts) {
                groups.computeIfAbsent(by.of(f), k -> new ArrayList<>()).add(f);
            }
            return groups;
        }
        List<String> names = new ArrayList<>();
        List<PathMatcher> matchers = new ArrayList<>();
        for (String rule : rules) {
            int eq = rule.indexOf('=');
            if (eq <= 0 || eq == rule.length() - 1) {
                throw new UsageException("--group " + rule + ": expected NAME=GLOB (e.g. virtual=runs/*virtual*.jfr)");
            }
            names.add(rule.substring(0, eq));
            String glob = rule.substring(eq + 1);
            matchers.add(FileSystems.getDefault().getPathMatcher("glob:" + Path.of(glob).toAbsolutePath().normalize()));
            groups.put(rule.substring(0, eq), new ArrayList<>());
        }
        for (RecordingFacts f : facts) {
            for (int i = 0; i < matchers.size(); i++) {
                if (matchers.get(i).matches(f.source.name().toAbsolutePath().normalize())) {
                    groups.get(names.get(i)).add(f);
                    break;
                }
            }
        }
        for (Map.Entry<String, List<RecordingFacts>> e : groups.entrySet()) {
            if (e.getValue().isEmpty()) {
                String rule = rules.stream().filter(r -> r.startsWith(e.getKey() + "=")).findFirst().orElse(e.getKey());
                throw new UsageException("--group " + rule + ": matches none of the recordings given (check the pattern)");
            }
        }
        return groups;
    }
}
