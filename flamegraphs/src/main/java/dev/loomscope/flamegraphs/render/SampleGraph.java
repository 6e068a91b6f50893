package dev.loomscope.flamegraphs.render;

import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import one.convert.CallStack;
import one.convert.FlameGraph;

/**
 * Samples aggregated by stack (frame names and async-profiler's frame types, root first), for a reader that is not
 * async-profiler's own: drawn by async-profiler's {@link FlameGraph}, so the HTML, colours and collapsed format are the
 * same.
 */
public final class SampleGraph {
    /** The frame types async-profiler colours by ({@code one.convert.Frame}'s constants). */
    public static final byte INTERPRETED = 0;

    public static final byte JIT_COMPILED = 1;
    public static final byte INLINED = 2;
    public static final byte NATIVE = 3;
    public static final byte CPP = 4;
    public static final byte KERNEL = 5;

    private final Map<Stack, long[]> weights = new HashMap<>();
    private long total;
    private long virtualTotal;

    /**
     * One stack: names and types, root first, whether a virtual thread ran it, and which virtual thread (its Java id,
     * -1 when not known or not asked for: {@link FlameOptions#virtualThreadIds}).
     */
    private record Stack(String[] names, byte[] types, boolean virtual, long virtualThreadId) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Stack s
                    && virtual == s.virtual
                    && virtualThreadId == s.virtualThreadId
                    && Arrays.equals(names, s.names)
                    && Arrays.equals(types, s.types);
        }

        @Override
        public int hashCode() {
            return 31 * Arrays.hashCode(names)
                    + Arrays.hashCode(types)
                    + (virtual ? 1 : 0)
                    + Long.hashCode(virtualThreadId) * 17;
        }

        @Override
        public String toString() {
            return String.join(";", names);
        }
    }

    /**
     * Frames kept of one stack, from the root: async-profiler's own default depth. A deeper stack (an export can hold
     * any) is cut there with a frame that says how many were left out, so that drawing it cannot exhaust the renderer's
     * stack.
     */
    public static final int MAX_DEPTH = 2048;

    /** Adds {@code weight} samples of the stack {@code names} (root first) with their {@code types}. */
    public void add(String[] names, byte[] types, long weight, boolean virtual) {
        add(names, types, weight, virtual, -1);
    }

    /**
     * As {@link #add(String[], byte[], long, boolean)}, of the virtual thread whose Java id is {@code virtualThreadId}
     * (-1: not known).
     */
    public void add(String[] names, byte[] types, long weight, boolean virtual, long virtualThreadId) {
        if (names.length > MAX_DEPTH) {
            String[] n = Arrays.copyOf(names, MAX_DEPTH + 1);
            byte[] t = Arrays.copyOf(types, MAX_DEPTH + 1);
            n[MAX_DEPTH] = "[" + (names.length - MAX_DEPTH) + " deeper frames left out]";
            t[MAX_DEPTH] = CPP;
            names = n;
            types = t;
        }
        weights.computeIfAbsent(new Stack(names, types, virtual, virtualThreadId), k -> new long[1])[0] += weight;
        total += weight;
        if (virtual) {
            virtualTotal += weight;
        }
    }

    /** Everything {@code other} holds, added to this. */
    public void addAll(SampleGraph other) {
        other.weights.forEach((k, w) -> weights.computeIfAbsent(k, x -> new long[1])[0] += w[0]);
        total += other.total;
        virtualTotal += other.virtualTotal;
    }

    public long total() {
        return total;
    }

    public long virtualTotal() {
        return virtualTotal;
    }

    public boolean isEmpty() {
        return weights.isEmpty();
    }

    /**
     * One frame's samples: those where it is the innermost frame (self) and those it is on the stack of (total, once a
     * stack).
     */
    public record Frame(String name, long self, long total) {}

    /** Every frame's samples, by frame name. */
    public Map<String, Frame> frames() {
        Map<String, long[]> counts = new HashMap<>();
        Set<String> seen = new HashSet<>();
        weights.forEach((s, w) -> {
            seen.clear();
            for (String name : s.names) {
                if (seen.add(name)) { // a recursive frame counts once a stack
                    counts.computeIfAbsent(name, k -> new long[2])[1] += w[0];
                }
            }
            if (s.names.length > 0) {
                counts.get(s.names[s.names.length - 1])[0] += w[0];
            }
        });
        Map<String, Frame> frames = new HashMap<>();
        counts.forEach((name, c) -> frames.put(name, new Frame(name, c[0], c[1])));
        return frames;
    }

    /**
     * What {@link #forEach} hands on: one stack's frames and types, root first, whether a virtual thread ran it, which
     * one (its Java id, -1 when not known), and its samples.
     */
    public interface StackVisitor {
        void visit(String[] names, byte[] types, boolean virtual, long virtualThreadId, long samples);
    }

    /** Every stack with its samples (the arrays are the graph's own: read them, do not change them). */
    public void forEach(StackVisitor visitor) {
        weights.forEach((s, w) -> visitor.visit(s.names, s.types, s.virtual, s.virtualThreadId, w[0]));
    }

    /** Adds every stack to {@code graph}, each weight multiplied by {@code scale}. */
    void drawInto(FlameGraph graph, long scale) {
        CallStack stack = new CallStack();
        weights.forEach((s, w) -> {
            for (int i = 0; i < s.names.length; i++) {
                stack.push(s.names[i], s.types[i]);
            }
            graph.addSample(stack, w[0] * scale);
            stack.clear();
        });
    }
}
