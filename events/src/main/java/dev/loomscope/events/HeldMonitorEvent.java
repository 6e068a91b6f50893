package dev.loomscope.events;

import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;

/**
 * {@code loomscope.HeldMonitor}: platform threads that one look ({@link HeldMonitorSampleEvent}) found where a virtual
 * thread would hold its carrier, grouped by what they did and where. Stable schema: fields may be added, never renamed.
 */
@Name(HeldMonitorEvent.NAME)
@Label("Held Monitor")
@Description("Platform threads blocking where a virtual thread would pin its carrier, by what and where, at one look")
public final class HeldMonitorEvent extends LoomscopeEvent {
    /** The event's name in a recording. */
    public static final String NAME = "loomscope.HeldMonitor";

    /** A thread parked, sleeping, waiting or in blocking I/O while it holds a monitor: a pin on JDK 21-23. */
    public static final String HOLDING = "blocks holding a monitor";
    /** A thread waiting to enter a monitor another holds: a pin on JDK 21-23. */
    public static final String ENTERING = "waits to enter a monitor";
    /** A thread in Object.wait: a pin on JDK 21-23, for which the scheduler adds a carrier while it lasts. */
    public static final String OBJECT_WAIT = "waits in Object.wait";
    /** A thread blocking under a class initializer: a pin on every JDK. */
    public static final String CLASS_INIT = "blocks in a class initializer";
    /** A thread running the application's own native code: a pin on every JDK for as long as it runs there. */
    public static final String NATIVE = "runs application native code";
    /**
     * A thread spinning in Thread.yield or Thread.onSpinWait: on virtual threads it keeps a carrier busy while others
     * may wait for one.
     */
    public static final String SPINS = "spins in Thread.yield or onSpinWait";
    /**
     * A thread parked in a pool or a semaphore (a frame named borrow*, acquire*, lease* or getConnection, or a
     * Semaphore as the blocker): not a pin, the next ceiling once the server's thread cap is gone.
     */
    public static final String POOL = "waits for a pool or semaphore";
    /**
     * A thread found running the application's Java code at two looks in a row without having blocked or waited in
     * between: on a virtual thread it holds its carrier that long.
     */
    public static final String BURST = "runs on the CPU across looks";

    @Label("Sample")
    @Description("Which look found them: the loomscope.HeldMonitorSample event of the same look has the same value")
    public long sample;

    @Label("What")
    @Description(
            "What the threads did: blocks holding a monitor, waits to enter a monitor, waits in Object.wait, blocks in"
                    + " a class initializer, runs application native code, spins in Thread.yield or onSpinWait, waits"
                    + " for a pool or semaphore, runs on the CPU across looks")
    public String what;

    @Label("Threads")
    @Description("How many threads of the group were found so at this look")
    public int threads;

    @Label("Site")
    @Description(
            "The first application frame from the top (class.method(File:line)): where the application asked for it")
    public String site;

    @Label("Held At")
    @Description(
            "The frame that took the monitor held (for a thread entering a monitor, the one it waits for; for a pool"
                    + " wait, the pool's frame); empty where none")
    public String heldAt;

    @Label("Monitor Class")
    @Description("The class of the monitor held or waited for; empty where none")
    public String monitorClass;

    @Label("Blocked In")
    @Description("The top frame: what the thread waits in (Thread.sleep, Unsafe.park, a socket read)")
    public String blockedIn;

    @Label("Thread Group")
    @Description(
            "The threads' name without its trailing number (qtp1234-, http-nio-8080-exec-): which pool they are of")
    public String threadGroup;

    @Label("Work")
    @Description(
            "The work= method the threads were in (Class::method, the outermost on the stack); empty without work= or"
                    + " outside it")
    public String work;

    @Label("Stack")
    @Description("The top frames of one such thread, a line each (at most 12)")
    public String stack;
}
