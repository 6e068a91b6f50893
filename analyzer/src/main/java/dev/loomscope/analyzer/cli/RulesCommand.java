package dev.loomscope.analyzer.cli;

import dev.loomscope.analyzer.render.Table;
import dev.loomscope.analyzer.rules.RuleSettings;
import dev.loomscope.analyzer.rules.RulesRunner;
import dev.loomscope.analyzer.rules.RulesView;
import dev.loomscope.recording.RecordingSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.openjdk.jmc.flightrecorder.rules.Severity;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code loomscope rules}: JMC's automated analysis plus loomscope's rules, headless. */
@Command(
        name = "rules",
        mixinStandardHelpOptions = true,
        description = {
            "Runs JDK Mission Control's automated analysis and loomscope's own rules on recordings, headless.",
            "loomscope's rules: virtual thread pinning, submit failures, carrier starvation, the recording's cost per"
                    + " platform thread start. Findings by severity; a rule whose events were not recorded says not"
                    + " applicable and why.",
            "loomscope's rules read the recording as every command does; JMC's parser holds it in memory, and when it"
                    + " cannot (a very large file) JMC's rules are skipped with a warning saying so: give the CLI more"
                    + " heap to run them (LOOMSCOPE_JAVA_OPTS=-Xmx4g)."
        },
        footer = {"", "Exit codes: 0 ok, 1 --fail-on-warning and a rule warned, 2 usage or bad input."})
public final class RulesCommand extends CliCommand {
    @Mixin
    InputArgs in;

    @Mixin
    OutputOptions out;

    @Option(names = "--details", description = "add each finding's explanation and suggested solution")
    boolean details;

    @Option(names = "--fail-on-warning", description = "exit 1 when any rule warns (for CI)")
    boolean failOnWarning;

    @Option(
            names = "--set",
            paramLabel = "NAME=VALUE",
            description =
                    "a rule's threshold (repeatable; e.g. pinning.longest=50ms): loomscope's are below, JMC's rules' by"
                            + " their identifier (--list-settings)")
    List<String> settings = new ArrayList<>();

    @SuppressWarnings("deprecation") // help = true: the option needs no recording, as --help does
    @Option(
            names = "--list-settings",
            help = true,
            description =
                    "list every rule's settings (loomscope's and JMC's), their defaults and the values --set gives, and"
                            + " exit")
    boolean listSettings;

    /** picocli hands the command's model here when it builds it: the help then lists the thresholds. */
    @Spec
    void spec(picocli.CommandLine.Model.CommandSpec spec) {
        this.spec = spec;
        List<String> footer = new ArrayList<>(List.of("", "Thresholds of loomscope's rules (--set NAME=VALUE):"));
        for (var t : RuleSettings.thresholds()) {
            String head = String.format(
                    Locale.ROOT, "  %-19s %-6s ", t.getIdentifier(), RuleSettings.format(t, t.getDefaultValue()));
            StringBuilder line = new StringBuilder(head);
            for (String word : t.getDescription().split(" ")) { // wrapped under the description's first column
                if (line.length() + word.length() > 80) {
                    footer.add(line.toString().stripTrailing());
                    line = new StringBuilder(" ".repeat(head.length()));
                }
                line.append(word).append(' ');
            }
            footer.add(line.toString().stripTrailing());
        }
        footer.replaceAll(l -> l.replace("%", "%%")); // the footer is a format string
        footer.addAll(List.of(spec.usageMessage().footer()));
        spec.usageMessage().footer(footer.toArray(String[]::new));
    }

    @Override
    public Integer call() {
        RuleSettings chosen = RuleSettings.parse(settings);
        if (listSettings) {
            out.emit(List.of(RulesView.settings(chosen)), stdout());
            return Errors.OK;
        }
        List<RulesRunner.Finding> findings = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        for (RecordingSource source : in.sources()) {
            findings.addAll(RulesRunner.run(source, chosen, warnings::add));
        }
        List<Table> tables = new ArrayList<>(RulesView.of(findings, details));
        // what the reader said (each once), and which rules were skipped and why
        ViewCommand.withWarnings(tables, warnings);
        out.emit(tables, stdout());
        boolean warned = findings.stream().anyMatch(f -> f.severity() == Severity.WARNING);
        return failOnWarning && warned ? Errors.CHECK_FAILED : Errors.OK;
    }
}
