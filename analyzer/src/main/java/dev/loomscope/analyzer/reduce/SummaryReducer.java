package dev.loomscope.analyzer.reduce;

import dev.loomscope.events.EventSchema;
import dev.loomscope.events.HeldMonitorSampleEvent;
import dev.loomscope.events.LibraryEvent;
import dev.loomscope.events.RunInfoEvent;
import dev.loomscope.options.AgentOptions;
import dev.loomscope.recording.JdkEvents;
import dev.loomscope.recording.JdkFields;
import dev.loomscope.recording.JdkFrames;
import dev.loomscope.recording.JfrEvent;
import dev.loomscope.recording.RecordingSpan;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a summary needs besides the other reducers: span, event counts, the run's label and thread kind
 * (loomscope.RunInfo), JVM and GC, threads, CPU load.
 */
public final class SummaryReducer implements Reducer {
    private final Map<String, Long> counts = new TreeMap<>();
    private Instant first;
    private Instant last;
    /**
     * The events' own extent: the span only where no chunk header says it (JMC reading format 0.x, JDK 7's and 8's).
     */
    private Instant firstEvent;

    private Instant lastEvent;
    public String label;
    public String threadKind;
    public String profilingMode;
    public String command;
    public String agentOptions;
    public String jvm;
    public String youngCollector;
    public String oldCollector;
    public long peakThreads = -1;
    public long peakActiveThreads = -1;
    public long virtualThreadsStarted;
    /**
     * The machine's hardware threads (jdk.CPUInformation), or -1: what a share of the machine's CPU time is in CPU
     * time.
     */
    public long hardwareThreads = -1;
    /** The heap's largest size (jdk.GCHeapConfiguration, -Xmx or the JVM's choice), bytes, or -1. */
    public long maxHeapBytes = -1;
    /** A platform thread's stack reservation (the JVM's ThreadStackSize flag, jdk.LongFlag), bytes, or -1. */
    public long threadStackBytes = -1;
    /**
     * The processors the JVM saw (the agent's RunInfo: Runtime.availableProcessors, a container's limit), or -1: its
     * default carriers.
     */
    public long cpus = -1;
    /** The virtual thread scheduler's parallelism the agent saw (loomscope.RunInfo), -1 when not recorded. */
    public long carriers = -1;
    /** When the JVM started (jdk.JVMInformation), or null: what came before the recording began is not in it. */
    public Instant jvmStart;
    /**
     * The known libraries the application loaded (the agent's loomscope.Library), by name: their version, "" when not
     * told.
     */
    public final Map<String, String> libraries = new TreeMap<>();

    /**
     * A recording that began this long after its JVM started, the app running meanwhile, says so wherever it counts:
     * what came before is not in it.
     */
    public static final double LATE_SECONDS = 0.5;

    /** Whether the recording began {@link #LATE_SECONDS} or more after its JVM started while the application ran. */
    public boolean beganLate() {
        Double late = beganAfterJvmStart();
        return late != null && late >= LATE_SECONDS && appRanBeforeRecording();
    }

    /** Seconds from the JVM's start to the recording's first event, or null when either is not known. */
    public Double beganAfterJvmStart() {
        return jvmStart == null || first() == null
                ? null
                : Math.max(0, Duration.between(jvmStart, first()).toMillis()) / 1e3;
    }

    /**
     * Whether the application may have run before the recording began: not when the agent held its main until the
     * recording ran (startup=before-main, which RunInfo's options say).
     */
    public boolean appRanBeforeRecording() {
        return agentOptions == null
                || !AgentOptions.parse(null, agentOptions)
                        .string(AgentOptions.STARTUP)
                        .equals("before-main");
    }

    private long threadStartEvents;
    public final Samples jvmCpu = new Samples();
    public final Samples machineCpu = new Samples();
    /**
     * Each jdk.ThreadCPULoad reading of a carrier of the virtual thread scheduler (its thread group
     * {@link JdkFrames#CARRIER_THREAD_GROUP}): its user and system CPU, a share of the machine's as JFR writes it.
     */
    public final Samples carrierCpu = new Samples();
    /**
     * The JVM's share of the machine's CPU (user and system), by when jdk.CPULoad read it: for a span's CPU a request.
     */
    public final Timeline jvmCpuInTime = new Timeline();
    /**
     * The JIT compilers' time between readings of jdk.CompilerStatistics (its totalTimeSpent, a running total), ms, at
     * each reading's time.
     */
    public final Timeline compilerMillisInTime = new Timeline();

