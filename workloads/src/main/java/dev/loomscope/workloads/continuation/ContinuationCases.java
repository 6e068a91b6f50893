package dev.loomscope.workloads.continuation;

/**
 * The operations the continuation experiments time, shared by {@link ContinuationWorkload} and the JMH benchmarks
 * ({@link Freeze}, {@link Thaw}, {@link FreezeAndThaw}, {@link OneShot}, {@link Oscillation}): a continuation whose
 * frames are {@code stackDepth} deep, each taking {@code paramCount} live arguments, yields at the bottom.
 *
 * <ul>
 *   <li>{@link #frozen()}: create a continuation, descend, freeze at the yield (the freeze op);
 *   <li>{@link #thawToEnd(Object)}: thaw a frozen one and return to its end (the thaw op);
 *   <li>{@link #resume(Object)} on a {@link #looping()} continuation: thaw, return, descend and freeze again (the
 *       freeze-and-thaw op);
 *   <li>{@link #oneShot()}: create, run to the yield, run to the end (the one-shot op);
 *   <li>{@link #oscillation()}: climb from 1 to maxDepth and back {@code repeat} times, yielding at every level from
 *       minDepth on (the oscillation op).
 * </ul>
 */
public final class ContinuationCases {
    private final Continuations c = new Continuations("loomscope");
    private final int paramCount;
    private final int stackDepth;
    private final int minDepth;
    private final int maxDepth;
    private final int repeat;
    private long sink;

    public ContinuationCases(int paramCount, int stackDepth, int minDepth, int maxDepth, int repeat) {
        this.paramCount = paramCount;
        this.stackDepth = stackDepth;
        this.minDepth = minDepth;
        this.maxDepth = maxDepth;
        this.repeat = repeat;
    }

    /** A new continuation, run down {@code stackDepth} frames and frozen at its yield. */
    public Object frozen() throws Throwable {
        Object k = c.create(() -> sink += descend(stackDepth, 1, 2, 3));
        Continuations.run(k);
        return k;
    }

    /** Thaws a {@link #frozen()} continuation and runs it to its end. */
    public void thawToEnd(Object k) throws Throwable {
        Continuations.run(k);
        if (!Continuations.isDone(k)) {
            throw new IllegalStateException("the continuation yielded again instead of ending");
        }
    }

    /** A continuation that descends and yields forever, already at its first yield. */
    public Object looping() throws Throwable {
        Object k = c.create(() -> {
            while (true) {
                sink += descend(stackDepth, 1, 2, 3);
            }
        });
        Continuations.run(k);
        return k;
    }

    /** One thaw and one freeze of a {@link #looping()} continuation. */
    public static void resume(Object looping) throws Throwable {
        Continuations.run(looping);
    }

    /** Create, run to the yield, run to the end. */
    public void oneShot() throws Throwable {
        thawToEnd(frozen());
    }

    /** One oscillating continuation run until it is done; returns how many times it yielded. */
    public int oscillation() throws Throwable {
        Object k = c.create(this::oscillate);
        int yields = -1;
        while (!Continuations.isDone(k)) {
            Continuations.run(k);
            yields++;
        }
        return yields;
    }

    /** What the results fed into, so that no computation is dead code. */
    public long sink() {
        return sink;
    }

    /** Recurse to depth with paramCount live arguments, then yield once. */
    private long descend(int depth, long a, long b, long cc) {
        if (depth > 1) {
            return switch (paramCount) {
                case 1 -> descend(depth - 1, a + 1, 0, 0) + 1;
                case 2 -> descend(depth - 1, a + 1, b + a, 0) + 1;
                default -> descend(depth - 1, a + 1, b + a, cc + b) + 1;
            };
        }
        c.yieldNow();
        return a + b + cc;
    }

    private void oscillate() {
        for (int r = 0; r < repeat; r++) {
            climb(1);
        }
    }

    private void climb(int depth) {
        if (depth >= minDepth) {
            c.yieldNow();
        }
        if (depth < maxDepth) {
            climb(depth + 1);
            if (depth >= minDepth) {
                c.yieldNow();
            }
        }
    }
}
