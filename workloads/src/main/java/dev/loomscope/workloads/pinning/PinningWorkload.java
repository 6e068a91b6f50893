package dev.loomscope.workloads.pinning;

import dev.loomscope.options.WorkloadOptions.Pinning;
import dev.loomscope.workloads.core.Args;
import dev.loomscope.workloads.core.BadArgumentException;
import dev.loomscope.workloads.core.ThreadKind;
import dev.loomscope.workloads.core.Workload;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * What pins a virtual thread on the running JDK, each case beside its fix: blocking inside a native frame (an FFM
 * upcall; JDK 22+) vs the same blocking outside it; blocking in a class initializer vs after it; blocking in
 * synchronized (pins on JDK 21-23 only) vs under a ReentrantLock. {@code tasks} tasks each block {@code blockMs}; when
 * they pin, the carriers run out and the batch takes about tasks/parallelism times longer: the throughput shows it.
 *
 * <p>{@code java -jar loomscope-workloads.jar pinning --threads virtual [--case synchronized] [--tasks 16] [--block-ms
 * 50]}
 */
public final class PinningWorkload implements Workload {
    public static final List<String> CASES = Pinning.CASE.choices();

    private final ThreadKind kind;
    private final String pinCase;
    private final int tasks;
    private final int blockMs;
    private final byte[] initBytes;

    public PinningWorkload(ThreadKind kind, String pinCase, int tasks, int blockMs) throws IOException {
        this.kind = kind;
        this.pinCase = pinCase;
        this.tasks = tasks;
        this.blockMs = blockMs;
        if (pinCase.startsWith("native") && !NativeBlocker.available()) {
            throw new BadArgumentException("pinning --case " + pinCase + ": needs JDK 22+ (the FFM API); this is JDK "
                    + Runtime.version().feature());
        }
        try (InputStream in = PinningWorkload.class.getResourceAsStream("BlockingInit.class")) {
            initBytes = in.readAllBytes();
        }
    }

    public static PinningWorkload of(Args a) throws IOException {
        ThreadKind kind = ThreadKind.of(a);
        String c = a.choice(Pinning.CASE);
        int cpus = Runtime.getRuntime().availableProcessors();
        return new PinningWorkload(kind, c, a.integer(Pinning.TASKS, 8 * cpus), a.integer(Pinning.BLOCK_MS));
    }

    @Override
    public About about() {
        return new About(kind.label(), "tasks", "case=" + pinCase + " tasks=" + tasks + " blockMs=" + blockMs);
    }

    @Override
    public Run run() throws Exception {
        List<Thread> threads = new ArrayList<>(tasks);
        Object[] monitors = new Object[tasks];
        ReentrantLock[] locks = new ReentrantLock[tasks];
        for (int i = 0; i < tasks; i++) {
            monitors[i] = new Object();
            locks[i] = new ReentrantLock();
        }
        for (int i = 0; i < tasks; i++) {
            int t = i;
            threads.add(kind.start("pinning-" + pinCase, () -> task(monitors[t], locks[t])));
        }
        for (Thread th : threads) {
            th.join();
        }
        return Run.of(tasks);
    }

    private void task(Object monitor, ReentrantLock lock) {
        switch (pinCase) {
            case "native" -> NativeBlocker.blockInNativeFrame(this::block);
            case "clinit" -> initFreshClass();
            case "synchronized" -> {
                synchronized (monitor) {
                    block();
                }
            }
            case "reentrantlock" -> {
                lock.lock();
                try {
                    block();
                } finally {
                    lock.unlock();
                }
            }
            default -> block(); // the fixed variants: the same blocking outside the pinning construct
        }
    }

    void block() {
        try {
            Thread.sleep(blockMs);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A class initializer runs once per class: define BlockingInit afresh in its own loader. */
    private void initFreshClass() {
        ClassLoader loader = new ClassLoader(PinningWorkload.class.getClassLoader()) {
            @Override
            protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
                if (name.equals(BlockingInit.class.getName())) {
                    synchronized (getClassLoadingLock(name)) {
                        Class<?> c = findLoadedClass(name);
                        return c != null ? c : defineClass(name, initBytes, 0, initBytes.length);
                    }
                }
                return super.loadClass(name, resolve);
            }
        };
        try {
            BlockingInit.millis.set(blockMs);
            Class.forName(BlockingInit.class.getName(), true, loader);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
    }
}