    private double compilerMillisBefore = -1;

    @Override
    public Set<String> eventTypes() {
        return null; // every event: they are counted
    }

    /** RunInfo's fields, by their declared names: a name the event does not declare fails as the class loads. */
    private static final String RUN_LABEL = EventSchema.fieldName(RunInfoEvent.class, "label");

    private static final String RUN_THREAD_KIND = EventSchema.fieldName(RunInfoEvent.class, "threadKind");
    private static final String RUN_COMMAND = EventSchema.fieldName(RunInfoEvent.class, "command");
    private static final String RUN_AGENT_OPTIONS = EventSchema.fieldName(RunInfoEvent.class, "agentOptions");
    private static final String RUN_PROFILING_MODE = EventSchema.fieldName(RunInfoEvent.class, "profilingMode");
    private static final String RUN_CPUS = EventSchema.fieldName(RunInfoEvent.class, "cpus");
    private static final String RUN_CARRIERS = EventSchema.fieldName(RunInfoEvent.class, "carriers");
    private static final String LIBRARY = EventSchema.fieldName(LibraryEvent.class, "library");
    private static final String LIBRARY_VERSION = EventSchema.fieldName(LibraryEvent.class, "version");

    /**
     * Events the summary reads only to describe the JVM: a field of theirs it cannot read leaves that description n/a.
     */
    public static final Set<String> DESCRIPTIVE = Set.of(
            JdkEvents.JVM_INFORMATION,
            JdkEvents.GC_CONFIGURATION,
            JdkEvents.OS_INFORMATION,
            JdkEvents.CPU_INFORMATION,
            JdkEvents.GC_HEAP_CONFIGURATION,
            JdkEvents.LONG_FLAG);

    /** The event types whose fields the summary reads (the others it only counts). */
    public static final Set<String> DECODED = Set.of(
            RunInfoEvent.NAME,
            LibraryEvent.NAME,
            JdkEvents.JVM_INFORMATION,
            JdkEvents.GC_CONFIGURATION,
            JdkEvents.GC_HEAP_CONFIGURATION,
            JdkEvents.LONG_FLAG,
            JdkEvents.JAVA_THREAD_STATISTICS,
            JdkEvents.CPU_LOAD,
            JdkEvents.THREAD_CPU_LOAD,
            JdkEvents.CPU_INFORMATION,
            JdkEvents.COMPILER_STATISTICS);

    @Override
    public void add(JfrEvent e) {
        counts.merge(e.type(), 1L, Long::sum);
        Instant s = e.startTime();
        Instant end = e.endTime();
        if (firstEvent == null || s.isBefore(firstEvent)) {
            firstEvent = s;
        }
        if (lastEvent == null || end.isAfter(lastEvent)) {
            lastEvent = end;
        }
        fields(e);
    }

    /**
     * A jdk.CPULoad reading as the JVM's share of the machine (user and system) and the machine's, or null for JFR's
     * first reading, which has none before it to measure from and says 0 for all three (a running machine never is): a
     * JVM that lived under two periods would otherwise have a CPU load of 0. The one rule {@code summary}, the metrics
     * and {@code watch} read it by.
     */
    public static double[] cpuLoad(JfrEvent e) {
        double user = e.doubleValue(JdkFields.JVM_USER);
        double system = e.doubleValue(JdkFields.JVM_SYSTEM);
        double machine = e.doubleValue(JdkFields.MACHINE_TOTAL);
        return user == 0 && system == 0 && machine == 0 ? null : new double[] {user + system, machine};
    }

