package dev.loomscope.recording;

/**
 * The names of the fields of the JDK's own JFR events this project reads, each declared once (as {@link JdkEvents}
 * declares the events): a reader or a reducer names a field through its constant, so that a field a JDK renames is
 * changed in one place and a typo does not compile.
 */
public final class JdkFields {
    // every event's
    public static final String START_TIME = "startTime";
    public static final String DURATION = "duration";
    public static final String EVENT_THREAD = "eventThread";
    public static final String STACK_TRACE = "stackTrace";

    // jdk.VirtualThreadPinned (the last three from JDK 24 on)
    public static final String PINNED_REASON = "pinnedReason";
    public static final String BLOCKING_OPERATION = "blockingOperation";
    public static final String CARRIER_THREAD = "carrierThread";

    /** jdk.ExecutionSample's thread (jdk.CPUTimeSample's is {@link #EVENT_THREAD}). */
    public static final String SAMPLED_THREAD = "sampledThread";
    /** jdk.ExecutionSample's thread state. */
    public static final String STATE = "state";
    /** java.lang.Thread's: whether the thread is virtual (JDK 21+). */
    public static final String VIRTUAL = "virtual";

    // jdk.GarbageCollection, jdk.GCHeapSummary, jdk.GCConfiguration, jdk.GCHeapConfiguration
    public static final String GC_ID = "gcId";
    public static final String SUM_OF_PAUSES = "sumOfPauses";
    public static final String LONGEST_PAUSE = "longestPause";
    public static final String CAUSE = "cause";
    public static final String WHEN = "when";
    public static final String HEAP_USED = "heapUsed";
    public static final String YOUNG_COLLECTOR = "youngCollector";
    public static final String OLD_COLLECTOR = "oldCollector";
    public static final String MAX_SIZE = "maxSize";

    /** jdk.ObjectAllocationSample's bytes the sample stands for. */
    public static final String WEIGHT = "weight";

    // jdk.CPULoad, jdk.ThreadCPULoad
    public static final String JVM_USER = "jvmUser";
    public static final String JVM_SYSTEM = "jvmSystem";
    public static final String MACHINE_TOTAL = "machineTotal";
    public static final String USER = "user";
    public static final String SYSTEM = "system";

    // jdk.JVMInformation, jdk.CPUInformation, jdk.JavaThreadStatistics, jdk.CompilerStatistics,
    // jdk.ThreadContextSwitchRate
    public static final String JVM_VERSION = "jvmVersion";
    public static final String JVM_START_TIME = "jvmStartTime";
    public static final String HW_THREADS = "hwThreads";
    public static final String ACTIVE_COUNT = "activeCount";
    public static final String PEAK_COUNT = "peakCount";
    public static final String TOTAL_TIME_SPENT = "totalTimeSpent";
    public static final String SWITCH_RATE = "switchRate";

    // a flag's or a setting's (jdk.LongFlag, jdk.ActiveSetting)
    public static final String NAME = "name";
    public static final String VALUE = "value";

    private JdkFields() {}
}
