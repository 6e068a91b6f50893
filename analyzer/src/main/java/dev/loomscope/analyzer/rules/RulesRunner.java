package dev.loomscope.analyzer.rules;

import dev.loomscope.analyzer.read.JmcReader;
import dev.loomscope.analyzer.read.RecordingReader;
import dev.loomscope.analyzer.reduce.Analysis;
import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.options.BadDataException;
import dev.loomscope.recording.DamagedRecordingException;
import dev.loomscope.recording.RecordingFile;
import dev.loomscope.recording.RecordingParts;
import dev.loomscope.recording.RecordingSource;
import dev.loomscope.recording.Said;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.MissingResourceException;
import java.util.ResourceBundle;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.openjdk.jmc.common.item.IItemCollection;
import org.openjdk.jmc.common.util.IPreferenceValueProvider;
import org.openjdk.jmc.flightrecorder.CouldNotLoadRecordingException;
import org.openjdk.jmc.flightrecorder.rules.IResult;
import org.openjdk.jmc.flightrecorder.rules.IRule;
import org.openjdk.jmc.flightrecorder.rules.ResultToolkit;
import org.openjdk.jmc.flightrecorder.rules.RuleRegistry;
import org.openjdk.jmc.flightrecorder.rules.Severity;
import org.openjdk.jmc.flightrecorder.rules.util.RulesToolkit;

/**
 * Runs JDK Mission Control's automated analysis headless on one recording: every rule of flightrecorder.rules.jdk the
 * JMC rule registry finds, evaluated in parallel with their default preferences on JMC's parser (which holds the
 * recording's events in memory, as JMC does), and loomscope's own rules on loomscope's reader.
 */
public final class RulesRunner {
    private RulesRunner() {}

    /** One rule's verdict on one recording. */
    public record Finding(
            String recording,
            Severity severity,
            String ruleId,
            String rule,
            String topic,
            String summary,
            String explanation,
            String solution) {
        /** 0 for the most severe: WARNING, INFO, OK, then not applicable and ignored. */
        int rank() {
            return switch (severity) {
                case WARNING -> 0;
                case INFO -> 1;
                case OK -> 2;
                case NA -> 3;
                case IGNORE -> 4;
            };
        }
    }

    /**
     * How long JMC's parser and rules may take on a recording: 8 s, and a second more per 2 MB (a few seconds for a
     * file of a few MB; JMC parses some 20-50 MB a second here). A damaged value the structure check cannot see (a
     * clock in a chunk header, say) can keep them going without end; past this the command says so in one line.
     */
    static long deadlineSeconds(RecordingSource source) {
        long bytes = 0;
        for (Path p : source.parts()) {
            try {
                bytes += Files.size(p);
            } catch (IOException ignored) {
                // the reader names a file it cannot read
            }
        }
        return 8 + bytes / 2_000_000;
    }

    /**
     * Every rule on one recording: loomscope's own on loomscope's reader's pass (memory bounded as for every other
     * command), JMC's on JMC's parser. When JMC's parser cannot hold the recording in the heap, or runs past
     * {@link #deadlineSeconds}, its rules are skipped with a warning that says so and why, and loomscope's findings
     * stand. The rules' thresholds and preferences come from {@code settings} ({@link RuleSettings}, or JMC's
     * defaults).
     */
    public static List<Finding> run(
            RecordingSource source, IPreferenceValueProvider settings, Consumer<String> warnings) {
        RecordingFacts facts = RecordingFacts.of(source);
        facts.warnings.forEach(warnings);
        List<Finding> findings = new ArrayList<>();
        for (LoomscopeRule rule : LoomscopeRule.all()) {
            LoomscopeRule.Verdict v = rule.judge(facts, settings);
            findings.add(new Finding(
                    source.shortName(),
                    v.severity(),
                    rule.getId(),
                    rule.getName(),
                    rule.getTopic(),
                    v.summary(),
                    v.explanation(),
                    v.solution()));
        }
        List<IRule> jmcRules = RuleRegistry.getRules().stream()
                .filter(r -> !(r instanceof LoomscopeRule))
                .toList();
        findings.addAll(jmc(source, jmcRules, settings, warnings));
        findings.sort(Comparator.comparingInt(Finding::rank)
                .thenComparing(Finding::topic, Comparator.nullsLast(Comparator.naturalOrder()))
                .thenComparing(Finding::rule));
        return findings;
    }

