package dev.loomscope.analyzer.jmh;

import dev.loomscope.analyzer.render.Table;
import dev.loomscope.analyzer.stats.Verdict;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The perfnorm context-switch report of JMH results: every result with its score and context switches per operation,
 * and the virtual/platform ratios of results that differ only by their thread kind (a
 * {@code useVirtualThreads}/{@code threads} parameter, or "virtual"/"platform" in the method name).
 */
public final class JmhView {
    /** Parameters naming the thread kind as a boolean ("true" = virtual). */
    private static final Set<String> BOOLEAN_KIND =
            Set.of("usevirtualthreads", "virtual", "virtualthreads", "isvirtual");
    /** Parameters naming the thread kind as "virtual" or "platform". */
    private static final Set<String> NAMED_KIND = Set.of("threads", "threadkind", "kind", "threadtype", "threadsort");

    private JmhView() {}

    static boolean isKindParam(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        return BOOLEAN_KIND.contains(n) || NAMED_KIND.contains(n);
    }

    /** A result's thread kind and what its pair key leaves out. */
    record Kind(String kind, String pairKey) {}

    /** "virtual", "platform" or null, and the key shared with the other kind's result. */
    static Kind kindOf(JmhResult r) {
        for (Map.Entry<String, String> e : r.params().entrySet()) {
            String name = e.getKey().toLowerCase(Locale.ROOT);
            String value = e.getValue().toLowerCase(Locale.ROOT);
            String kind = null;
            if (BOOLEAN_KIND.contains(name) && (value.equals("true") || value.equals("false"))) {
                kind = value.equals("true") ? "virtual" : "platform";
            } else if (NAMED_KIND.contains(name) && (value.equals("virtual") || value.equals("platform"))) {
                kind = value;
            }
            if (kind != null) {
                Map<String, String> rest = new LinkedHashMap<>(r.params());
                rest.remove(e.getKey());
                return new Kind(kind, r.file() + "|" + r.benchmark() + "|" + r.mode() + "|" + rest);
            }
        }
        String method = r.benchmark().substring(r.benchmark().lastIndexOf('.') + 1);
        String lower = method.toLowerCase(Locale.ROOT);
        for (String kind : List.of("virtual", "platform")) {
            int at = lower.indexOf(kind);
            if (at >= 0) {
                String stem = r.benchmark().substring(0, r.benchmark().length() - method.length())
                        + lower.substring(0, at) + "*" + lower.substring(at + kind.length());
                return new Kind(kind, r.file() + "|" + stem + "|" + r.mode() + "|" + r.params());
            }
        }
        return new Kind(null, null);
    }

    /** A platform result and its virtual counterpart. */
    public record Pair(JmhResult platform, JmhResult virtual) {
        /** The benchmark and its parameters without the thread kind. */
        public String label() {
            Map<String, String> rest = new LinkedHashMap<>(virtual.params());
            boolean byParam = rest.keySet().removeIf(JmhView::isKindParam);
            String name = byParam ? virtual.shortName() : virtual.shortName().replaceAll("(?i)virtual", "*");
            StringBuilder sb = new StringBuilder(name);
            rest.forEach((k, v) -> sb.append(' ').append(k).append('=').append(v));
            return sb.toString();
        }

        public double scoreRatio() {
            return virtual.score() / platform.score();
        }

        public double switchRatio() {
            return virtual.switches() / platform.switches();
        }
    }

    /** The pairs of results that differ only by thread kind, in the order of the virtual results. */
    public static List<Pair> pairs(List<JmhResult> results) {
        Map<String, JmhResult> platform = new LinkedHashMap<>();
        for (JmhResult r : results) {
            Kind k = kindOf(r);
            if ("platform".equals(k.kind())) {
                platform.putIfAbsent(k.pairKey(), r);
            }
        }
        List<Pair> pairs = new ArrayList<>();
        for (JmhResult r : results) {
            Kind k = kindOf(r);
            if ("virtual".equals(k.kind()) && platform.containsKey(k.pairKey())) {
                pairs.add(new Pair(platform.get(k.pairKey()), r));
            }
        }
        return pairs;
    }

    public static List<Table> of(List<JmhResult> results) {
        return of(results, Verdict.Rule.DEFAULT);
    }

