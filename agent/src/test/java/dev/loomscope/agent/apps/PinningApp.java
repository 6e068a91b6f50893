package dev.loomscope.agent.apps;

import dev.loomscope.options.AgentOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.management.MBeanServerFactory;
import javax.management.ObjectName;
import jdk.jfr.FlightRecorder;
import jdk.jfr.Recording;

/**
 * Fixture app for the agent tests: pins virtual threads (blocking in class initializers on every JDK; in synchronized
 * too, which pins on JDK 21-23), sleeps, allocates and runs GCs, then exits the way the first argument says: normal,
 * exit3 (System.exit(3)), wait (until killed), linger (waits for a file named stop in its directory, at most 60 s, then
 * System.exit(7)), noerr (System.setErr(null)), oom. Or instead: platform (platform threads only, no virtual thread at
 * all), quick (one pin, then exits at once), late (a new JFR chunk begins, then 3.5 s later one pin and the end),
 * at-once (prints the agent's state and ends at once), jfr-stops (allocates {@code BURST_MIB} and stops the recording
 * through JFR's API at once). Except at-once, first waits until the agent's recording runs. Prints the agent's threads'
 * names before it ends.
 */
public final class PinningApp {
    static final long PIN_MILLIS = 30;
    static volatile Object sink;

    static final class Init1 {
        static {
            pause();
        }
    }

    static final class Init2 {
        static {
            pause();
        }
    }

    static final class Init3 {
        static {
            pause();
        }
    }

    static void pause() {
        try {
            Thread.sleep(PIN_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** MiB allocated just before the recording is stopped (jfr-stops). */
    public static final int BURST_MIB = 512;

    /** Distinct pinning stacks of the run many-places. */
    public static final int MANY_PLACES = 60;

    static void pinAtDepth(int depth) {
        if (depth > 0) {
            pinAtDepth(depth - 1);
            return;
        }
        pinInSynchronized();
    }

    /** Platform threads started (and ended) early in the run. */
    public static final int PLATFORM_THREADS = 50;

    static synchronized void pinInSynchronized() {
        pause();
    }

    /**
     * As an application that wants its first moments recorded: waits while the agent's recording starts beside it
     * (startup=background).
     */
    static void awaitRecording() throws InterruptedException {
        while (AgentOptions.STARTING.equals(System.getProperty(AgentOptions.STATE_PROPERTY))) {
            Thread.sleep(5);
        }
    }

    static List<String> agentThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .map(Thread::getName)
                .filter(n -> n.startsWith("loomscope-agent"))
                .sorted()
                .toList();
    }

    public static void main(String[] args) throws Exception {
        String how = args.length > 0 ? args[0] : "normal";
        if (how.equals("at-once")) { // ends before the agent's recording could start
            System.out.println("agent state at main: " + System.getProperty(AgentOptions.STATE_PROPERTY));
            return;
        }
        awaitRecording();
        if (how.equals("late")) {
            try (Recording other = new Recording()) { // starting a recording begins a new chunk
                other.start();
                other.stop();
            }
            Thread.sleep(3500); // platform threads only, then one pin just before the end
            Thread.ofVirtual().start(() -> sink = new Init1()).join();
            // MANY_PLACES virtual threads, each pinning in synchronized (JDK 21-23) at a stack depth of its own
            return;
        }
        if (how.equals("many-places")) {
            List<Thread> many = new ArrayList<>();
            for (int i = 0; i < MANY_PLACES; i++) {
                int depth = i;
                many.add(Thread.ofVirtual().start(() -> pinAtDepth(depth)));
                many.get(many.size() - 1).join();
            }
            return;
        }
        if (how.equals("quick")) {
            Thread.ofVirtual().start(() -> sink = new Init1()).join();
            System.out.println("agent threads: " + agentThreads());
            return;
        }
        List<Thread> threads = new ArrayList<>();
        if (!how.equals("platform")) {
            threads.add(Thread.ofVirtual().start(() -> sink = new Init1()));
            threads.add(Thread.ofVirtual().start(() -> sink = new Init2()));
            threads.add(Thread.ofVirtual().start(() -> sink = new Init3()));
            threads.add(Thread.ofVirtual().start(PinningApp::pinInSynchronized));
        }
        for (int i = 0; i < PLATFORM_THREADS; i++) {
            threads.add(Thread.ofPlatform().start(() -> sink = new byte[16]));
        }
        for (Thread t : threads) {
            t.join();
        }
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 20_000; j++) {
                sink = new byte[1024];
            }
            System.gc();
        }
        long end = System.nanoTime() + 1_200_000_000L; // CPU and sleeps for the profiler and ctxsw
        double x = 0;
        while (System.nanoTime() < end) {
            for (int i = 0; i < 100_000; i++) {
                x += Math.sqrt(i);
            }
            Thread.sleep(1);
        }
        sink = x;
        System.out.println("agent threads: " + agentThreads());
        ObjectName bean = new ObjectName("dev.loomscope:type=Agent");
        System.out.println("agent's bean: "
                + MBeanServerFactory.findMBeanServer(null).stream().anyMatch(s -> s.isRegistered(bean)));
        System.out.println("app done");
        switch (how) {
            case "exit3" -> System.exit(3);
            case "noerr" -> System.setErr(null); // an app that silences stderr its own way
            case "wait" -> {
                System.out.println("waiting");
                Thread.sleep(600_000);
            }
            case "linger" -> {
                System.out.println("lingering");
                Path stop = Path.of("stop");
                for (long until = System.nanoTime() + 60_000_000_000L;
                        !Files.exists(stop) && System.nanoTime() < until; ) {
                    Thread.sleep(100);
                }
                System.exit(7);
            }
            case "oom" -> {
                List<long[]> hog = new ArrayList<>();
                while (true) {
                    hog.add(new long[1 << 20]);
                    // a burst of allocation, then the recording stopped by JFR's API (as JFR's own shutdown hook does)
                    // at
                    // once
                }
            }
            case "jfr-stops" -> {
                for (int i = 0; i < BURST_MIB; i++) {
                    sink = new byte[1 << 20];
                }
                for (Recording r : FlightRecorder.getFlightRecorder().getRecordings()) {
                    r.stop();
                }
            }
            default -> {}
        }
    }
}
