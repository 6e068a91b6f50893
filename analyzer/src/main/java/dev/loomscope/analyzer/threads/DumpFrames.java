package dev.loomscope.analyzer.threads;

import dev.loomscope.recording.JdkFrames;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The frames of a JSON thread dump as the JDK writes them, {@code java.base/java.lang.Thread.sleep(Thread.java:540)} or
 * {@code Stuck.run(Stuck.java:10)}: which are the application's, which call it made into the JDK, what holds a carrier.
 */
public final class DumpFrames {
    private DumpFrames() {}

    /** The class and method, {@code java.lang.Thread.sleep}, without module or source position. */
    static String methodOf(String frame) {
        int paren = frame.indexOf('(');
        String m = paren < 0 ? frame : frame.substring(0, paren);
        int slash = m.indexOf('/');
        return slash < 0 ? m : m.substring(slash + 1);
    }

    static String classOf(String frame) {
        String m = methodOf(frame);
        int dot = m.lastIndexOf('.');
        return dot < 0 ? m : m.substring(0, dot);
    }

    /** Whether the frame is the JDK's (the one rule the pinning reports use too). */
    static boolean isJdk(String frame) {
        return JdkFrames.isJdk(classOf(frame));
    }

    /** The frame as a reader wants it: {@code Thread.sleep (Thread.java:540)}, the class without its package. */
    static String brief(String frame) {
        String m = methodOf(frame);
        int method = m.lastIndexOf('.');
        int pkg = method < 0 ? -1 : m.lastIndexOf('.', method - 1);
        String shortName = pkg < 0 ? m : m.substring(pkg + 1);
        int paren = frame.indexOf('(');
        String where = paren < 0 ? "" : frame.substring(paren);
        return where.isEmpty() || where.equals("(Unknown Source)") ? shortName : shortName + " " + where;
    }