    /**
     * JMC's {@code rules} on its parser, within {@link #deadlineSeconds}; none (and a warning saying why) when it
     * cannot finish.
     */
    private static List<Finding> jmc(
            RecordingSource source, List<IRule> rules, IPreferenceValueProvider settings, Consumer<String> warnings) {
        long limit = deadlineSeconds(source);
        // daemon: a run of JMC's rules that never ends must not keep the JVM from exiting
        ExecutorService one = Executors.newSingleThreadExecutor(
                Thread.ofPlatform().name("loomscope-rules").daemon().factory());
        try {
            return one.submit(() -> jmcNow(source, rules, settings, warnings)).get(limit, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            warnings.accept(source.name().toAbsolutePath() + ": JMC's " + rules.size()
                    + " rules were skipped: its parser and rules did not finish in " + limit
                    + " s on this recording, which loomscope's reader finds sound (report it with the file)");
            return List.of();
        } catch (ExecutionException e) {
            throw Analysis.thrown(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while rules ran", e);
        } finally {
            one.shutdownNow();
        }
    }

    private static List<Finding> jmcNow(
            RecordingSource source, List<IRule> rules, IPreferenceValueProvider settings, Consumer<String> warnings) {
        IItemCollection items = RecordingReader.withReadableParts(source, warnings, readable -> {
            if (readable.olderFormat() != null) {
                return load(source, source.parts()); // format 0.x: JMC's parser reads the files as they are
            }
            // loomscope's reader walks the structure first (and counts the events): damage is one line with its offset,
            // before JMC's parser, which holds what it reads in memory, could run long or out of memory on it
            Map<String, Long> counts = new HashMap<>();
            for (RecordingParts.Part part : readable.parts()) {
                RecordingFile.Walked walked;
                try {
                    walked = RecordingFile.check(part.readable());
                } catch (DamagedRecordingException damage) {
                    // loomscope's reader read the events (run() read them first); what JMC's parser needs of the
                    // constant pools is not
                    // there (Datadog's stripped recordings, which the JDK's parser does not read either): its rules are
                    // skipped, said
                    warnings.accept(RecordingReader.damaged(part.original(), damage)
                                    .getMessage()
                                    .replaceFirst(" \\(the recording is damaged\\)$", "")
                            + ": JMC's " + rules.size()
                            + " rules skipped, its parser would not read this file; loomscope's rules stand");
                    return null;
                }
                walked.counts().forEach((t, n) -> counts.merge(t, n, Long::sum));
            }
            Set<String> dropped = bulkNoRuleNeeds(counts, requiredEvents(rules));
            if (!dropped.isEmpty()) {
                warnings.accept(source.name().toAbsolutePath()
                        + ": not loaded for JMC's rules, which hold every event in memory: "
                        + dropped.stream()
                                .map(t -> t + " (" + String.format(Locale.ROOT, "%,d", counts.get(t)) + ")")
                                .sorted()
                                .collect(Collectors.joining(", "))
                        + ", which no rule declares it reads");
            }
            Set<String> kept = new HashSet<>(counts.keySet());
            kept.removeAll(dropped);
            try {
                return JmcReader.load(readable.paths(), dropped.isEmpty() ? null : kept);
            } catch (OutOfMemoryError e) {
                long events =
                        counts.values().stream().mapToLong(Long::longValue).sum();
                warnings.accept(source.name().toAbsolutePath() + ": JMC's " + rules.size()
                        + " rules were skipped: its parser, which holds every event and constant of a recording in"
                        + " memory, ran out of the "
                        + Runtime.getRuntime().maxMemory() / (1 << 20)
                        + " MB heap on this one (" + String.format(Locale.ROOT, "%,d", events)
                        + " events; give it more to run them: LOOMSCOPE_JAVA_OPTS=-Xmx4g)");
                return null;
            } catch (IOException
                    | CouldNotLoadRecordingException
                    | RuntimeException
                    | InternalError
                    | StackOverflowError e) {
                throw RecordingReader.damaged(readable.parts(), e);
            }
        });
        if (items == null) {
            return List.of();
        }
        Map<IRule, Future<IResult>> futures = RulesToolkit.evaluateParallel(
                rules, items, settings, Math.max(1, Runtime.getRuntime().availableProcessors()));
        List<Finding> findings = new ArrayList<>();
        for (Map.Entry<IRule, Future<IResult>> e : futures.entrySet()) {
            IRule rule = e.getKey();
            IResult r;
            try {
                r = e.getValue().get();
            } catch (ExecutionException ex) {
                findings.add(new Finding(
                        source.shortName(),
                        Severity.NA,
                        rule.getId(),
                        rule.getName(),
                        rule.getTopic(),
                        "the rule failed: " + ex.getCause(),
                        null,
                        null));
                continue;
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while rules ran", ex);
            }
            findings.add(new Finding(
                    source.shortName(),
                    r.getSeverity(),
                    rule.getId(),
                    rule.getName(),
                    rule.getTopic(),
                    message(r, r.getSummary()),
                    message(r, r.getExplanation()),
                    message(r, r.getSolution())));
        }
        return findings;
    }

    /** More events of one type than this, of a type no rule declares, are not handed to JMC's parser. */
    static final long BULK = 100_000;

    /**
     * The types JMC's parser need not hold: numerous ({@link #BULK} and more) and declared by no rule. Rules read some
     * types they do not declare, so everything else is kept and a normal recording gives every rule all its events.
     */
    static Set<String> bulkNoRuleNeeds(Map<String, Long> counts, Set<String> required) {
        Set<String> out = new TreeSet<>();
        counts.forEach((type, n) -> {
            if (n >= BULK && !required.contains(type)) {
                out.add(type);
            }
        });
        return out;
    }

    /** The event types the rules say they read. */
    static Set<String> requiredEvents(Collection<IRule> rules) {
        Set<String> types = new HashSet<>();
        for (IRule rule : rules) {
            types.addAll(rule.getRequiredEvents().keySet());
        }
        return types;
    }

    private static IItemCollection load(RecordingSource source, List<Path> parts) {
        try {
            return JmcReader.load(parts);
        } catch (IOException | CouldNotLoadRecordingException | RuntimeException e) {
            throw new BadDataException(
                    source.name().toAbsolutePath() + ": JMC's parser cannot read it: " + Said.by(e)
                            + " (the recording is damaged or in a format JMC does not know)",
                    e);
        }
    }

    /** A result's text with its {placeholders} filled in, as plain text. */
    static String message(IResult r, String template) {
        if (template == null) {
            return null;
        }
        template = translated(template);
        String filled;
        try {
            filled = ResultToolkit.populateMessage(r, template, false);
        } catch (RuntimeException e) {
            filled = template;
        }
        return text(filled);
    }

    /** JMC's rules' messages, by key. */
    private static final ResourceBundle JMC_RULE_TEXTS =
            bundle("org.openjdk.jmc.flightrecorder.rules.jdk.messages.internal.messages");

    private static ResourceBundle bundle(String name) {
        try {
            return ResourceBundle.getBundle(name, Locale.ROOT);
        } catch (MissingResourceException e) {
            return null;
        }
    }

    /**
     * A rule's text that is one of JMC's message keys ({@code PID1Rule_TEXT_OK}: a rule of JMC 9.1 returns the key, not
     * its text) as the text the key names; any other text as it is.
     */
    static String translated(String text) {
        if (JMC_RULE_TEXTS != null && text.matches("[A-Za-z0-9]+_[A-Z0-9_]+") && JMC_RULE_TEXTS.containsKey(text)) {
            return JMC_RULE_TEXTS.getString(text);
        }
        return text;
    }

    /** JMC's texts carry a little HTML: plain text for terminals and CSV. */
    static String text(String s) {
        if (s == null) {
            return null;
        }
        String t = s.replaceAll("(?i)<br\\s*/?>|</p>|</li>", " ")
                .replaceAll("<[^>]+>", "")
                .replace("&nbsp;", " ")
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&quot;", "\"")
                .replace("&#39;", "'")
                .replace("&amp;", "&")
                .replace("''", "'");
        t = t.replaceAll("\\s+", " ").strip();
        return t.isEmpty() ? null : t;
    }
}