    /** The results table, the virtual/platform ratios, and the per-fork verdicts by {@code rule}. */
    public static List<Table> of(List<JmhResult> results, Verdict.Rule rule) {
        boolean manyFiles = results.stream().map(JmhResult::file).distinct().count() > 1;
        List<Table.Column> columns = new ArrayList<>();
        if (manyFiles) {
            columns.add(Table.text("file"));
        }
        columns.addAll(List.of(
                Table.text("benchmark"),
                Table.text("params"),
                Table.text("mode"),
                Table.number("forks", "", 0),
                Table.number("score", "", 3),
                Table.number("error", "", 3),
                Table.text("unit"),
                Table.number("context switches", "#/op", 3),
                Table.text("switches from"),
                Table.number("cpu migrations", "#/op", 3)));
        Table table = new Table("jmh", "JMH results with context switches per operation", columns);
        for (JmhResult r : results) {
            List<Object> row = new ArrayList<>();
            if (manyFiles) {
                row.add(r.file());
            }
            String from = !Double.isNaN(r.perfnormSwitches())
                    ? "perfnorm " + r.perfnormKey()
                    : !Double.isNaN(r.ctxswSwitches()) ? "ctxsw" : null;
            row.addAll(
                    List.of(r.shortName(), r.paramText(), r.mode(), (long) r.forks(), r.score(), r.error(), r.unit()));
            row.add(r.switches());
            row.add(from);
            row.add(r.cpuMigrations());
            table.row(row.toArray());
        }
        warnings(results).forEach(table::note);
        if (results.stream().allMatch(r -> Double.isNaN(r.switches()))) {
            table.note("no context-switch counts in these results: run JMH with -prof ctxsw (no perf needed) or -prof"
                    + " \"perfnorm:events=context-switches\"");
        }
        List<Pair> pairs = pairs(results);
        Table ratios = new Table(
                "jmh-ratios",
                "Virtual vs platform threads (results that differ only by thread kind)",
                List.of(
                        Table.text("benchmark"),
                        Table.text("mode"),
                        Table.number("platform score", "", 3),
                        Table.number("virtual score", "", 3),
                        Table.text("unit"),
                        Table.number("score virtual/platform", "x", 3),
                        Table.number("platform switches", "#/op", 3),
                        Table.number("virtual switches", "#/op", 3),
                        Table.number("switches virtual/platform", "x", 4)));
        for (Pair p : pairs) {
            ratios.row(
                    p.label(),
                    p.virtual().mode(),
                    p.platform().score(),
                    p.virtual().score(),
                    p.virtual().unit(),
                    p.scoreRatio(),
                    p.platform().switches(),
                    p.virtual().switches(),
                    p.switchRatio());
        }
        if (pairs.isEmpty()) {
            ratios.note(
                    "no pair of results differs only by the thread kind (a useVirtualThreads or threads parameter, or"
                            + " virtual/platform in the method name)");
        }
        List<JmhForks.Versus> versus = pairs.stream()
                .map(p -> new JmhForks.Versus(p.label(), p.platform(), p.virtual()))
                .toList();
        Table verdicts = JmhForks.table(
                "jmh-verdicts", "Virtual vs platform threads, fork by fork", "platform", "virtual", versus, rule);
        if (pairs.isEmpty()) {
            return List.of(table, ratios);
        }
        return List.of(table, ratios, verdicts);
    }

    /**
     * Each result of {@code after} against the result of {@code before} with the same benchmark, mode and parameters,
     * fork by fork; results without a counterpart are named in a note.
     */
    public static Table versus(List<JmhResult> before, List<JmhResult> after, Verdict.Rule rule) {
        Map<String, JmhResult> old = new LinkedHashMap<>();
        before.forEach(r -> old.putIfAbsent(r.benchmark() + "|" + r.mode() + "|" + r.params(), r));
        List<JmhForks.Versus> pairs = new ArrayList<>();
        List<String> unmatched = new ArrayList<>();
        for (JmhResult r : after) {
            JmhResult o = old.get(r.benchmark() + "|" + r.mode() + "|" + r.params());
            if (o == null) {
                unmatched.add(r.shortName() + (r.params().isEmpty() ? "" : " (" + r.paramText() + ")"));
            } else {
                pairs.add(new JmhForks.Versus(r.shortName() + (r.params().isEmpty() ? "" : " " + r.paramText()), o, r));
            }
        }
        Table t = JmhForks.table("jmh-baseline", "Against the baseline, fork by fork", "baseline", "new", pairs, rule);
        if (!unmatched.isEmpty()) {
            t.note("not in the baseline: " + String.join(", ", unmatched));
        }
        return t;
    }

    /** What makes the counts or scores doubtful, one line each. */
    static List<String> warnings(List<JmhResult> results) {
        Set<String> notes = new LinkedHashSet<>();
        for (JmhResult r : results) {
            String name = r.shortName() + (r.params().isEmpty() ? "" : " (" + r.paramText() + ")");
            if (r.perfnormKey() != null && r.perfnormKey().endsWith(":u")) {
                notes.add(name + ": perfnorm counted user mode only (" + r.perfnormKey()
                        + "); context switches happen in the kernel, so these are zeros or undercounts: run perf as"
                        + " root or with kernel.perf_event_paranoid <= 1, or use -prof ctxsw");
            } else if (r.perfnormKey() != null && r.perfnormSwitches() == 0) {
                notes.add(name
                        + ": perfnorm counted 0 context switches: perf was likely not allowed to count kernel events"
                        + " (kernel.perf_event_paranoid); use -prof ctxsw or run perf as root");
            }
            if (!Double.isNaN(r.ctxswSwitches()) && r.ctxswSwitches() == 0) {
                notes.add(name + ": ctxsw counted 0 context switches per operation");
            }
        }
        List<String> fewForks = results.stream()
                .filter(r -> r.forks() < 3)
                .map(r -> r.shortName())
                .distinct()
                .toList();
        if (!fewForks.isEmpty()) {
            notes.add("fewer than 3 forks for " + String.join(", ", fewForks)
                    + ": the error does not cover JVM-to-JVM variance; run with -f 3 or more");
        }
        List<String> noError = results.stream()
                .filter(r -> Double.isNaN(r.error()))
                .map(r -> r.shortName())
                .distinct()
                .toList();
        if (!noError.isEmpty()) {
            notes.add("no error estimate for " + String.join(", ", noError)
                    + " (JMH needs at least 3 measurement iterations)");
        }
        return List.copyOf(notes);
    }
}
