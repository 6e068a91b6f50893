package dev.loomscope.analyzer.threads;

import dev.loomscope.analyzer.threads.ThreadDump.DumpThread;
import dev.loomscope.analyzer.threads.ThreadDump.Monitor;
import dev.loomscope.options.BadDataException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The JDK's plain-text thread dump ({@code jcmd PID Thread.dump_to_file FILE}, JDK 21+), read into the same
 * {@link ThreadDump} as the JSON one: what the agent and {@code attach threads} write when the JDK's JSON dump fails
 * (JDK 21-25 cannot write a thread name with a control character as JSON). JDK 21-24 write a thread's id, name and
 * frames; JDK 25 its state and locks too. The text names no thread containers and no carriers: every thread is in one
 * container, {@code <text dump>}.
 */
final class ThreadDumpText {
    /** {@code #23 "name" virtual RUNNABLE 2026-...}: the name may hold anything but a line break. */
    private static final Pattern HEADER = Pattern.compile("^#(\\d{1,18}) \"(.*)\"( virtual)?(?: ([A-Z_]+) (\\S+))?$");

    private static final Pattern LOCK =
            Pattern.compile("^\\s+- (locked|waiting to lock|waiting on|parking to wait for) <(.+?)>.*$");
    static final String CONTAINER = "<text dump>";

    private ThreadDumpText() {}

    static ThreadDump read(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new BadDataException(file + ": cannot read: " + e.getMessage() + " (check the path and permissions)");
        }
        if (lines.size() < 3 || !lines.get(0).strip().matches("\\d{1,19}")) {
            throw new BadDataException(file
                    + ": not a thread dump, JSON or plain text (give jcmd PID Thread.dump_to_file [-format=json]"
                    + " FILE)");
        }
        List<DumpThread> threads = new ArrayList<>();
        boolean hasState = false;
        Matcher h = null;
        List<String> stack = new ArrayList<>();
        List<Monitor> monitors = new ArrayList<>();
        String[] locks = new String[3]; // blocked on, waiting on, park blocker
        for (int i = 3; i <= lines.size(); i++) {
            String line = i < lines.size() ? lines.get(i) : "";
            Matcher next = HEADER.matcher(line);
            if (next.matches() || i == lines.size()) {
                if (h != null) {
                    threads.add(thread(h, stack, monitors, locks));
                    hasState |= h.group(4) != null;
                }
                h = next.matches() ? next : null;
                stack = new ArrayList<>();
                monitors = new ArrayList<>();
                locks = new String[3];
                continue;
            }
            if (h == null || line.isBlank()) {
                continue;
            }
            Matcher lock = LOCK.matcher(line);
            if (lock.matches()) {
                switch (lock.group(1)) {
                    case "locked" -> monitors.add(new Monitor(Math.max(0, stack.size() - 1), lock.group(2)));
                    case "waiting to lock" -> locks[0] = lock.group(2);
                    case "waiting on" -> locks[1] = lock.group(2);
                    default -> locks[2] = lock.group(2);
                }
            } else if (line.startsWith("    ")) {
                String frame = line.strip();
                stack.add(frame.startsWith("at ") ? frame.substring(3) : frame);
            }
        }
        if (hasState) {
            threads.replaceAll(t -> t.virtual() != null
                    ? t
                    : new DumpThread(
                            t.tid(),
                            t.name(),
                            t.container(),
                            false,
                            t.state(),
                            null,
                            t.blockedOn(),
                            t.waitingOn(),
                            t.parkBlocker(),
                            null,
                            t.monitors(),
                            t.stack()));
        }
        Instant time;
        try {
            time = Instant.parse(lines.get(1).strip());
        } catch (RuntimeException e) {
            time = null;
        }
        return new ThreadDump(
                file.toString(),
                lines.get(0).strip(),
                time,
                lines.get(2).strip(),
                List.of(new ThreadDump.Container(CONTAINER, null, threads.size())),
                List.copyOf(threads),
                hasState,
                false);
    }

    private static DumpThread thread(Matcher h, List<String> stack, List<Monitor> monitors, String[] locks) {
        boolean marked = h.group(3) != null;
        Boolean virtual = marked
                ? Boolean.TRUE
                : h.group(4) != null
                        ? null
                        : stack.isEmpty()
                                ? (h.group(2).isEmpty() ? Boolean.TRUE : null)
                                : Boolean.valueOf(DumpFrames.methodOf(stack.get(stack.size() - 1))
                                        .equals("java.lang.VirtualThread.run"));
        return new DumpThread(
                Long.parseLong(h.group(1)),
                h.group(2),
                CONTAINER,
                virtual,
                h.group(4),
                null,
                locks[0],
                locks[1],
                locks[2],
                null,
                List.copyOf(monitors),
                List.copyOf(stack));
    }
}
