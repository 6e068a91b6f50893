package dev.loomscope.analyzer.compare;

import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.options.UsageException;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which group each recording belongs to: a key the recording itself stores ({@link By}), or explicit {@code name=GLOB}
 * rules, first match wins.
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
        jvm,
        /** The workload its loomscope.WorkloadRun events name: different work is compared apart, never pooled. */
        workload;

        String of(RecordingFacts f) {
            return switch (this) {
                case threadKind -> f.group();
                case label -> f.summary.label != null ? f.summary.label : "unlabelled";
                case jvm -> jvmKey(f.summary.jvm);
                case workload -> workloadOf(f) != null ? workloadOf(f) : "no workload";
            };
        }
    }

    /**
     * Recordings compared together: a workload's (null name when the recordings name none, or one comparison is asked
     * for), its groups each compared with the baseline.
     */
    public record Stratum(String name, Map<String, List<RecordingFacts>> groups) {}

    /** The workload a recording's runs name, or null (an application without loomscope.WorkloadRun events). */
    static String workloadOf(RecordingFacts f) {
        return f.runs.runs().isEmpty() ? null : f.runs.runs().get(0).workload();
    }

    private static String unitOf(RecordingFacts f) {
        return f.runs.runs().isEmpty() ? null : f.runs.runs().get(0).unit();
    }

    /**
     * The comparisons to make. By {@code rules} (explicit groups, one comparison), else by the keys {@code by} names
     * (default: workload and thread kind where the recordings name workloads, else thread kind). With workload among
     * the keys each workload is compared apart (and a workload's CPU-profiled JVMs apart from its unprofiled ones,
     * where both are given: the profiler's cost is not the thread kind's); without it, a group that pools different
     * workloads is refused.
     */
    public static List<Stratum> strata(List<RecordingFacts> facts, List<String> rules, List<By> by) {
        if (rules != null && !rules.isEmpty()) {
            Map<String, List<RecordingFacts>> groups = of(facts, rules, By.threadKind);
            refusePooled(groups, "--group");
            return List.of(new Stratum(null, groups));
        }
        if (by == null || by.isEmpty()) {
            // recordings of different JDKs are compared apart unless asked otherwise: a JDK's own change (pinning gone
            // in 24) is not the thread kind's
            Map<String, List<RecordingFacts>> byJdk = new LinkedHashMap<>();
            facts.forEach(f -> byJdk.computeIfAbsent(jdkOf(f.summary.jvm), k -> new ArrayList<>())
                    .add(f));
            if (byJdk.size() > 1) {
                List<Stratum> out = new ArrayList<>();
                byJdk.forEach((jdk, fs) -> strata(fs, rules, by)
                        .forEach(
                                s -> out.add(new Stratum(s.name() == null ? jdk : jdk + ", " + s.name(), s.groups()))));
                return out;
            }
        }
        List<By> keys = by == null || by.isEmpty()
                ? facts.stream().anyMatch(f -> workloadOf(f) != null)
                        ? List.of(By.workload, By.threadKind)
                        : List.of(By.threadKind)
                : by;
        List<By> within = keys.stream().filter(k -> k != By.workload).toList();
        if (!keys.contains(By.workload)) {
            Map<String, List<RecordingFacts>> groups = byKeys(facts, within);
            refusePooled(
                    groups,
                    "--by " + String.join(",", keys.stream().map(Enum::name).toList()));
            return List.of(new Stratum(null, groups));
        }
        // a workload's recordings: profiled, unprofiled, or both
        Map<String, Set<Boolean>> profiledKinds = new HashMap<>();
        facts.forEach(f -> profiledKinds
                .computeIfAbsent(By.workload.of(f), k -> new HashSet<>())
                .add(profiled(f)));
        Map<String, List<RecordingFacts>> byWorkload = new LinkedHashMap<>();
        for (RecordingFacts f : facts) {
            String w = By.workload.of(f);
            boolean mixed = profiledKinds.get(w).size() > 1;
            byWorkload
                    .computeIfAbsent(mixed && profiled(f) ? w + " (CPU-profiled JVMs)" : w, k -> new ArrayList<>())
                    .add(f);
        }
        // one workload's recordings: one comparison, as without workloads (no name before its lines)
        List<Stratum> out = new ArrayList<>();
        byWorkload.forEach((w, fs) -> out.add(new Stratum(
                byWorkload.size() == 1 ? null : w, byKeys(fs, within.isEmpty() ? List.of(By.threadKind) : within))));
        return out;
    }

    private static boolean profiled(RecordingFacts f) {
        return f.summary.profilingMode != null && !f.summary.profilingMode.equals("off");
    }

    private static Map<String, List<RecordingFacts>> byKeys(List<RecordingFacts> facts, List<By> keys) {
        Map<String, List<RecordingFacts>> groups = new LinkedHashMap<>();
        for (RecordingFacts f : facts) {
            groups.computeIfAbsent(
                            String.join(" ", keys.stream().map(k -> k.of(f)).toList()), k -> new ArrayList<>())
                    .add(f);
        }
        return groups;
    }

    /**
     * A group whose recordings ran different workloads (or count different units) is no quantity: refused in one line.
     */
    static void refusePooled(Map<String, List<RecordingFacts>> groups, String how) {
        for (Map.Entry<String, List<RecordingFacts>> g : groups.entrySet()) {
            List<String> work = g.getValue().stream()
                    .map(f -> workloadOf(f) == null ? null : workloadOf(f) + " (" + unitOf(f) + ")")
                    .filter(Objects::nonNull)
                    .distinct()
                    .sorted()
                    .toList();
            if (work.size() > 1) {
                throw new UsageException(
                        how + ": group '" + g.getKey() + "' pools different work, " + String.join(" and ", work)
                                + ": its run times and throughputs are not one quantity; compare each workload apart"
                                + " (--by workload,threadKind, the default) or give one workload's recordings");
            }
        }
    }

    /**
     * {@code JDK 25} from {@code jdk.JVMInformation}'s jvmVersion ("OpenJDK 64-Bit Server VM (25.0.3+9-LTS) ...");
     * {@code unknown JDK} without one.
     */
    static String jdkOf(String jvmVersion) {
        int open = jvmVersion == null ? -1 : jvmVersion.indexOf(" (");
        if (open < 0) {
            return "unknown JDK";
        }
        Matcher m = Pattern.compile("^(\\d+)").matcher(jvmVersion.substring(open + 2));
        return m.find() ? "JDK " + m.group(1) : "unknown JDK";
    }

    /**
     * The JVM's name and version out of {@code jdk.JVMInformation}'s jvmVersion ("OpenJDK 64-Bit Server VM
     * (25.0.3+9-LTS) for linux-amd64 JRE ..., built on ..."): the build's date and compiler do not split a fleet.
     */
    static String jvmKey(String jvmVersion) {
        if (jvmVersion == null || jvmVersion.isBlank()) {
            return "unknown JVM";
        }
        int open = jvmVersion.indexOf(" (");
        int close = jvmVersion.indexOf(')', open + 2);
        return open > 0 && close > open
                ? jvmVersion.substring(0, open) + " " + jvmVersion.substring(open + 2, close)
                : jvmVersion;
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
            matchers.add(FileSystems.getDefault()
                    .getPathMatcher("glob:" + Path.of(glob).toAbsolutePath().normalize()));
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
                String rule = rules.stream()
                        .filter(r -> r.startsWith(e.getKey() + "="))
                        .findFirst()
                        .orElse(e.getKey());
                throw new UsageException(
                        "--group " + rule + ": matches none of the recordings given (check the pattern)");
            }
        }
        return groups;
    }
}