    /** The index of the innermost frame of the application (not the JDK's), or -1. */
    public static int applicationFrame(List<String> stack) {
        for (int i = 0; i < stack.size(); i++) {
            if (!isJdk(stack.get(i))) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Where a thread is, in two parts: the JDK call the application made (the frame above its innermost own frame;
     * Thread.sleep, ReentrantLock.lock, SocketInputStream.read) and that application frame. With no application frame,
     * the top frame and null; with no frames, null.
     */
    public static String[] where(List<String> stack) {
        if (stack.isEmpty()) {
            return new String[] {null, null};
        }
        int app = applicationFrame(stack);
        if (app < 0) {
            return new String[] {brief(stack.get(0)), null};
        }
        return new String[] {app == 0 ? null : brief(stack.get(app - 1)), brief(stack.get(app))};
    }

    /** Where, as one phrase: {@code Thread.sleep via Stuck.sleep (Stuck.java:25)}, "no frames" for none. */
    public static String describe(List<String> stack) {
        String[] w = where(stack);
        if (w[0] == null && w[1] == null) {
            return "no frames";
        }
        return w[0] == null ? w[1] : w[1] == null ? w[0] : w[0] + " via " + w[1];
    }

    /**
     * The JVM's own threads, which a dump may list without frames: a thread without frames and without one of these
     * names is a virtual thread not run yet.
     */
    private static final Pattern JVM_THREAD = Pattern.compile(
            "Signal Dispatcher|Notification Thread|Attach Listener|Service Thread|Monitor Deflation Thread|C\\d"
                    + " CompilerThread\\d+|Sweeper thread|Common-Cleaner|Reference Handler|Finalizer|DestroyJavaVM|JFR"
                    + " .*|VM .*|GC .*");

    static boolean jvmThread(String name) {
        return name != null && JVM_THREAD.matcher(name).matches();
    }

    /** Methods in which a server's thread waits for work, not for a lock: accepting, polling, a pool's queue. */
    private static final List<String> IDLE = List.of(
            "sun.nio.ch.Net.accept",
            "sun.nio.ch.ServerSocketChannelImpl.accept",
            "java.net.ServerSocket.accept",
            "sun.nio.ch.EPoll.wait",
            "sun.nio.ch.KQueue.poll",
            "sun.nio.ch.WEPoll.wait",
            "sun.nio.ch.SelectorImpl.select",
            "java.util.concurrent.ThreadPoolExecutor.getTask",
            "java.util.concurrent.ForkJoinPool.awaitWork",
            "java.util.concurrent.LinkedBlockingQueue.take",
            "java.util.concurrent.LinkedBlockingQueue.poll",
            "java.util.concurrent.SynchronousQueue.take",
            "java.util.concurrent.SynchronousQueue.poll",
            "java.util.concurrent.ScheduledThreadPoolExecutor$DelayedWorkQueue.take",
            "java.lang.ref.Reference.waitForReferencePendingList",
            "java.lang.ref.ReferenceQueue.remove",
            "jdk.internal.misc.InnocuousThread.run");

    /**
     * Whether a thread waits for work rather than for a lock or a call: an acceptor, a poller, a pool's worker waiting
     * on its queue (Tomcat's and Jetty's idle threads); a frame whose class and method end in
     * {@code .await}/{@code .idle} of a pool counts too. Such a thread that did not move between two dumps is idle, not
     * stuck.
     */
    static boolean idle(List<String> stack) {
        for (String frame : stack) {
            String m = methodOf(frame);
            if (IDLE.contains(m)
                    || m.endsWith("QueuedThreadPool$Runner.idleJobPoll")
                    || m.endsWith("TaskQueue.take")
                    || m.endsWith("TaskQueue.poll")) {
                return true;
            }
        }
        return false;
    }

    /** A virtual thread mounted and parked on its carrier (pinned): the JDK's park-on-carrier frame is on its stack. */
    public static boolean parkedOnCarrier(List<String> stack) {
        return stack.stream().limit(6).anyMatch(f -> methodOf(f).equals("java.lang.VirtualThread.parkOnCarrierThread"));
    }

    /** A carrier running a virtual thread: VirtualThread.runContinuation is on its stack. */
    static boolean runsVirtualThread(List<String> stack) {
        return stack.stream().anyMatch(f -> methodOf(f).equals("java.lang.VirtualThread.runContinuation"));
    }

    /**
     * A virtual thread with no Java frame but VirtualThread.run: it waits inside the VM (for a class another thread
     * initialises, most often).
     */
    static boolean inVm(List<String> stack) {
        return stack.size() == 1 && methodOf(stack.get(0)).equals("java.lang.VirtualThread.run");
    }

    /** A JDK 21-24 virtual thread whose top frame is the unmounted park or yield (off its carrier). */
    static boolean unmounted(List<String> stack) {
        if (stack.isEmpty()) {
            return false;
        }
        String top = methodOf(stack.get(0));
        return top.equals("java.lang.VirtualThread.park")
                || top.equals("java.lang.VirtualThread.parkNanos")
                || top.equals("java.lang.VirtualThread.yieldContinuation")
                || top.equals("jdk.internal.vm.Continuation.yield");
    }

    /**
     * A thread in Thread.yield or Thread.onSpinWait within its top {@code depth} frames: it computes and yields (a JDK
     * 21-24 dump shows a virtual thread that yielded, off its carrier, at the same frames).
     */
    public static boolean spinning(List<String> stack, int depth) {
        return stack.stream().limit(depth).anyMatch(f -> {
            String m = methodOf(f);
            int dot = m.lastIndexOf('.');
            return dot > 0 && JdkFrames.isSpin(m.substring(0, dot), m.substring(dot + 1));
        });
    }

    /** The frame of a class initializer on the stack ({@code Init.<clinit>}), or null. */
    static String classInitializer(List<String> stack) {
        return stack.stream()
                .filter(f -> methodOf(f).endsWith(".<clinit>"))
                .findFirst()
                .orElse(null);
    }

    /**
     * Whether the thread is in a native method of the JDK's own (a file read, a poll): calls for which the virtual
     * thread scheduler adds a carrier while they block, unlike the application's.
     */
    public static boolean jdkNative(List<String> stack) {
        return !stack.isEmpty() && stack.get(0).endsWith("(Native Method)") && isJdk(stack.get(0));
    }

    /** The innermost native frame the thread runs in, other than the JDK's park, or null. */
    public static String nativeFrame(List<String> stack) {
        return stack.stream()
                .filter(f -> f.endsWith("(Native Method)") && !methodOf(f).equals("jdk.internal.misc.Unsafe.park"))
                .findFirst()
                .orElse(null);
    }
}
