package dev.loomscope.workloads.continuation;

import dev.loomscope.workloads.core.Args;
import dev.loomscope.workloads.core.BadArgumentException;
import dev.loomscope.workloads.core.Workload;
import java.util.List;

/**
 * The continuation micro-benchmarks of the Loom project (Freeze, Thaw, FreezeAndThaw, OneShot,
 * Oscillation): a continuation whose frames are {@code stackDepth} deep, each frame taking
 * {@code paramCount} arguments, is frozen (yield) and thawed (run) {@code ops} times. freeze and
 * thaw report the time of their half alone; oscillation climbs from minDepth to maxDepth and back,
 * yielding at every level, {@code repeat} times per op. Needs
 * {@code --add-exports java.base/jdk.internal.vm=ALL-UNNAMED}.
 *
 * <p>{@code java --add-exports java.base/jdk.internal.vm=ALL-UNNAMED -jar loomscope-workloads.jar continuation
 * [--case freeze-and-thaw] [--param-count 1] [--stack-depth 5] [--ops 100000]}
 */
public final class ContinuationWorkload implements Workload {
    public static final List<String> CASES = List.of("freeze", "thaw", "freeze-and-thaw", "one-shot", "oscillation");

    private final String kase;
    private final int paramCount;
    private final int stackDepth;
    private final int minDepth;
    private final int maxDepth;
    private final int repeat;
    private final int ops;
    private final Continuations c = new Continuations("loomscope");
    private long halfNanos;
    private long markNanos;
    private long sink;

    ContinuationWorkload(String kase, int paramCount, int stackDepth, int minDepth, int maxDepth, int repeat, int ops) {
        this.kase = kase;
        this.paramCount = paramCount;
        this.stackDepth = stackDepth;
        this.minDepth = minDepth;
        this.maxDepth = maxDepth;
        this.repeat = repeat;
        this.ops = ops;
    }

    public static ContinuationWorkload of(Args a) {
        String kase = a.oneOf("case", "freeze-and-thaw", CASES);
        a.oneOf("threads", "virtual", List.of("virtual", "platform")); // accepted for symmetry; continuations are below both
        int pc = a.integer("param-count", 1, 1, 3);
        int depth = a.integer("stack-depth", 5, 1, 10_000);
        int min = a.integer("min-depth", 2, 1, 1000);
        int max = a.integer("max-depth", 5, 1, 1000);
        if (min > max) {
            throw new BadArgumentException("continuation: --min-depth " + min + " is above --max-depth " + max);
        }
        return new ContinuationWorkload(kase, pc, depth, min, max, a.integer("repeat", 10, 1, 1_000_000), a.integer("ops", 100_000, 1, 1_000_000_000));
    }

    @Override
    public String threadKind() {
        return "continuation";
    }

    @Override
    public String unit() {
        return "ops";
    }

    @Override
    public String params() {
        return kase.equals("oscillation") ? "case=oscillation minDepth=" + minDepth + " maxDepth=" + maxDepth + " repeat=" + repeat + " ops=" + ops
                : "case=" + kase + " paramCount=" + paramCount + " stackDepth=" + stackDepth + " ops=" + ops;
    }

    @Override
    public Run run() throws Exception {
        try {
            return runOps();
        } catch (Exception | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    private Run runOps() throws Throwable {
        halfNanos = 0;
        switch (kase) {
            case "one-shot" -> {
                for (int i = 0; i < ops; i++) {
                    Object k = c.create(() -> sink += descend(stackDepth, 1, 2, 3));
                    Continuations.run(k);
                    Continuations.run(k);
                    check(k);
                }
            }
            case "oscillation" -> {
                for (int i = 0; i < ops; i++) {
                    Object k = c.create(this::oscillate);
                    while (!Continuations.isDone(k)) {
                        Continuations.run(k);
                    }
                }
            }
            default -> {
                Object k = c.create(() -> {
                    while (true) {
                        sink += descend(stackDepth, 1, 2, 3);
                    }
                });
                Continuations.run(k); // to the first yield
                for (int i = 0; i < ops; i++) {
                    long t0 = System.nanoTime();
                    Continuations.run(k);
                    if (kase.equals("freeze")) {
                        halfNanos += System.nanoTime() - markNanos; // from the yield to run()'s return
                    } else if (kase.equals("thaw")) {
                        halfNanos += markNanos - t0; // thawed: from run() to the yield point
                    }
                }
            }
        }
        String note = kase.equals("freeze") || kase.equals("thaw")
                ? String.format(java.util.Locale.ROOT, "%s alone %.1f ns/op", kase, halfNanos / (double) ops) : null;
        return new Run(ops, Double.NaN, Double.NaN, note);
    }

    private static void check(Object k) throws Throwable {
        if (!Continuations.isDone(k)) {
            throw new IllegalStateException("one-shot continuation not done after two runs");
        }
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
        markNanos = System.nanoTime();
        c.yieldNow();
        markNanos = kase.equals("thaw") ? System.nanoTime() : markNanos;
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
