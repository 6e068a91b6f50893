package dev.loomscope.analyzer.reduce;

import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import jdk.jfr.consumer.RecordedEvent;

/**
 * What a summary needs besides the other reducers: span, event counts, the run's label and thread
 * kind (loomscope.RunInfo), JVM and GC, threads, CPU load.
 */
public final class SummaryReducer implements Reducer {
    private final Map<String, Long> counts = new TreeMap<>();
    private Instant first;
    private Instant last;
    public String label;
    public String threadKind;
    public String profilingMode;
    public String command;
    public String jvm;
    public String youngCollector;
    public String oldCollector;
    public long peakThreads = -1;
    public long peakActiveThreads = -1;
    public long virtualThreadsStarted;
    public long platformThreadsStarted;
    public final Samples jvmCpu = new Samples();
    public final Samples machineCpu = new Samples();

    @Override
    public Set<String> eventTypes() {
        return null; // every event: they are counted
    }

    @Override
    public void add(RecordedEvent e) {
        String type = e.getEventType().getName();
        counts.merge(type, 1L, Long::sum);
        Instant s = e.getStartTime();
        Instant end = e.getEndTime();
        if (first == null || s.isBefore(first)) {
            first = s;
        }
        if (last == null || end.isAfter(last)) {
            last = end;
        }
        switch (type) {
            case "loomscope.RunInfo" -> {
                label = e.getString("label");
                threadKind = e.getString("threadKind");
                command = e.getString("command");
                profilingMode = e.hasField("profilingMode") ? e.getString("profilingMode") : null;
            }
            case "jdk.JVMInformation" -> jvm = e.getString("jvmVersion");
            case "jdk.GCConfiguration" -> {
                youngCollector = e.getString("youngCollector");
                oldCollector = e.getString("oldCollector");
            }
            case "jdk.JavaThreadStatistics" -> {
                peakThreads = Math.max(peakThreads, e.getLong("peakCount"));
                peakActiveThreads = Math.max(peakActiveThreads, e.getLong("activeCount"));
            }
            case "jdk.VirtualThreadStart" -> virtualThreadsStarted++;
            case "jdk.ThreadStart" -> platformThreadsStarted++;
            case "jdk.CPULoad" -> {
                jvmCpu.add(e.getFloat("jvmUser") + e.getFloat("jvmSystem"));
                machineCpu.add(e.getFloat("machineTotal"));
            }
            default -> { }
        }
    }

    public Map<String, Long> counts() {
        return counts;
    }

    public long count(String type) {
        return counts.getOrDefault(type, 0L);
    }

    public Instant first() {
        return first;
    }

    public Instant last() {
        return last;
    }

    public double spanSeconds() {
        return first == null ? Double.NaN : (last.toEpochMilli() - first.toEpochMilli()) / 1e3;
    }
}
