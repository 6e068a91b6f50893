package dev.loomscope.analyzer.rules;

import dev.loomscope.analyzer.render.Table;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The findings of {@code loomscope rules} as tables: by severity, most severe first. */
public final class RulesView {
    private RulesView() {}

    public static List<Table> of(List<RulesRunner.Finding> findings, boolean details) {
        boolean many =
                findings.stream().map(RulesRunner.Finding::recording).distinct().count() > 1;
        List<Table.Column> cols = new ArrayList<>();
        if (many) {
            cols.add(Table.text("recording"));
        }
        cols.addAll(List.of(Table.text("severity"), Table.text("rule"), Table.text("topic"), Table.text("finding")));
        if (details) {
            cols.addAll(List.of(Table.text("explanation"), Table.text("solution")));
        }
        Table t = new Table("rules", "Automated analysis (JDK Mission Control's rules and loomscope's)", cols);
        long[] counts = new long[5];
        for (RulesRunner.Finding f : findings) {
            counts[f.rank()]++;
            List<Object> row = new ArrayList<>();
            if (many) {
                row.add(f.recording());
            }
            row.addAll(List.of(
                    label(f), f.rule(), f.topic() == null ? "" : f.topic(), f.summary() == null ? "" : f.summary()));
            if (details) {
                row.add(f.explanation());
                row.add(f.solution());
            }
            t.row(row.toArray());
        }
        t.note(String.format(
                Locale.ROOT,
                "%d warning, %d info, %d ok, %d not applicable (the rule's events were not recorded: the finding says"
                        + " which)",
                counts[0],
                counts[1],
                counts[2],
                counts[3] + counts[4]));
        return List.of(t);
    }

    /** Every rule's settings: identifier, rule, default, what it does; and the value given where --set gave some. */
    public static Table settings(RuleSettings chosen) {
        boolean set = !chosen.set().isEmpty();
        List<Table.Column> cols =
                new ArrayList<>(List.of(Table.text("setting"), Table.text("rule"), Table.text("default")));
        if (set) {
            cols.add(Table.text("value"));
        }
        cols.add(Table.text("description"));
        Table t = new Table("settings", "Rule settings (rules --set NAME=VALUE)", cols);
        for (RuleSettings.Setting s : RuleSettings.all().values()) {
            var p = s.preference();
            List<Object> row =
                    new ArrayList<>(List.of(p.getIdentifier(), s.rule(), RuleSettings.format(p, p.getDefaultValue())));
            if (set) {
                row.add(RuleSettings.format(p, chosen.value(p)));
            }
            row.add(p.getDescription() == null ? p.getName() : p.getDescription());
            t.row(row.toArray());
        }
        return t;
    }

    static String label(RulesRunner.Finding f) {
        return switch (f.severity()) {
            case WARNING -> "warning";
            case INFO -> "info";
            case OK -> "ok";
            case NA -> "not applicable";
            case IGNORE -> "ignored";
        };
    }
}
