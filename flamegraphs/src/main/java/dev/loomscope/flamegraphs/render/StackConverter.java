package dev.loomscope.flamegraphs.render;

import java.io.IOException;
import java.util.Set;
import one.convert.Arguments;
import one.convert.CallStack;
import one.convert.Filter;
import one.convert.FlameGraph;
import one.convert.Frame;
import one.convert.JfrConverter;
import one.jfr.JfrReader;
import one.jfr.StackTrace;
import one.jfr.event.AllocationSample;
import one.jfr.event.ContendedLock;
import one.jfr.event.Event;
import one.jfr.event.ExecutionSample;

/**
 * Adds the samples of one recording to a flame graph, optionally under a root telling virtual
 * threads (sampled on their carrier: the stack runs through the continuation entry) from platform
 * threads. Values are multiplied by a whole {@code scale} (differential graphs bring runs of different
 * lengths to a common total without rounding).
 */
final class StackConverter extends JfrConverter {
    static final String VIRTUAL_ROOT = "virtual (on carrier)";
    static final String PLATFORM_ROOT = "platform";

    private final FlameGraph target;
    private final boolean splitKind;
    private final long scale;
    private long total;
    private long virtualTotal;

    private final Set<String> states;
    private final long fromMs;
    private final long toMs;

    /**
     * @param states thread-state names (STATE_ prefix dropped) to keep, or empty for all
     * @param fromMs window start in ms from the recording start (negative: from its end), or 0
     * @param toMs   window end, likewise, or 0
     */
    StackConverter(JfrReader jfr, Arguments args, FlameGraph target, boolean splitKind, long scale,
            Set<String> states, long fromMs, long toMs) {
        super(jfr, args);
        this.target = target;
        this.splitKind = splitKind;
        this.scale = scale;
        this.states = states;
        this.fromMs = fromMs;
        this.toMs = toMs;
    }

    /**
     * Reads the samples of the chunk. The thread state is matched by name in each chunk: a
     * jfrsync file has JDK chunks and async-profiler chunks whose state enums differ, so a filter
     * made from the first chunk's numbering (as the converter's own) would be wrong or fail.
     */
    @Override
    protected void collectEvents(Filter unused) throws IOException {
        Class<? extends Event> type = args.alloc ? AllocationSample.class : args.lock ? ContendedLock.class : ExecutionSample.class;
        for (Event e; (e = jfr.readEvent(type)) != null; ) {
            if (!states.isEmpty() && e instanceof ExecutionSample s) {
                String name = jfr.getEnumValue("jdk.types.ThreadState", s.threadState);
                name = name == null ? "STATE_" + s.threadState : name; // as SampleInventory names it (JFR's CPU-time samples)
                if (!states.contains(name.startsWith("STATE_") ? name.substring(6) : name)) {
                    continue;
                }
            }
            if (fromMs != 0 || toMs != 0) {
                long ms = (jfr.eventTimeToNanos(e.time) - jfr.startNanos) / 1_000_000;
                long span = (jfr.endNanos - jfr.startNanos) / 1_000_000;
                long from = fromMs < 0 ? span + fromMs : fromMs;
                long to = toMs == 0 ? Long.MAX_VALUE : toMs < 0 ? span + toMs : toMs;
                if (ms < from || ms > to) {
                    continue;
                }
            }
            collector.collect(e);
        }
    }

    @Override
    protected void convertChunk() {
        collector.forEach(new AggregatedEventVisitor() {
            final CallStack stack = new CallStack();

            @Override
            public void visit(Event event, long value) {
                StackTrace trace = jfr.stackTraces.get(event.stackTraceId);
                if (trace == null) {
                    return;
                }
                long weighted = value * scale;
                long[] methods = trace.methods;
                byte[] types = trace.types;
                boolean virtual = isVirtual(methods, types);
                if (splitKind) {
                    stack.push(virtual ? VIRTUAL_ROOT : PLATFORM_ROOT, Frame.TYPE_NATIVE);
                }
                if (args.threads) {
                    stack.push(getThreadName(event.tid), Frame.TYPE_NATIVE);
                }
                for (int i = methods.length; --i >= 0; ) {
                    stack.push(getMethodName(methods[i], types[i]), types[i]);
                }
                long classId = event.classId();
                if (classId != 0) {
                    boolean outside = event instanceof AllocationSample a && a.tlabSize == 0;
                    stack.push(getClassName(classId), outside ? Frame.TYPE_KERNEL : Frame.TYPE_INLINED);
                }
                target.addSample(stack, weighted);
                stack.clear();
                total += weighted;
                if (virtual) {
                    virtualTotal += weighted;
                }
            }
        });
    }

    /** A virtual thread's frames sit above the continuation entry, on a carrier or not. */
    private boolean isVirtual(long[] methods, byte[] types) {
        for (int i = methods.length; --i >= 0; ) {
            String name = getMethodName(methods[i], types[i]);
            if (name.startsWith("jdk/internal/vm/Continuation.enter")
                    || name.startsWith("jdk.internal.vm.Continuation.enter")
                    || name.equals("java/lang/VirtualThread.run")
                    || name.equals("java.lang.VirtualThread.run")) {
                return true;
            }
        }
        return false;
    }

    long total() {
        return total;
    }

    long virtualTotal() {
        return virtualTotal;
    }
}
