package dev.loomscope.analyzer.study;

import dev.loomscope.options.UsageException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What {@code study --app} runs: the user's command on platform and on virtual threads, {@code forks} JVMs a kind under
 * the agent and {@code controls} without it (what the recording costs), one at a time in an order shuffled by
 * {@code seed}, each under the load client's open-loop load. {@code command} is a template: {@code {threads}} becomes
 * platform or virtual, {@code {virtual}} false or true, {@code {port}} a free port. A JVM disturbed by other processes
 * runs again as {@code reruns} says. {@code loadCommand} (null: the load client) is the user's own load, a template
 * too, run to its end against each JVM.
 */
public record AppPlan(
        List<String> command,
        List<String> loadCommand,
        int forks,
        int controls,
        Reruns reruns,
        String work,
        String agentOptions,
        long seed) {

    /** One JVM of the plan: its thread kind, its fork (1-based), and whether it records. */
    public record Job(String kind, int fork, boolean recorded) {
        public String label() {
            return "app-" + kind + "-" + (recorded ? "" : "control-") + fork;
        }
    }

    /**
     * The words of {@code option}'s command line, split at spaces outside quotes ('...' or "..."); a usage error for an
     * unclosed quote or nothing.
     */
    public static List<String> words(String option, String line) {
        List<String> words = new ArrayList<>();
        StringBuilder w = new StringBuilder();
        char quote = 0;
        boolean inWord = false;
        for (char c : line.toCharArray()) {
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    w.append(c);
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
                inWord = true;
            } else if (Character.isWhitespace(c)) {
                if (inWord) {
                    words.add(w.toString());
                    w.setLength(0);
                    inWord = false;
                }
            } else {
                w.append(c);
                inWord = true;
            }
        }
        if (quote != 0) {
            throw new UsageException(option + " " + line + ": a " + quote + " quote is not closed");
        }
        if (inWord) {
            words.add(w.toString());
        }
        if (words.isEmpty()) {
            throw new UsageException(option
                    + ": no command (e.g. --app 'java -jar app.jar --server.port={port}"
                    + " --spring.threads.virtual.enabled={virtual}')");
        }
        return words;
    }

    /** The placeholders a template may hold. */
    public static final List<String> PLACEHOLDERS = List.of("{threads}", "{virtual}", "{port}");

    /**
     * A one-line usage error when {@code text} (an option's value) holds a {@code {word}} that is not one of
     * {@code known}: a typo would reach the service as written.
     */
    public static void knownPlaceholders(String option, String text, List<String> known) {
        Matcher m = Pattern.compile("\\{[A-Za-z_][A-Za-z0-9_-]*\\}").matcher(text);
        while (m.find()) {
            if (!known.contains(m.group())) {
                throw new UsageException(option + " " + text + ": " + m.group() + " is not a placeholder (known: "
                        + String.join(", ", known) + ")");
            }
        }
    }

    /** The command for one JVM: the template's placeholders filled in. */
    public static List<String> filled(List<String> template, String kind, int port) {
        return template.stream()
                .map(w -> w.replace("{threads}", kind)
                        .replace("{virtual}", Boolean.toString(kind.equals("virtual")))
                        .replace("{port}", Integer.toString(port)))
                .toList();
    }

    /**
     * Every JVM in the order they run: shuffled by the seed, so that the machine's drift falls on either kind by
     * chance.
     */
    public List<Job> jobs() {
        List<Job> jobs = new ArrayList<>();
        for (String kind : StudyPlan.KINDS) {
            for (int f = 1; f <= forks; f++) {
                jobs.add(new Job(kind, f, true));
            }
            for (int f = 1; f <= controls; f++) {
                jobs.add(new Job(kind, f, false));
            }
        }
        Collections.shuffle(jobs, new Random(seed));
        return jobs;
    }
}