    /**
     * Takes {@code o}'s events in too, as if this reducer had seen them after its own: counts and CPU readings added,
     * extents and peaks widened, what describes the JVM taken from {@code o} where it says.
     */
    public void merge(SummaryReducer o) {
        o.counts.forEach((t, n) -> counts.merge(t, n, Long::sum));
        first = earlier(first, o.first);
        firstEvent = earlier(firstEvent, o.firstEvent);
        last = later(last, o.last);
        lastEvent = later(lastEvent, o.lastEvent);
        label = o.label != null ? o.label : label;
        threadKind = o.threadKind != null ? o.threadKind : threadKind;
        profilingMode = o.profilingMode != null ? o.profilingMode : profilingMode;
        command = o.command != null ? o.command : command;
        agentOptions = o.agentOptions != null ? o.agentOptions : agentOptions;
        jvm = o.jvm != null ? o.jvm : jvm;
        youngCollector = o.youngCollector != null ? o.youngCollector : youngCollector;
        oldCollector = o.oldCollector != null ? o.oldCollector : oldCollector;
        peakThreads = Math.max(peakThreads, o.peakThreads);
        peakActiveThreads = Math.max(peakActiveThreads, o.peakActiveThreads);
        virtualThreadsStarted += o.virtualThreadsStarted;
        hardwareThreads = o.hardwareThreads >= 0 ? o.hardwareThreads : hardwareThreads;
        maxHeapBytes = o.maxHeapBytes >= 0 ? o.maxHeapBytes : maxHeapBytes;
        threadStackBytes = o.threadStackBytes >= 0 ? o.threadStackBytes : threadStackBytes;
        cpus = o.cpus >= 0 ? o.cpus : cpus;
        carriers = o.carriers >= 0 ? o.carriers : carriers;
        jvmStart = earlier(jvmStart, o.jvmStart);
        libraries.putAll(o.libraries);
        threadStartEvents += o.threadStartEvents;
        jvmCpu.addAll(o.jvmCpu);
        machineCpu.addAll(o.machineCpu);
        carrierCpu.addAll(o.carrierCpu);
        jvmCpuInTime.addAll(o.jvmCpuInTime);
        compilerMillisInTime.addAll(o.compilerMillisInTime);
        compilerMillisBefore = o.compilerMillisBefore >= 0 ? o.compilerMillisBefore : compilerMillisBefore;
    }

    private static Instant earlier(Instant a, Instant b) {
        return a == null || b != null && b.isBefore(a) ? b : a;
    }

    private static Instant later(Instant a, Instant b) {
        return a == null || b != null && b.isAfter(a) ? b : a;
    }

    /** The recording's span, from its chunk headers (see {@link RecordingSpan}). */
    public void span(RecordingSpan span) {
        first = span.first();
        last = span.last();
    }

    /**
     * Counts from a reader that counted without decoding (the fast reader); threads started are the counts of their
     * start events.
     */
    public void counted(Map<String, Long> byType) {
        byType.forEach((t, n) -> counts.merge(t, n, Long::sum));
        virtualThreadsStarted = count(JdkEvents.VIRTUAL_THREAD_START);
        threadStartEvents = count(JdkEvents.THREAD_START);
    }

