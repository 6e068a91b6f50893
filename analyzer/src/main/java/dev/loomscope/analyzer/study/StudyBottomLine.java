package dev.loomscope.analyzer.study;

import dev.loomscope.analyzer.compare.BottomLine;
import dev.loomscope.analyzer.compare.Comparer;
import dev.loomscope.analyzer.compare.MetricResult;
import dev.loomscope.analyzer.stats.Verdict;
import dev.loomscope.analyzer.views.LibraryHazard;
import dev.loomscope.options.Numbers;
import java.util.ArrayList;
import java.util.List;

/**
 * A service study's one bottom line, under each URL's and rate's own: which kind to run, at which capacity where an
 * objective was searched, why, and what to do next. It is built from the typed verdicts of each URL and rate
 * ({@link Section}) and of each URL's capacity ({@link Capacity.Url}), never from their words. Virtual threads are
 * worse where any headline, capacity or the stalls say so by the study's rule; better where one says so and none worse;
 * the same kind either way where every judged figure found no meaningful difference; otherwise the JVMs did not decide.
 */
final class StudyBottomLine {
    /** What begins it, in the terminal after every verdict and first in the report. */
    static final String MARK = BottomLine.MARK + "the study: ";

    private StudyBottomLine() {}

    /**
     * One URL and rate: its bottom line (null when no headline was compared, or a drain left it without one), the drain
     * in words (null when none drained), its stalls' result (null when not compared) and the ceiling pins put on the
     * carriers (null without pins to speak of).
     */
    record Section(
            String workload, BottomLine.Line line, String drains, MetricResult stalls, ServiceCause.Ceiling ceiling) {
        Verdict stallVerdict() {
            return stalls == null || !stalls.comparisons().containsKey("virtual") ? null : stalls.verdict("virtual");
        }
    }

    /** Which kind the measured figures say to run. */
    enum Choice {
        PLATFORM("stay on platform threads"),
        VIRTUAL("virtual threads"),
        EITHER("either kind"),
        UNDECIDED("not decided"),
        NONE("no bottom line");

        final String words;

        Choice(String words) {
            this.words = words;
        }
    }

    /**
     * What the line says: the choice, the figures it rests on, the cause (null when none measured) and the next step.
     */
    record Said(Choice choice, List<String> evidence, String cause, String next) {
        String text() {
            StringBuilder b = new StringBuilder(MARK).append(choice.words);
            if (!evidence.isEmpty()) {
                b.append(": ")
                        .append(
                                evidence.size() <= 2
                                        ? String.join("; ", evidence)
                                        : String.join("; ", evidence.subList(0, 2)) + "; and " + (evidence.size() - 2)
                                                + " more above");
            }
            if (cause != null) {
                b.append("; because ").append(cause);
            }
            return b.append("; next: ").append(next).toString();
        }
    }

    /**
     * The line for a study of {@code forks} recorded JVMs a kind ({@code fewest} the fewest with which the rule can
     * decide), the virtual ones on JDK {@code jdkFeature} (0 unknown), with the known hazards of what the service
     * loaded.
     */
    static Said of(
            List<Section> sections,
            List<Capacity.Url> capacities,
            List<LibraryHazard.Found> hazards,
            StallHolds holds,
            int jdkFeature,
            int forks,
            int fewest) {
        List<String> worse = new ArrayList<>();
        List<String> better = new ArrayList<>();
        List<String> undecided = new ArrayList<>();
        boolean allSame = true;
        for (Capacity.Url u : capacities) {
            if (u.verdict() != null) {
                String words =
                        u.brief() + " (" + Comparer.percent(u.comparison().ratio()) + ", "
                                + u.verdict().words() + ")";
                (u.verdict() == Verdict.WORSE ? worse : u.verdict() == Verdict.BETTER ? better : undecided).add(words);
                allSame &= u.verdict() == Verdict.NO_MEANINGFUL_DIFFERENCE;
            }
        }
        Section stalled = null;
        for (Section s : sections) {
            BottomLine.Line l = s.line();
            boolean stalls = s.stallVerdict() == Verdict.WORSE;
            if (l == null && !stalls) {
                continue;
            }
            String words = s.workload() + ": "
                    + (l == null
                            ? ""
                            : l.headline().name() + " "
                                    + BottomLine.times(l.comparison().ratio()) + " platform's"
                                    + (l.decided() ? "" : " (" + l.verdict().words() + ")") + (stalls ? ", " : ""))
                    + (stalls ? "stalls (requests a second or more late) " + stallsTimes(s.stalls()) : "");
            stalled = stalls && stalled == null ? s : stalled;
            boolean lineWorse = l != null && l.verdict() == Verdict.WORSE;
            (stalls || lineWorse ? worse : l.verdict() == Verdict.BETTER ? better : undecided).add(words);
            allSame &= !stalls && l.verdict() == Verdict.NO_MEANINGFUL_DIFFERENCE;
        }
        if (!worse.isEmpty()) {
            return worse(worse, sections, stalled, hazards, holds, jdkFeature);
        }
        String fixFirst = hazards.isEmpty() ? "" : hazardFix(hazards.get(0)) + ", then ";
        if (!better.isEmpty()) {
            return new Said(
                    Choice.VIRTUAL,
                    better,
                    null,
                    fixFirst + "switch, and keep 'loomscope watch PID' open on the service");
        }
        if (undecided.isEmpty()) {
            List<String> drained = sections.stream()
                    .filter(s -> s.drains() != null)
                    .map(s -> s.workload() + ": " + s.drains())
                    .toList();
            return new Said(
                    Choice.NONE,
                    drained.isEmpty() ? List.of("no URL and rate ran on JVMs of both kinds") : drained,
                    null,
                    drained.isEmpty()
                            ? "see the failed JVMs above"
                            : "give a longer --max-warmup, or rates the JVMs keep up with");
        }
        if (allSame) {
            return new Said(
                    Choice.EITHER,
                    undecided,
                    null,
                    fixFirst
                            + (capacities.stream().anyMatch(u -> u.verdict() != null)
                                    ? "choose on other grounds"
                                    : "give --slo p99=<ms> with several rates to compare what each kind sustains"));
        }
        // a ceiling is arithmetic on what the recordings hold, not a verdict: said even where the JVMs were too few to
        // decide
        ServiceCause.Ceiling pins = limiting(sections);
        String more = forks < fewest
                ? "run " + fewest + " or more JVMs a kind (--forks " + fewest + "): " + forks
                        + " cannot reach the rule's confidence"
                : "run more JVMs a kind (--forks " + 2 * forks + ") or longer windows (--windows)";
        return new Said(Choice.UNDECIDED, undecided, pins == null ? null : "a request: " + pins.words(), more);
    }

