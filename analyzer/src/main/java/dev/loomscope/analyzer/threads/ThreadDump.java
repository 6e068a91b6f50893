package dev.loomscope.analyzer.threads;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loomscope.analyzer.read.JsonFile;
import dev.loomscope.options.BadDataException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One JSON thread dump of the JDK ({@code jcmd PID Thread.dump_to_file -format=json FILE}, or
 * HotSpotDiagnosticMXBean.dumpThreads with the JSON format), JDK 21 and later. JDK 21-24 write each thread's id, name
 * and stack, grouped by thread container; JDK 25 adds its state, whether it is virtual, the carrier a mounted virtual
 * thread runs on, the monitor it is blocked on or waits on, its park blocker and the monitors it owns; JDK 26 adds the
 * owner of the park blocker. What a dump does not hold is {@code null} here, never a guess.
 *
 * @param file the file, as given
 * @param processId the process dumped
 * @param time when the dump was taken, or null
 * @param runtimeVersion the JDK's runtime version, e.g. 25.0.3+9-LTS
 * @param containers the thread containers (root, executors, the scheduler's pool), in the dump's order
 * @param threads every thread, in the dump's order
 * @param hasState whether the dump records threads' states and locks (JDK 25+)
 * @param hasParkOwner whether it records the owners of j.u.c locks (JDK 26+)
 */
public record ThreadDump(
        String file,
        String processId,
        Instant time,
        String runtimeVersion,
        List<Container> containers,
        List<DumpThread> threads,
        boolean hasState,
        boolean hasParkOwner) {

    /**
     * A thread container: {@code <root>}, an executor, a ForkJoinPool (the virtual thread scheduler's carriers), a
     * scope.
     */
    public record Container(String name, String parent, int threadCount) {}

    /** A monitor a thread owns, taken in the frame {@code depth} of its stack. */
    public record Monitor(int depth, String lock) {}

    /**
     * One thread of the dump.
     *
     * @param virtual true or false where the dump says so or the stack shows it (a virtual thread's outermost frame is
     *     VirtualThread.run), null where a JDK 21-24 dump cannot tell
     * @param state RUNNABLE, BLOCKED, WAITING, TIMED_WAITING, ... (JDK 25+), else null
     * @param carrier the thread id of the carrier a virtual thread is mounted on (JDK 25+), else null
     * @param blockedOn the monitor it is blocked on entering (JDK 25+)
     * @param waitingOn the monitor it waits on in Object.wait (JDK 25+)
     * @param parkBlocker the object it is parked on (a j.u.c lock's synchronizer, ...; JDK 25+)
     * @param parkOwner the thread id owning that park blocker (JDK 26+)
     */
    public record DumpThread(
            long tid,
            String name,
            String container,
            Boolean virtual,
            String state,
            Long carrier,
            String blockedOn,
            String waitingOn,
            String parkBlocker,
            Long parkOwner,
            List<Monitor> monitors,
            List<String> stack) {

        /** The name as a reader knows it: {@code "left" #23}, or {@code #23} for an unnamed thread. */
        public String label() {
            return (name.isEmpty() ? "" : "\"" + name + "\" ") + "#" + tid;
        }

        /** "virtual", "platform" or "unknown kind". */
        public String kind() {
            return virtual == null ? "unknown kind" : virtual ? "virtual" : "platform";
        }
    }

    private static final String HINT = "give a JSON thread dump: jcmd PID Thread.dump_to_file -format=json FILE";

    /** Reads one dump; a file that is not one is a BadDataException naming it. */
    public static ThreadDump read(Path file) {
        if (!startsLikeJson(file)) {
            return ThreadDumpText.read(file);
        }
        String where = file.toString();
        JsonNode root = JsonFile.read(file, "a JSON thread dump", HINT).path("threadDump");
        if (!root.isObject() || !root.path("threadContainers").isArray()) {
            throw new BadDataException(
                    where + ": not a JSON thread dump (no threadDump.threadContainers; " + HINT + ")");
        }
        List<Container> containers = new ArrayList<>();
        List<DumpThread> threads = new ArrayList<>();
        boolean hasState = false;
        boolean hasParkOwner = false;
        for (JsonNode c : root.get("threadContainers")) {
            String name = c.path("container").asText("?");
            int index = 0;
            for (JsonNode t : c.path("threads")) {
                index++;
                if (!t.path("tid").canConvertToLong()
                        && !t.path("tid").asText("").matches("\\d{1,19}")) {
                    throw new BadDataException(
                            where + ": thread " + index + " of container " + name + " has no thread id (tid); " + HINT);
                }
                hasState |= t.has("state");
                hasParkOwner |= t.path("parkBlocker").has("owner");
                threads.add(thread(name, t));
            }
            containers.add(new Container(
                    name,
                    c.path("parent").isNull() ? null : c.path("parent").asText(null),
                    c.path("threadCount").asInt(c.path("threads").size())));
        }
        // JDK 25 added "virtual" with "state": from then on a thread without it is a platform thread
        if (hasState) {
            threads.replaceAll(t -> t.virtual() != null ? t : withVirtual(t, false));
        }
        return new ThreadDump(
                where,
                root.path("processId").asText("?"),
                instant(root.path("time").asText(null)),
                root.path("runtimeVersion").asText("?"),
                List.copyOf(containers),
                List.copyOf(threads),
                hasState,
                hasParkOwner);
    }

    /**
     * Whether the file's first character other than white space is '{' (or the file cannot be read: the JSON reader
     * says why).
     */
    private static boolean startsLikeJson(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            for (int c = in.read(); c >= 0; c = in.read()) {
                if (!Character.isWhitespace(c)) {
                    return c == '{' || !Character.isDigit(c);
                }
            }
            return true;
        } catch (IOException | RuntimeException e) {
            return true;
        }
    }

    private static DumpThread thread(String container, JsonNode t) {
        List<String> stack = new ArrayList<>();
        t.path("stack").forEach(f -> stack.add(f.asText()));
        List<Monitor> monitors = new ArrayList<>();
        for (JsonNode m : t.path("monitorsOwned")) {
            m.path("locks")
                    .forEach(l -> monitors.add(new Monitor(m.path("depth").asInt(-1), l.asText())));
        }
        String name = t.path("name").asText("");
        Boolean virtual = t.has("virtual") ? Boolean.valueOf(t.get("virtual").asBoolean()) : inferVirtual(name, stack);
        JsonNode blocker = t.path("parkBlocker");
        return new DumpThread(
                t.path("tid").asLong(),
                name,
                container,
                virtual,
                text(t, "state"),
                id(t.path("carrier")),
                text(t, "blockedOn"),
                text(t, "waitingOn"),
                blocker.has("object") ? blocker.get("object").asText() : null,
                id(blocker.path("owner")),
                List.copyOf(monitors),
                List.copyOf(stack));
    }

    /**
     * What a JDK 21-24 dump shows of a thread's kind: a virtual thread's outermost frame is VirtualThread.run; a thread
     * with no frames is virtual when unnamed (a platform thread always has a name) and of unknown kind otherwise.
     */
    private static Boolean inferVirtual(String name, List<String> stack) {
        if (!stack.isEmpty()) {
            return DumpFrames.methodOf(stack.get(stack.size() - 1)).equals("java.lang.VirtualThread.run");
        }
        return name.isEmpty() ? Boolean.TRUE : null;
    }

    private static DumpThread withVirtual(DumpThread t, boolean virtual) {
        return new DumpThread(
                t.tid(),
                t.name(),
                t.container(),
                virtual,
                t.state(),
                t.carrier(),
                t.blockedOn(),
                t.waitingOn(),
                t.parkBlocker(),
                t.parkOwner(),
                t.monitors(),
                t.stack());
    }

    private static String text(JsonNode t, String field) {
        return t.hasNonNull(field) ? t.get(field).asText() : null;
    }

    private static Long id(JsonNode n) {
        if (n.isMissingNode() || n.isNull()) {
            return null;
        }
        String s = n.asText("");
        return s.matches("\\d{1,18}") ? Long.valueOf(s) : null;
    }

    private static Instant instant(String s) {
        try {
            return s == null ? null : Instant.parse(s);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /** The JDK's feature version from the runtime version (25 of 25.0.3+9-LTS), 0 when unknown. */
    public int feature() {
        Matcher m = Pattern.compile("^(\\d+)").matcher(runtimeVersion);
        return m.find() ? Integer.parseInt(m.group(1)) : 0;
    }
}
