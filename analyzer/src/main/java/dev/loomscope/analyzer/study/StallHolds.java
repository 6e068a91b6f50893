package dev.loomscope.analyzer.study;

import dev.loomscope.analyzer.threads.DumpFrames;
import dev.loomscope.analyzer.threads.ThreadAnalysis;
import dev.loomscope.analyzer.threads.ThreadDump;
import dev.loomscope.options.BadDataException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What held the carriers while virtual JVMs stalled, measured from the thread dumps the agent takes at each stall (two
 * a stall, a second apart, beside the recording: {@code NAME-stall-Na.threads.json} and {@code -Nb}), each pair read as
 * {@code loomscope threads} reads it: the frame most of the virtual threads that held a carrier and could not go on
 * were at, over every stall (a JDK 21-24 dump does not say which carrier runs which virtual thread: every one its stack
 * shows mounted and that did not move between the two dumps counts).
 *
 * @param stalls stalls whose two dumps were read
 * @param starved of them, those in which every carrier was held (carrier starvation), or every carrier busy and some
 *     held where the dump cannot tell more (JDK 21-24)
 * @param frame where most of the virtual threads holding a carrier were ({@code Thread.yield via ConcurrentBag.requite
 *     (ConcurrentBag.java:199)}), or null when none held one
 * @param atFrame virtual threads holding a carrier at {@code frame}, over those stalls
 * @param held virtual threads holding a carrier, over those stalls
 */
record StallHolds(int stalls, int starved, String frame, int atFrame, int held) {
    private static final Pattern FIRST = Pattern.compile("(.*-stall-\\d+)a\\.threads\\.(json|txt)");

    /** The stalls dumped in {@code dirs} (each virtual JVM's directory); null when the agent dumped none. */
    static StallHolds of(List<Path> dirs) {
        int stalls = 0;
        int starved = 0;
        Map<String, Integer> frames = new TreeMap<>();
        for (Path dir : dirs) {
            for (Path[] pair : pairs(dir)) {
                ThreadAnalysis.Starvation s;
                try {
                    s = ThreadAnalysis.of(ThreadDump.read(pair[1]), ThreadDump.read(pair[0]))
                            .starvation();
                } catch (BadDataException unreadable) {
                    continue; // a dump the JVM did not finish (it was stopped while writing): the others tell
                }
                stalls++;
                if (s.found() || s.possible() && !s.held().isEmpty()) {
                    starved++;
                    s.held()
                            .forEach(h ->
                                    frames.merge(DumpFrames.describe(h.thread().stack()), 1, Integer::sum));
                }
            }
        }
        if (stalls == 0) {
            return null;
        }
        Map.Entry<String, Integer> most =
                frames.entrySet().stream().max(Map.Entry.comparingByValue()).orElse(null);
        return new StallHolds(
                stalls,
                starved,
                most == null ? null : most.getKey(),
                most == null ? 0 : most.getValue(),
                frames.values().stream().mapToInt(Integer::intValue).sum());
    }

    /** The stalls' first and second dumps in {@code dir}; none when it cannot be listed. */
    private static List<Path[]> pairs(Path dir) {
        List<Path[]> pairs = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path a : files.sorted().toList()) {
                Matcher m = FIRST.matcher(a.getFileName().toString());
                Path b = m.matches() ? dir.resolve(m.group(1) + "b.threads." + m.group(2)) : null;
                if (b != null && Files.isRegularFile(b)) {
                    pairs.add(new Path[] {a, b});
                }
            }
        } catch (IOException gone) {
            // no directory: no dumps
        }
        return pairs;
    }

    /**
     * In a few words: {@code the carriers held at Thread.yield via ConcurrentBag.requite (ConcurrentBag.java:199) (53
     * of 54 virtual threads holding one, in 2 of 2 stalls the agent dumped)}; null when no stall held its carriers.
     */
    String brief() {
        return frame == null
                ? null
                : "the carriers held at " + frame + " (" + atFrame + " of " + held + " virtual threads holding one, in "
                        + starved + " of " + stalls + " stalls the agent dumped)";
    }
}
