package dev.loomscope.analyzer.reduce;

import java.util.Set;

/**
 * Context switches: the process's own (loomscope.ContextSwitches, deltas) and the machine's
 * (jdk.ThreadContextSwitchRate, a rate for the whole machine).
 */
public final class ContextSwitchReducer implements Reducer {
    public final Samples times = new Samples();
    public final Samples voluntary = new Samples();
    public final Samples involuntary = new Samples();
    public final Samples machineTimes = new Samples();
    public final Samples machineRate = new Samples();
    private long voluntaryTotal;
    private long involuntaryTotal;
    private long platformThreadsStarted = -1;
    private long firstMillis = Long.MAX_VALUE;
    private long lastMillis = Long.MIN_VALUE;
    private String source;

    @Override
    public Set<String> eventTypes() {
        return Set.of("loomscope.ContextSwitches", "jdk.ThreadContextSwitchRate");
    }

    @Override
    public void add(JfrEvent e) {
        long t = e.startTime().toEpochMilli();
        if (e.type().equals("jdk.ThreadContextSwitchRate")) {
            machineTimes.add(t);
            machineRate.add(e.doubleValue("switchRate"));
            return;
        }
        long v = e.longValue("voluntary");
        long i = e.longValue("involuntary");
        times.add(t);
        voluntary.add(v);
        involuntary.add(i);
        voluntaryTotal += v;
        involuntaryTotal += i;
        firstMillis = Math.min(firstMillis, t);
        lastMillis = Math.max(lastMillis, t);
        source = e.hasField("source") ? e.string("source") : source;
        if (e.hasField("platformThreadsStarted")) {
            platformThreadsStarted = Math.max(0, platformThreadsStarted) + e.longValue("platformThreadsStarted");
        }
    }

    /** Platform threads the process started, from the agent's events; null when they do not say (older agents). */
    public Long platformThreadsStarted() {
        return platformThreadsStarted < 0 ? null : platformThreadsStarted;
    }

    public boolean processRecorded() {
        return times.count() > 0;
    }

    public long voluntaryTotal() {
        return voluntaryTotal;
    }

    public long involuntaryTotal() {
        return involuntaryTotal;
    }

    public String source() {
        return source;
    }
}
