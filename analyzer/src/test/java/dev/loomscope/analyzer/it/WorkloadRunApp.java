package dev.loomscope.analyzer.it;

import java.util.ArrayList;
import java.util.List;
import jdk.jfr.Event;
import jdk.jfr.Name;

/**
 * A third-party app that reports its runs as {@code loomscope.WorkloadRun} events of its own, as the event schema
 * allows: with only the required fields ({@code minimal}), or with those and fields loomscope does not know
 * ({@code extra}); or, breaking the schema, without the required {@code units} ({@code broken}). Each run starts 200
 * threads of the given kind that sleep 5 ms; arguments: threadKind, minimal|extra|broken.
 */
public final class WorkloadRunApp {
    /** Only what the schema requires, and the event's duration. */
    @Name("loomscope.WorkloadRun")
    static final class MinimalRun extends Event {
        String workload;
        String threadKind;
        int runIndex;
        boolean warmup;
        long units;
    }

    /** The required fields and fields of the app's own. */
    @Name("loomscope.WorkloadRun")
    static final class ExtendedRun extends Event {
        String workload;
        String threadKind;
        int runIndex;
        boolean warmup;
        long units;
        String region;
        int retries;
        double p50LatencyMs;
    }

    /** A required field missing. */
    @Name("loomscope.WorkloadRun")
    static final class BrokenRun extends Event {
        String workload;
        String threadKind;
        int runIndex;
        boolean warmup;
    }

    public static void main(String[] args) throws Exception {
        String kind = args[0];
        boolean extra = args[1].equals("extra");
        for (int run = -1; run < 6; run++) {
            Event e;
            if (args[1].equals("broken")) {
                BrokenRun b = new BrokenRun();
                b.begin();
                work(kind);
                b.end();
                b.workload = "app";
                b.threadKind = kind;
                b.runIndex = Math.max(run, 0);
                b.warmup = run < 0;
                e = b;
            } else if (extra) {
                ExtendedRun x = new ExtendedRun();
                x.begin();
                work(kind);
                x.end();
                x.workload = "app";
                x.threadKind = kind;
                x.runIndex = Math.max(run, 0);
                x.warmup = run < 0;
                x.units = 200;
                x.region = "eu-1";
                x.retries = 2;
                x.p50LatencyMs = 5.2;
                e = x;
            } else {
                MinimalRun m = new MinimalRun();
                m.begin();
                work(kind);
                m.end();
                m.workload = "app";
                m.threadKind = kind;
                m.runIndex = Math.max(run, 0);
                m.warmup = run < 0;
                m.units = 200;
                e = m;
            }
            e.commit();
        }
    }

    static void work(String kind) throws InterruptedException {
        Thread.Builder builder = kind.equals("virtual") ? Thread.ofVirtual() : Thread.ofPlatform();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            threads.add(builder.start(() -> {
                try {
                    Thread.sleep(5);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                }
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
    }
}
