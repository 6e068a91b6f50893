package dev.loomscope.workloads.pinning;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * Blocks inside a native frame: libc's qsort calls back into Java (an FFM upcall) to compare two elements, and the
 * comparator blocks. A virtual thread blocking there cannot unmount: it pins.
 */
final class NativeBlocker {
    private static final Linker LINKER = Linker.nativeLinker();
    private static final MethodHandle QSORT = LINKER.defaultLookup()
            .find("qsort")
            .map(a -> LINKER.downcallHandle(
                    a,
                    FunctionDescriptor.ofVoid(
                            ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.ADDRESS)))
            .orElse(null);
    private static final MethodHandle COMPARE;
    private static final ThreadLocal<Runnable> BLOCKING = new ThreadLocal<>();

    static {
        try {
            COMPARE = MethodHandles.lookup()
                    .findStatic(
                            NativeBlocker.class,
                            "compare",
                            MethodType.methodType(int.class, MemorySegment.class, MemorySegment.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
        if (QSORT != null) {
            // one call now, on the thread that loads this class: the JDK initialises a downcall's stub class on its
            // first call,
            // and a virtual thread that waits for that pins too (the JDK's pin, not the one this workload shows)
            blockInNativeFrame(null);
        }
    }

    private NativeBlocker() {}

    static boolean available() {
        return QSORT != null;
    }

    static void blockInNativeFrame(Runnable blocking) {
        BLOCKING.set(blocking);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment array = arena.allocate(ValueLayout.JAVA_INT, 2);
            array.setAtIndex(ValueLayout.JAVA_INT, 0, 2);
            array.setAtIndex(ValueLayout.JAVA_INT, 1, 1);
            MemorySegment comparator = LINKER.upcallStub(
                    COMPARE,
                    FunctionDescriptor.of(
                            ValueLayout.JAVA_INT,
                            ValueLayout.ADDRESS.withTargetLayout(ValueLayout.JAVA_INT),
                            ValueLayout.ADDRESS.withTargetLayout(ValueLayout.JAVA_INT)),
                    arena);
            QSORT.invokeExact(array, 2L, 4L, comparator);
        } catch (Throwable t) {
            throw new IllegalStateException("qsort upcall failed: " + t, t);
        } finally {
            BLOCKING.remove();
        }
    }

    private static int compare(MemorySegment a, MemorySegment b) {
        Runnable r = BLOCKING.get();
        if (r != null) {
            BLOCKING.remove(); // block once per call, however often qsort compares
            r.run();
        }
        return Integer.compare(a.get(ValueLayout.JAVA_INT, 0), b.get(ValueLayout.JAVA_INT, 0));
    }
}