    /** Reads the fields of one of the {@link #DECODED} types. */
    public void fields(JfrEvent e) {
        if (e.type().equals(RunInfoEvent.NAME)) {
            runInfo(e);
            return;
        }
        if (e.type().equals(LibraryEvent.NAME)) {
            libraries.put(
                    e.string(LIBRARY),
                    e.hasField(LIBRARY_VERSION) && e.string(LIBRARY_VERSION) != null ? e.string(LIBRARY_VERSION) : "");
            return;
        }
        switch (e.type()) {
            case JdkEvents.JVM_INFORMATION -> {
                // async-profiler writes one too, with the bare version: keep the JVM's own, fuller one
                String version = e.string(JdkFields.JVM_VERSION);
                if (jvm == null || version != null && !jvm.contains(version)) {
                    jvm = version;
                }
                long started = e.hasField(JdkFields.JVM_START_TIME) ? e.longValue(JdkFields.JVM_START_TIME) : 0;
                if (started > 0 && (jvmStart == null || started < jvmStart.toEpochMilli())) {
                    jvmStart = Instant.ofEpochMilli(started);
                }
            }
            case JdkEvents.CPU_INFORMATION ->
                hardwareThreads = e.hasField(JdkFields.HW_THREADS) ? e.longValue(JdkFields.HW_THREADS) : -1;
            case JdkEvents.GC_CONFIGURATION -> {
                youngCollector = e.string(JdkFields.YOUNG_COLLECTOR);
                oldCollector = e.string(JdkFields.OLD_COLLECTOR);
            }
            case JdkEvents.GC_HEAP_CONFIGURATION ->
                maxHeapBytes = e.hasField(JdkFields.MAX_SIZE) ? e.longValue(JdkFields.MAX_SIZE) : -1;
            case JdkEvents.LONG_FLAG -> {
                if ("ThreadStackSize".equals(e.string(JdkFields.NAME)) && e.longValue(JdkFields.VALUE) > 0) {
                    threadStackBytes = e.longValue(JdkFields.VALUE) * 1024; // the flag is in KB
                }
            }
            case JdkEvents.JAVA_THREAD_STATISTICS -> {
                peakThreads = Math.max(peakThreads, e.longValue(JdkFields.PEAK_COUNT));
                peakActiveThreads = Math.max(peakActiveThreads, e.longValue(JdkFields.ACTIVE_COUNT));
            }
            case JdkEvents.VIRTUAL_THREAD_START -> virtualThreadsStarted++;
            case JdkEvents.THREAD_START -> threadStartEvents++;
            case JdkEvents.COMPILER_STATISTICS -> {
                double ms = e.hasField(JdkFields.TOTAL_TIME_SPENT)
                        ? e.durationField(JdkFields.TOTAL_TIME_SPENT).toNanos() / 1e6
                        : -1;
                if (compilerMillisBefore >= 0 && ms >= compilerMillisBefore) {
                    compilerMillisInTime.add(e.startTime(), ms - compilerMillisBefore);
                }
                compilerMillisBefore = ms;
            }
            case JdkEvents.THREAD_CPU_LOAD -> {
                if (JdkFrames.CARRIER_THREAD_GROUP.equals(e.threadGroupName(JdkFields.EVENT_THREAD))) {
                    carrierCpu.add(e.doubleValue(JdkFields.USER) + e.doubleValue(JdkFields.SYSTEM));
                }
            }
            case JdkEvents.CPU_LOAD -> {
                double[] cpu = cpuLoad(e);
                if (cpu != null) {
                    jvmCpu.add(cpu[0]);
                    machineCpu.add(cpu[1]);
                    jvmCpuInTime.add(e.startTime(), cpu[0]);
                }
            }
            default -> {}
        }
    }

    /**
     * The carriers' CPU, each on average over their readings, as a share of one CPU ({@link #ofOneCpu} by the
     * recording's {@link #activeProcessors}); NaN without readings.
     */
    public double carrierCpuOfOne() {
        return ofOneCpu(carrierCpu, activeProcessors());
    }

    /**
     * The mean of jdk.ThreadCPULoad readings (user and system, JFR's share of the machine: a thread's CPU time over the
     * time and the JVM's active {@code processors}) as a share of one CPU; NaN without readings or processors.
     */
    public static double ofOneCpu(Samples threadShares, long processors) {
        return threadShares.count() == 0 || processors <= 0 ? Double.NaN : threadShares.mean() * processors;
    }

    /**
     * The processors JFR divides a thread's CPU by (the JVM's active ones): the agent's RunInfo count, else the
     * machine's hardware threads; -1 when the recording says neither.
     */
    public long activeProcessors() {
        return cpus > 0 ? cpus : hardwareThreads;
    }

    /** The agent's loomscope.RunInfo: what ran and how it was recorded. */
    private void runInfo(JfrEvent e) {
        label = e.string(RUN_LABEL);
        threadKind = e.string(RUN_THREAD_KIND);
        command = e.string(RUN_COMMAND);
        agentOptions = e.hasField(RUN_AGENT_OPTIONS) ? e.string(RUN_AGENT_OPTIONS) : null;
        profilingMode = e.hasField(RUN_PROFILING_MODE) ? e.string(RUN_PROFILING_MODE) : null;
        cpus = e.hasField(RUN_CPUS) ? e.longValue(RUN_CPUS) : -1;
        carriers = e.hasField(RUN_CARRIERS) ? e.longValue(RUN_CARRIERS) : -1;
    }

