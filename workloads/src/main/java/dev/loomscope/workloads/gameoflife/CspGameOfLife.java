package dev.loomscope.workloads.gameoflife;

import dev.loomscope.options.WorkloadOptions;
import dev.loomscope.workloads.channels.Channels;
import dev.loomscope.workloads.channels.LongChannel;
import dev.loomscope.workloads.core.BadArgumentException;
import dev.loomscope.workloads.core.ThreadKind;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Game of Life as communicating sequential processes: every cell is a process that, each generation, sends its state to
 * each neighbour over a channel, receives theirs, applies the rule and sends its new state to the collector. Thread per
 * cell, or thread per core: cells grouped, each group's thread sending for all its cells before receiving, grouped as
 * the talk ("Game of Loom") did ({@link #CONTIGUOUS}) or round-robin ({@link #ROUND_ROBIN}).
 */
final class CspGameOfLife {
    /**
     * The talk's grouping: n-1 groups of contiguous cells (n = cores), the collector being the n-th thread. Most
     * neighbours share a group, so most hand-offs stay within one thread.
     */
    static final String CONTIGUOUS = "contiguous";
    /**
     * n groups, cell i in group i mod n: a cell's left and right neighbours are in other groups, so most hand-offs
     * cross threads.
     */
    static final String ROUND_ROBIN = "round-robin";

    static final List<String> GROUPINGS = WorkloadOptions.GameOfLife.GROUPING.choices();

    private final Board seed;
    private final ThreadKind kind;
    private final String channelType;
    private final boolean threadPerCell;
    private final String grouping;

    CspGameOfLife(Board seed, ThreadKind kind, String channelType, boolean threadPerCell, String grouping) {
        this.seed = seed;
        this.kind = kind;
        this.channelType = channelType;
        this.threadPerCell = threadPerCell;
        this.grouping = grouping;
        if (!GROUPINGS.contains(grouping)) {
            throw new IllegalArgumentException("grouping: " + grouping);
        }
    }

    /** The cells of each thread-per-core group, by cell index. */
    static List<List<Integer>> groups(int cells, int cores, String grouping) {
        List<List<Integer>> groups = new ArrayList<>();
        if (grouping.equals(CONTIGUOUS)) {
            int count = Math.max(1, Math.min(cores - 1, cells));
            for (int t = 0; t < count; t++) {
                List<Integer> g = new ArrayList<>();
                for (int i = (int) ((long) cells * t / count); i < (int) ((long) cells * (t + 1) / count); i++) {
                    g.add(i);
                }
                groups.add(g);
            }
        } else {
            int count = Math.max(1, Math.min(cores, cells));
            for (int t = 0; t < count; t++) {
                List<Integer> g = new ArrayList<>();
                for (int i = t; i < cells; i += count) {
                    g.add(i);
                }
                groups.add(g);
            }
        }
        return groups;
    }

    /** A cell's channels: to and from each neighbour, and to the collector. */
    private static final class Cell {
        final int index;
        boolean alive;
        LongChannel[] out;
        LongChannel[] in;
        LongChannel result;

        Cell(int index, boolean alive) {
            this.index = index;
            this.alive = alive;
        }

        void send() throws InterruptedException {
            long v = alive ? 1 : 0;
            for (LongChannel c : out) {
                c.send(v);
            }
        }

        void receiveAndStep() throws InterruptedException {
            int live = 0;
            for (LongChannel c : in) {
                live += (int) c.receive();
            }
            alive = Board.rule(alive, live);
            result.send(alive ? 1 : 0);
        }
    }

    /** Runs {@code generations} generations; returns the final board. */
    Board run(int generations) throws InterruptedException {
        try (Game game = start(generations)) {
            Board frame = seed;
            for (int g = 0; g < generations; g++) {
                frame = game.nextFrame();
            }
            return frame;
        }
    }

    /**
     * Starts the cells' threads for {@code generations} generations ({@link Long#MAX_VALUE}: until closed); the caller
     * collects each generation with {@link Game#nextFrame()}.
     */
    Game start(long generations) {
        int n = seed.cells();
        List<Cell> cells = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            Cell c = new Cell(i, seed.alive[i]);
            c.result = Channels.create(channelType);
            cells.add(c);
        }
        Map<Long, LongChannel> links = new HashMap<>();
        for (Cell c : cells) {
            int[] nb = seed.neighbours(c.index);
            c.out = new LongChannel[nb.length];
            c.in = new LongChannel[nb.length];
            for (int k = 0; k < nb.length; k++) {
                c.out[k] = links.computeIfAbsent((long) c.index * n + nb[k], x -> Channels.create(channelType));
                c.in[k] = links.computeIfAbsent((long) nb[k] * n + c.index, x -> Channels.create(channelType));
            }
        }
        links.clear();
        Game game = new Game(seed, cells);
        try {
            if (threadPerCell) {
                for (Cell c : cells) {
                    game.threads.add(kind.start(
                            "cell",
                            () -> game.guarded(() -> {
                                for (long g = 0; g < generations; g++) {
                                    c.send();
                                    c.receiveAndStep();
                                }
                            })));
                }
            } else {
                List<List<Integer>> groups = groups(n, Runtime.getRuntime().availableProcessors(), grouping);
                for (int t = 0; t < groups.size(); t++) {
                    List<Cell> group = groups.get(t).stream().map(cells::get).toList();
                    game.threads.add(kind.start(
                            "cells-" + t,
                            () -> game.guarded(() -> {
                                for (long g = 0; g < generations; g++) {
                                    for (Cell c : group) {
                                        c.send();
                                    }
                                    for (Cell c : group) {
                                        c.receiveAndStep();
                                    }
                                }
                            })));
                }
            }
        } catch (OutOfMemoryError e) {
            int started = game.threads.size();
            game.stop();
            throw new BadArgumentException("gameoflife: could not start " + (threadPerCell ? n : "the") + " "
                    + kind.label() + " threads (" + started + " started: " + e.getMessage()
                    + "); use --threads virtual or --thread-per-cell false");
        }
        return game;
    }

    /** A running game: its threads compute generation after generation as the frames are collected. */
    static final class Game implements AutoCloseable {
        private final Board seed;
        private final List<Cell> cells;
        private final List<Thread> threads = new ArrayList<>();
        private final AtomicReference<Throwable> failure = new AtomicReference<>();

        private Game(Board seed, List<Cell> cells) {
            this.seed = seed;
            this.cells = cells;
        }

        /** Collects the next generation from every cell. */
        Board nextFrame() throws InterruptedException {
            boolean[] frame = new boolean[cells.size()];
            for (int i = 0; i < frame.length; i++) {
                frame[i] = cells.get(i).result.receive() == 1;
            }
            if (failure.get() != null) {
                throw new IllegalStateException("a cell failed: " + failure.get(), failure.get());
            }
            return new Board(seed.width, seed.height, frame);
        }

        private void guarded(Body body) {
            try {
                body.run();
            } catch (InterruptedException stopped) {
                // stopped by close()
            } catch (Throwable t) {
                failure.compareAndSet(null, t);
            }
        }

        private void stop() {
            threads.forEach(Thread::interrupt);
            boolean interrupted = false;
            for (Thread t : threads) {
                while (true) {
                    try {
                        t.join();
                        break;
                    } catch (InterruptedException e) {
                        interrupted = true;
                    }
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }

        /** Stops every cell thread (those already finished included) and waits for them. */
        @Override
        public void close() {
            stop();
        }
    }

    private interface Body {
        void run() throws InterruptedException;
    }
}
