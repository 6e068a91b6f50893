package dev.loomscope.recording;

/**
 * The names of the JDK's own JFR events this project reads or configures, each declared once (as
 * {@code dev.loomscope.events.EventSchema} does for loomscope's own): a reader, a setting or a reducer names the event
 * through its constant, never a string of its own, so that a name a JDK renames is changed in one place and a typo does
 * not compile. A setting is the name, {@code #} and the setting's ({@code JdkEvents.VIRTUAL_THREAD_PINNED +
 * "#threshold"}).
 */
public final class JdkEvents {
    public static final String ACTIVE_SETTING = "jdk.ActiveSetting";
    public static final String COMPILER_STATISTICS = "jdk.CompilerStatistics";
    public static final String CPU_INFORMATION = "jdk.CPUInformation";
    public static final String CPU_LOAD = "jdk.CPULoad";
    /** JFR's CPU-time sampler (JEP 509, JDK 25+ on Linux): Java frames by CPU time, as async-profiler's ctimer. */
    public static final String CPU_TIME_SAMPLE = "jdk.CPUTimeSample";
    /** JFR's execution sampler: Java frames of running threads, every interval (every JDK). */
    public static final String EXECUTION_SAMPLE = "jdk.ExecutionSample";

    public static final String GARBAGE_COLLECTION = "jdk.GarbageCollection";
    public static final String GC_CONFIGURATION = "jdk.GCConfiguration";
    public static final String GC_HEAP_CONFIGURATION = "jdk.GCHeapConfiguration";
    public static final String GC_HEAP_SUMMARY = "jdk.GCHeapSummary";
    public static final String GC_PHASE_PAUSE = "jdk.GCPhasePause";
    public static final String INITIAL_ENVIRONMENT_VARIABLE = "jdk.InitialEnvironmentVariable";
    public static final String INITIAL_SYSTEM_PROPERTY = "jdk.InitialSystemProperty";
    /**
     * A thread blocked entering a monitor, over the setting's threshold (with {@link #JAVA_MONITOR_WAIT}, read where
     * the agent's looks are missing).
     */
    public static final String JAVA_MONITOR_ENTER = "jdk.JavaMonitorEnter";
    /** A thread in {@code Object.wait}, over the setting's threshold. */
    public static final String JAVA_MONITOR_WAIT = "jdk.JavaMonitorWait";

    public static final String JAVA_THREAD_STATISTICS = "jdk.JavaThreadStatistics";
    public static final String JVM_INFORMATION = "jdk.JVMInformation";
    public static final String LONG_FLAG = "jdk.LongFlag";
    /** JFR's method tracing (JEP 520, JDK 25+): an event for each traced call. */
    public static final String METHOD_TRACE = "jdk.MethodTrace";

    public static final String NATIVE_METHOD_SAMPLE = "jdk.NativeMethodSample";
    public static final String OBJECT_ALLOCATION_IN_NEW_TLAB = "jdk.ObjectAllocationInNewTLAB";
    public static final String OBJECT_ALLOCATION_OUTSIDE_TLAB = "jdk.ObjectAllocationOutsideTLAB";
    public static final String OBJECT_ALLOCATION_SAMPLE = "jdk.ObjectAllocationSample";
    public static final String OLD_OBJECT_SAMPLE = "jdk.OldObjectSample";
    public static final String OS_INFORMATION = "jdk.OSInformation";
    public static final String SOCKET_READ = "jdk.SocketRead";
    public static final String SOCKET_WRITE = "jdk.SocketWrite";
    public static final String SYSTEM_PROCESS = "jdk.SystemProcess";
    public static final String THREAD_CONTEXT_SWITCH_RATE = "jdk.ThreadContextSwitchRate";
    public static final String THREAD_CPU_LOAD = "jdk.ThreadCPULoad";
    public static final String THREAD_END = "jdk.ThreadEnd";
    public static final String THREAD_PARK = "jdk.ThreadPark";
    public static final String THREAD_START = "jdk.ThreadStart";
    public static final String VIRTUAL_THREAD_END = "jdk.VirtualThreadEnd";
    public static final String VIRTUAL_THREAD_PINNED = "jdk.VirtualThreadPinned";
    public static final String VIRTUAL_THREAD_START = "jdk.VirtualThreadStart";
    public static final String VIRTUAL_THREAD_SUBMIT_FAILED = "jdk.VirtualThreadSubmitFailed";

    private JdkEvents() {}
}