    /** The carriers virtual threads have (or would have) in the recorded JVM, and where that figure came from. */
    public record Carriers(int count, String from) {}

    /**
     * The one source of a recording's carrier count: the scheduler's parallelism the agent saw, else the processors the
     * JVM saw (the scheduler's default), else the machine's hardware threads; null when the recording says none of
     * these.
     */
    public Carriers carriers() {
        return carriers(carriers, cpus, hardwareThreads);
    }

    /**
     * {@link #carriers()} from RunInfo's carriers and cpus and jdk.CPUInformation's hwThreads (-1 or 0: not recorded),
     * whoever read them.
     */
    public static Carriers carriers(long carriers, long cpus, long hardwareThreads) {
        if (carriers > 0) {
            return new Carriers((int) carriers, "the JVM's virtual thread scheduler parallelism");
        }
        if (cpus > 0) {
            return new Carriers((int) cpus, "the processors the JVM saw, the scheduler's default parallelism");
        }
        if (hardwareThreads > 0) {
            return new Carriers((int) hardwareThreads, "the machine's hardware threads (jdk.CPUInformation)");
        }
        return null;
    }

    /**
     * Platform threads started during the recording: its jdk.ThreadStart events when they were recorded, otherwise what
     * the loomscope agent counted (it leaves jdk.ThreadStart off: the event costs every thread start); null when
     * neither says.
     */
    public Long platformThreadsStarted(ContextSwitchReducer process) {
        return threadStartEvents > 0 ? Long.valueOf(threadStartEvents) : process.platformThreadsStarted();
    }

    /**
     * Whether async-profiler profiled the run (RunInfo's profilingMode names its engine; "jfr", "jfr-cpu-time" and
     * "off" are not it).
     */
    public static boolean asyncProfiler(String profilingMode) {
        return profilingMode != null && !profilingMode.startsWith("jfr") && !profilingMode.equals("off");
    }

    /**
     * Whether no virtual thread ran where the recording can say: the agent labelled the run platform threads, or its
     * looks at the threads were taken and no virtual thread start or pin was recorded.
     */
    public boolean platformOnly() {
        return platformOnly(
                threadKind,
                count(HeldMonitorSampleEvent.NAME),
                virtualThreadsStarted,
                count(JdkEvents.VIRTUAL_THREAD_PINNED));
    }

    /**
     * {@link #platformOnly()} from the run's thread kind and the counts of the agent's looks, of virtual thread starts
     * and of pins.
     */
    public static boolean platformOnly(String threadKind, long looks, long virtualThreadStarts, long pins) {
        return "platform".equals(threadKind)
                || !"virtual".equals(threadKind)
                        && !"mixed".equals(threadKind)
                        && looks > 0
                        && virtualThreadStarts == 0
                        && pins == 0;
    }

    public Map<String, Long> counts() {
        return counts;
    }

    public long count(String type) {
        return counts.getOrDefault(type, 0L);
    }

    /** Where the recording starts: its earliest chunk's start; the earliest event's where no chunk header was read. */
    public Instant first() {
        return first != null ? first : firstEvent;
    }

    /** Where the recording ends: its latest chunk's end; the latest event's where no chunk header was read. */
    public Instant last() {
        return last != null ? last : lastEvent;
    }

    private static final Pattern VERSION = Pattern.compile("\\(([0-9]{1,9})([^)]*)\\)");

    /**
     * The JDK's version in a jdk.JVMInformation's {@code jvmVersion} ({@code 21.0.8+9-LTS}), or null when it holds
     * none.
     */
    public static String jdkVersion(String jvm) {
        Matcher m = jvm == null ? null : VERSION.matcher(jvm);
        return m != null && m.find() ? m.group(1) + m.group(2) : null;
    }

    /** The recorded JDK's feature version (21, 25), or 0 when the recording does not say. */
    public int jdkFeature() {
        Matcher m = jvm == null ? null : VERSION.matcher(jvm);
        return m != null && m.find() ? Integer.parseInt(m.group(1)) : 0;
    }

    public double spanSeconds() {
        Instant from = first();
        Instant to = last();
        return from == null ? Double.NaN : Duration.between(from, to).toNanos() / 1e9;
    }
}
