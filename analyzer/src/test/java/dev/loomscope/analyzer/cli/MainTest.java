package dev.loomscope.analyzer.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loomscope.analyzer.reduce.ReductionFailedException;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class MainTest {

    record Result(int code, String out, String err) {}

    static Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Result(code, out.toString(), err.toString());
    }

    @Test
    void versionNamesTheJdkItRunsOn() {
        Result r = run("--version");
        assertThat(r.code()).isZero();
        assertThat(r.out())
                .startsWith("loomscope ")
                .contains("JDK " + Runtime.version().feature());
        // answered before a command line is built: what picocli itself prints for it
        StringWriter picocli = new StringWriter();
        Main.full().printVersionHelp(new PrintWriter(picocli, true));
        assertThat(r.out()).isEqualTo(picocli.toString());
        assertThat(run("-V").out()).isEqualTo(picocli.toString());
    }

    @Test
    void everyCommandsVersionIsLoomscopes() {
        for (String command : List.of("study", "load", "watch")) {
            Result r = run(command, "-V");
            assertThat(r.code()).as(command).isZero();
            assertThat(r.out()).as(command).startsWith("loomscope ");
        }
    }

    @Test
    void noCommandsHelpPrintsAWarning() {
        // picocli warns of a description it cannot format on the process's own standard error
        PrintStream before = System.err;
        ByteArrayOutputStream warnings = new ByteArrayOutputStream();
        System.setErr(new PrintStream(warnings, true, StandardCharsets.UTF_8));
        try {
            for (Class<?> c : Main.COMMANDS) {
                String name = c.getAnnotation(picocli.CommandLine.Command.class).name();
                if (!name.equals("help")) {
                    Result r = run(name, "--help");
                    assertThat(r.out() + r.err()).as(name).doesNotContain("[picocli WARN]");
                }
            }
        } finally {
            System.setErr(before);
        }
        assertThat(warnings.toString(StandardCharsets.UTF_8)).doesNotContain("[picocli WARN]");
    }

    @Test
    void attachListSpeaksTheFormatAsked() throws Exception {
        Result r = run("attach", "list", "--format", "json");
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode json = new ObjectMapper().readTree(r.out());
        assertThat(json.get("tables").get(0).get("name").asText()).isEqualTo("jvms");
    }

    @Test
    void theRootsHelpAndATypoAnswerAsTheFullModelsDoWithoutBuildingIt() {
        Result help = run("--help");
        assertThat(help.code()).isZero();
        assertThat(help.out())
                .isEqualTo(Main.full().getUsageMessage())
                .contains("advise")
                .contains("completion");
        Result typo = run("sumary", "rec.jfr");
        assertThat(typo.code()).isEqualTo(2);
        assertThat(typo.err())
                .startsWith("loomscope: Unmatched arguments from index 0: 'sumary', 'rec.jfr'")
                .contains("summary");
        assertThat(run().err()).startsWith("loomscope: Missing required subcommand");
        // help COMMAND needs the command's own model
        assertThat(run("help", "advise").out()).contains("--rate");
    }

    /**
     * A word that names no command is answered without picocli, in picocli's words with picocli's suggestions: the two
     * held equal on typos of every command (a letter dropped, two swapped, one added), on words like none, and on no
     * command at all. The commands checked against are the help's, which the test above holds equal to the registry's.
     */
    @Test
    void eachCommandIsFoundByItsNameWithoutItsAnnotation() {
        for (Class<?> c : Main.COMMANDS) {
            String name = c.getAnnotation(CommandLine.Command.class).name();
            assertThat(Main.named(name)).as(name).isEqualTo(c.equals(CommandLine.HelpCommand.class) ? null : c);
        }
        for (String none : new String[] {"", "Summary", "SUMMARY", "summaryx", "nosuch", "-h"}) {
            assertThat(Main.named(none)).as(none).isNull();
        }
    }

    @Test
    void aTypoIsAnsweredAsPicocliWouldWithoutIt() {
        List<String[]> cases = new ArrayList<>(List.of(
                new String[] {}, new String[] {"xyz"}, new String[] {"q"}, new String[] {"flamegraph", "a.jfr"}));
        for (Class<?> c : Main.COMMANDS) {
            String name = c.getAnnotation(CommandLine.Command.class).name();
            cases.add(new String[] {name.substring(0, name.length() / 2) + name.substring(name.length() / 2 + 1)});
            cases.add(new String[] {
                name.length() < 3 ? name + "x" : name.charAt(1) + "" + name.charAt(0) + name.substring(2), "rec.jfr"
            });
            cases.add(new String[] {name + "s"});
        }
        assertThat(RootAnswers.commands(RootAnswers.help()))
                .containsExactlyElementsOf(Main.COMMANDS.stream()
                        .map(c -> c.getAnnotation(CommandLine.Command.class).name())
                        .toList());
        for (String[] args : cases) {
            StringWriter ours = new StringWriter();
            Integer code = RootAnswers.answer(args, new PrintWriter(new StringWriter()), new PrintWriter(ours, true));
            StringWriter theirs = new StringWriter();
            CommandLine cli = Main.listing();
            cli.setOut(new PrintWriter(new StringWriter()));
            cli.setErr(new PrintWriter(theirs, true));
            cli.setParameterExceptionHandler(new Errors.ParameterHandler());
            int picocli = cli.execute(args);
            assertThat(ours.toString()).as(String.join(" ", args)).isEqualTo(theirs.toString());
            assertThat(code).as(String.join(" ", args)).isEqualTo(picocli).isEqualTo(2);
        }
    }

    @Test
    void unknownOptionIsOneLineAndExitTwo() {
        Result r = run("--no-such-option");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err().strip().lines()).hasSize(1);
        assertThat(r.err()).startsWith("loomscope: Unknown option: '--no-such-option'");
    }

    /**
     * Every duration option says what it takes in the same words, and a value given with = is the option's even when
     * mistyped.
     */
    @Test
    void aDurationThatIsNoneIsOneLineNamingItsOption() {
        for (List<String> args : List.of(
                List.of("pinning", "--fail-on-pinning=20q", "rec.jfr"),
                List.of("watch", "1", "--duration", "soon"),
                List.of("load", "--window", "2x", "http://x/"),
                List.of("attach", "1", "threads", "--interval", "zz"))) {
            Result r = run(args.toArray(String[]::new));
            String value = args.stream()
                    .filter(a -> a.contains("20q") || a.equals("soon") || a.equals("2x") || a.equals("zz"))
                    .findFirst()
                    .orElseThrow();
            assertThat(r.code()).as(args.toString()).isEqualTo(2);
            assertThat(r.err().strip().lines()).as(args.toString()).hasSize(1);
            assertThat(r.err())
                    .as(args.toString())
                    .contains(value.replace("--fail-on-pinning=", "--fail-on-pinning ")
                            + ": not a duration (e.g. 500ms, 2s, 1m)");
        }
        // apart from the option, a word that is no duration is the recording, as it looks
        assertThat(run("pinning", "--fail-on-pinning", "missing.jfr").err())
                .contains("missing.jfr: no such file")
                .doesNotContain("duration");
        assertThat(run("load", "--window", "50ms", "http://x/").err())
                .contains("--window 50ms: must be at least 100 ms");
        assertThat(run("mcp", "--timeout", "0s").err()).contains("--timeout 0s: must be at least 1 ms");
    }

    /** A page's directory named like a file is refused before any work: {@code -o r.html} made a directory r.html. */
    @Test
    void aPageDirectoryNamedLikeAFileIsOneLineBeforeAnyWork(@org.junit.jupiter.api.io.TempDir Path dir)
            throws Exception {
        Result html = run("report", "missing.jfr", "-o", dir.resolve("r.html").toString());
        assertThat(html.code()).isEqualTo(2);
        assertThat(html.err())
                .startsWith("loomscope report: -o " + dir.resolve("r.html")
                        + ": names a directory, where index.html is written"
                        + " beside what it links to; give one without .html (-o " + dir.resolve("r") + ")");
        assertThat(html.err().strip().lines()).hasSize(1);
        assertThat(dir.resolve("r.html")).doesNotExist();
        Path file = Files.writeString(dir.resolve("taken"), "x");
        Result taken = run("jmh", "missing.json", "--html", file.toString());
        assertThat(taken.code()).isEqualTo(2);
        assertThat(taken.err())
                .startsWith(
                        "loomscope jmh: --html " + file + ": a file; give a directory, where index.html is written");
        assertThat(taken.err().strip().lines()).hasSize(1);
    }

    /** A name with a terminal's escape sequence and a line break, echoed in the error: inert, on one line. */
    @Test
    void aControlCharacterInAnArgumentReachesTheTerminalInert() {
        Result path = run("summary", "/tmp/\u001b[31mred\nline.jfr");
        assertThat(path.code()).isEqualTo(2);
        assertThat(path.err())
                .startsWith("loomscope summary: /tmp/\\u001b[31mred\\u000aline.jfr: ")
                .doesNotContain("\u001b");
        assertThat(path.err().strip().lines()).hasSize(1);
        Result url = run("load", "http://x/\u001b[2J");
        assertThat(url.code()).isEqualTo(2);
        assertThat(url.err())
                .startsWith("loomscope load: --url http://x/\\u001b[2J: not a URL")
                .doesNotContain("\u001b");
        Result option = run("--\u001b[2J");
        assertThat(option.code()).isEqualTo(2);
        assertThat(option.err()).contains("\\u001b[2J").doesNotContain("\u001b");
    }

    @Test
    void aReducersFailureIsAnInternalErrorWithExitThree() {
        StringWriter err = new StringWriter();
        var bug = new ReductionFailedException(
                "RunsReducer", Path.of("/data/a.jfr"), new IllegalArgumentException("no field p50LatencyMs"));
        int code = Errors.internal(new PrintWriter(err, true), "loomscope summary", bug, false);
        assertThat(code).isEqualTo(3);
        assertThat(err.toString().strip())
                .isEqualTo("loomscope summary: internal error in RunsReducer on /data/a.jfr: no field p50LatencyMs"
                        + " (please report; --debug shows the trace)");
        assertThat(run("--help").out().replaceAll("\\s+", " "))
                .contains("3 an internal error (a bug: please report it)");
    }

    @Test
    void completionCoversEveryCommandAndItsOptions() {
        Result r = run("completion");
        assertThat(r.code()).isZero();
        assertThat(r.out())
                .contains("complete -F _complete_loomscope")
                .contains("summary")
                .contains("study")
                .contains("--fail-on-pinning")
                .contains("--stack-depth");
    }

    @Test
    void rulesHelpListsTheThresholdsAndSetRejectsUnknownOnes() {
        String help = run("rules", "--help").out();
        assertThat(help)
                .contains("Thresholds of loomscope's rules (--set NAME=VALUE):")
                .contains("pinning.longest     20 ms")
                .contains("starvation.share    25 %")
                .contains("start-cost.notable  1 %")
                .contains("pinning.share       1 %");
        Result list = run("rules", "--list-settings", "--set", "pinning.longest=50ms");
        assertThat(list.code()).isZero();
        assertThat(list.out())
                .containsPattern("pinning.longest +Virtual thread pinning +20 ms +50 ms")
                .contains("gc.pauseratio.warning.limit");
        Result bad = run("rules", "--list-settings", "--set", "pinning.long=50ms");
        assertThat(bad.code()).isEqualTo(2);
        assertThat(bad.err().strip().lines()).hasSize(1);
        assertThat(bad.err())
                .startsWith(
                        "loomscope rules: --set pinning.long=50ms: no rule has the setting pinning.long; did you mean"
                                + " pinning.longest");
    }
}
