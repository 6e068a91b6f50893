package dev.loomscope.workloads.gameoflife;

import dev.loomscope.options.WorkloadOptions.GameOfLife;
import dev.loomscope.workloads.core.Args;
import dev.loomscope.workloads.core.ThreadKind;
import dev.loomscope.workloads.core.Workload;
import java.util.Arrays;

/**
 * Game of Life CSP (the virtual-thread showcase of the JEP 425 era, and the presentation's perfnorm table): cells as
 * processes exchanging liveness over channels of type BlockingQueue, BlockingTransfer, LockedSingleValue or
 * OneToOneParking; thread per cell or per core (grouped as the talk did, contiguous, by default; or round-robin);
 * padding 5, 25, 100. One run = {@code generations} generations; the metric is frames per second. Each run is checked
 * against the sequential Game of Life.
 *
 * <p>{@code java -jar loomscope-workloads.jar gameoflife --threads virtual|platform [--padding 25] [--channel
 * BlockingQueue] [--thread-per-cell true] [--grouping contiguous|round-robin] [--generations 50]}
 */
public final class GameOfLifeWorkload implements Workload {
    private final ThreadKind kind;
    private final int padding;
    private final String channel;
    private final boolean threadPerCell;
    private final int generations;
    private final String grouping;
    private final Board seed;
    private final Board expected;

    public GameOfLifeWorkload(ThreadKind kind, int padding, String channel, boolean threadPerCell, int generations) {
        this(kind, padding, channel, threadPerCell, generations, CspGameOfLife.CONTIGUOUS);
    }

    public GameOfLifeWorkload(
            ThreadKind kind, int padding, String channel, boolean threadPerCell, int generations, String grouping) {
        this.grouping = grouping;
        this.kind = kind;
        this.padding = padding;
        this.channel = channel;
        this.threadPerCell = threadPerCell;
        this.generations = generations;
        this.seed = Board.seeded(padding);
        Board b = seed;
        for (int g = 0; g < generations; g++) {
            b = b.step();
        }
        this.expected = b;
    }

    public static GameOfLifeWorkload of(Args a) {
        ThreadKind kind = ThreadKind.of(a);
        int padding = a.integer(GameOfLife.PADDING);
        String channel = a.choice(GameOfLife.CHANNEL);
        String perCell = a.choice(GameOfLife.THREAD_PER_CELL);
        int generations = a.integer(GameOfLife.GENERATIONS);
        String grouping = a.choice(GameOfLife.GROUPING);
        return new GameOfLifeWorkload(kind, padding, channel, perCell.equals("true"), generations, grouping);
    }

    @Override
    public About about() {
        return new About(
                kind.label(),
                "frames",
                "padding=" + padding + " cells=" + seed.cells() + " channelType=" + channel + " threadPerCell="
                        + threadPerCell + (threadPerCell ? "" : " grouping=" + grouping) + " generations="
                        + generations);
    }

    @Override
    public Run run() throws Exception {
        Board result = new CspGameOfLife(seed, kind, channel, threadPerCell, grouping).run(generations);
        if (!Arrays.equals(result.alive, expected.alive)) {
            throw new IllegalStateException(
                    "the CSP board differs from the sequential Game of Life after " + generations + " generations");
        }
        return Run.of(generations);
    }
}