    /** Virtual threads worse somewhere: the cause the recordings measured, and the step it calls for. */
    private static Said worse(
            List<String> worse,
            List<Section> sections,
            Section stalled,
            List<LibraryHazard.Found> hazards,
            StallHolds holds,
            int jdkFeature) {
        ServiceCause.Ceiling pins = limiting(sections);
        BottomLine.Line pinned = sections.stream()
                .map(Section::line)
                .filter(l -> l != null && l.verdict() == Verdict.WORSE && l.pinned())
                .findFirst()
                .orElse(null);
        if (pins != null || pinned != null) {
            String cause = "a request: " + (pins != null ? pins.words() : String.join(", ", pinned.causeWords()));
            return new Said(
                    Choice.PLATFORM,
                    worse,
                    cause,
                    "find the pinned frames with 'loomscope pinning' on the virtual JVMs' recordings and take the"
                            + " blocking call out of synchronized"
                            + (jdkFeature >= 24
                                    ? ""
                                    : ", or run on JDK 24+, where synchronized no longer pins (JEP 491)"));
        }
        String held = holds == null ? null : holds.brief();
        if (stalled != null && held != null) {
            // measured: where the carriers were held in the agent's dumps at the stalls; a known hazard only when it is
            // that frame
            LibraryHazard.Found known = hazards.stream()
                    .filter(h -> h.heldAt(holds.frame()))
                    .findFirst()
                    .orElse(null);
            return new Said(
                    Choice.PLATFORM,
                    worse,
                    "the stalls: " + held + (known == null ? "" : ", " + known.brief()),
                    known != null
                            ? hazardFix(known) + ", then study again"
                            : "read the stall dumps beside the virtual JVMs' recordings with 'loomscope threads', and"
                                    + " move what waits at "
                                    + holds.frame() + " off the carrier");
        }
        if (stalled != null && !hazards.isEmpty()) {
            return new Said(
                    Choice.PLATFORM,
                    worse,
                    "the stalls, most likely: " + hazards.get(0).brief(),
                    hazardFix(hazards.get(0)) + ", then study again");
        }
        BottomLine.Line measured = sections.stream()
                .map(Section::line)
                .filter(l ->
                        l != null && l.verdict() == Verdict.WORSE && !l.causes().isEmpty())
                .findFirst()
                .orElse(null);
        String cause = measured == null ? null : "a request: " + String.join(", ", measured.causeWords());
        String where = measured != null
                ? measured.workload()
                : sections.stream()
                        .filter(s -> s.line() != null)
                        .map(Section::workload)
                        .findFirst()
                        .orElse("each URL");
        return new Said(
                Choice.PLATFORM,
                worse,
                cause,
                (hazards.isEmpty() ? "" : hazardFix(hazards.get(0)) + "; ") + "read " + where + "'s verdict lines and"
                        + " 'loomscope compare' on the recordings for what else moved");
    }

    /** The first ceiling pins put below the rate offered, or null. */
    private static ServiceCause.Ceiling limiting(List<Section> sections) {
        return sections.stream()
                .map(Section::ceiling)
                .filter(c -> c != null && c.limits())
                .findFirst()
                .orElse(null);
    }

    private static String hazardFix(LibraryHazard.Found h) {
        return "take " + h.fix();
    }

    /**
     * The stalls' ratio, virtual against platform ({@code 3.2x platform's}); the mean a 1,000 requests where platform's
     * JVMs had none.
     */
    private static String stallsTimes(MetricResult r) {
        double ratio = r.comparisons().get("virtual").ratio();
        return Double.isInfinite(ratio)
                ? Numbers.plain(r.boxplots().get("virtual").mean()) + " a 1,000 requests, none on platform"
                : BottomLine.times(ratio) + " platform's";
    }
}
