package dev.loomscope.workloads.continuation;

import dev.loomscope.options.WorkloadOptions;
import dev.loomscope.options.WorkloadOptions.Continuation;
import dev.loomscope.workloads.core.Args;
import dev.loomscope.workloads.core.BadArgumentException;
import dev.loomscope.workloads.core.Workload;
import java.util.List;
import java.util.Locale;

/**
 * The continuation micro-benchmarks of the Loom project (Freeze, Thaw, FreezeAndThaw, OneShot, Oscillation): a
 * continuation whose frames are {@code stackDepth} deep, each frame taking {@code paramCount} arguments, is frozen
 * (yield) and thawed (run) {@code ops} times; the operations are {@link ContinuationCases}', shared with the JMH
 * benchmarks. thaw times its thaws alone (the batch is frozen first, untimed, and the note gives ns/op); oscillation
 * climbs from minDepth to maxDepth and back, yielding at every level, {@code repeat} times per op. Needs
 * {@code --add-exports java.base/jdk.internal.vm=ALL-UNNAMED}.
 *
 * <p>{@code java --add-exports java.base/jdk.internal.vm=ALL-UNNAMED -jar loomscope-workloads.jar continuation [--case
 * freeze-and-thaw] [--param-count 1] [--stack-depth 5] [--ops 100000]}
 */
public final class ContinuationWorkload implements Workload {
    public static final List<String> CASES = Continuation.CASE.choices();

    private static final int THAW_BATCH = 10_000;

    private final String kase;
    private final int ops;
    private final String params;
    private final ContinuationCases cases;

    ContinuationWorkload(String kase, int paramCount, int stackDepth, int minDepth, int maxDepth, int repeat, int ops) {
        this.kase = kase;
        this.ops = ops;
        this.cases = new ContinuationCases(paramCount, stackDepth, minDepth, maxDepth, repeat);
        this.params = kase.equals("oscillation")
                ? "case=oscillation minDepth=" + minDepth + " maxDepth=" + maxDepth + " repeat=" + repeat + " ops="
                        + ops
                : "case=" + kase + " paramCount=" + paramCount + " stackDepth=" + stackDepth + " ops=" + ops;
    }

    public static ContinuationWorkload of(Args a) {
        String kase = a.choice(Continuation.CASE);
        a.choice(WorkloadOptions.THREADS); // accepted for symmetry; continuations are below both
        int pc = a.integer(Continuation.PARAM_COUNT);
        int depth = a.integer(Continuation.STACK_DEPTH);
        int min = a.integer(Continuation.MIN_DEPTH);
        int max = a.integer(Continuation.MAX_DEPTH);
        if (min > max) {
            throw new BadArgumentException("continuation: --min-depth " + min + " is above --max-depth " + max);
        }
        return new ContinuationWorkload(
                kase, pc, depth, min, max, a.integer(Continuation.REPEAT), a.integer(Continuation.OPS));
    }

    @Override
    public About about() {
        return new About("continuation", "ops", params);
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
        String note = null;
        switch (kase) {
            case "freeze" -> {
                for (int i = 0; i < ops; i++) {
                    cases.frozen();
                }
            }
            case "thaw" -> {
                // Freezing the batch is setup: only the thaws are timed, as the JMH benchmark does.
                long thawNanos = 0;
                Object[] batch = new Object[Math.min(ops, THAW_BATCH)];
                for (int done = 0; done < ops; done += batch.length) {
                    int size = Math.min(batch.length, ops - done);
                    for (int i = 0; i < size; i++) {
                        batch[i] = cases.frozen();
                    }
                    long t0 = System.nanoTime();
                    for (int i = 0; i < size; i++) {
                        cases.thawToEnd(batch[i]);
                    }
                    thawNanos += System.nanoTime() - t0;
                }
                note = String.format(Locale.ROOT, "thaw alone %.1f ns/op", thawNanos / (double) ops);
            }
            case "one-shot" -> {
                for (int i = 0; i < ops; i++) {
                    cases.oneShot();
                }
            }
            case "oscillation" -> {
                for (int i = 0; i < ops; i++) {
                    cases.oscillation();
                }
            }
            default -> {
                Object k = cases.looping();
                for (int i = 0; i < ops; i++) {
                    ContinuationCases.resume(k);
                }
            }
        }
        return new Run(ops, Double.NaN, Double.NaN, note);
    }
}
