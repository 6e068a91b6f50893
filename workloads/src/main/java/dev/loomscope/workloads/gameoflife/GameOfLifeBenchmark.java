package dev.loomscope.workloads.gameoflife;

import dev.loomscope.workloads.core.ThreadKind;
import dev.loomscope.workloads.jmh.SeedBenchmark;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The Game of Life CSP benchmark of the presentation's perfnorm table: one operation is one generation (a frame) of the
 * {@link GameOfLifeWorkload}'s game, whose cell threads run for the whole trial. At the end of the trial the last frame
 * is checked against the sequential Game of Life after as many generations.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class GameOfLifeBenchmark extends SeedBenchmark {
    @Param({"5", "25", "100"})
    public int padding;

    @Param({"true", "false"})
    public boolean useVirtualThreads;

    @Param({"true", "false"})
    public boolean threadPerCell;

    @Param({"BlockingQueue", "BlockingTransfer", "LockedSingleValue", "OneToOneParking"})
    public String channelType;

    /**
     * Thread per core: the talk's contiguous groups; -p grouping=round-robin for the other (thread per cell ignores
     * it).
     */
    @Param({"contiguous"})
    public String grouping;

    private Board seed;
    private CspGameOfLife.Game game;
    private Board last;
    private long generations;

    @Setup
    public void start() {
        seed = Board.seeded(padding);
        ThreadKind kind = useVirtualThreads ? ThreadKind.VIRTUAL : ThreadKind.PLATFORM;
        game = new CspGameOfLife(seed, kind, channelType, threadPerCell, grouping).start(Long.MAX_VALUE);
    }

    @Benchmark
    public Board frame() throws InterruptedException {
        last = game.nextFrame();
        generations++;
        return last;
    }

    @TearDown
    public void stopAndCheck() {
        game.close();
        Board expected = seed;
        for (long g = 0; g < generations; g++) {
            expected = expected.step();
        }
        if (last != null && !Arrays.equals(last.alive, expected.alive)) {
            throw new IllegalStateException(
                    "the CSP board differs from the sequential Game of Life after " + generations + " generations");
        }
    }
}
