package dev.loomscope.workloads.gameoflife;

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
 * Game of Life as communicating sequential processes: every cell is a process that, each
 * generation, sends its state to each neighbour over a channel, receives theirs, applies the rule
 * and sends its new state to the collector. Thread per cell, or thread per core (cells grouped, each
 * group thread sending for all its cells before receiving).
 */
final class CspGameOfLife {
    private final Board seed;
    private final ThreadKind kind;
    private final String channelType;
    private final boolean threadPerCell;

    CspGameOfLife(Board seed, ThreadKind kind, String channelType, boolean threadPerCell) {
        this.seed = seed;
        this.kind = kind;
        this.channelType = channelType;
        this.threadPerCell = threadPerCell;
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
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        try {
            if (threadPerCell) {
                for (Cell c : cells) {
                    threads.add(kind.start("cell", () -> guarded(failure, () -> {
                        for (int g = 0; g < generations; g++) {
                            c.send();
                            c.receiveAndStep();
                        }
                    })));
                }
            } else {
                int groups = Math.min(Runtime.getRuntime().availableProcessors(), n);
                for (int t = 0; t < groups; t++) {
                    List<Cell> group = new ArrayList<>();
                    for (int i = t; i < n; i += groups) {
                        group.add(cells.get(i));
                    }
                    threads.add(kind.start("cells-" + t, () -> guarded(failure, () -> {
                        for (int g = 0; g < generations; g++) {
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
            int started = threads.size();
            threads.forEach(Thread::interrupt);
            for (Thread t : threads) {
                t.join();
            }
            throw new BadArgumentException("gameoflife: could not start " + (threadPerCell ? n : "the") + " " + kind.label()
                    + " threads (" + started + " started: " + e.getMessage() + "); use --threads virtual or --thread-per-cell false");
        }
        boolean[] frame = new boolean[n];
        try {
            for (int g = 0; g < generations; g++) {
                for (int i = 0; i < n; i++) {
                    frame[i] = cells.get(i).result.receive() == 1;
                }
                if (failure.get() != null) {
                    break;
                }
            }
        } finally {
            if (failure.get() != null) {
                threads.forEach(Thread::interrupt);
            }
            for (Thread t : threads) {
                t.join();
            }
        }
        if (failure.get() != null) {
            throw new IllegalStateException("a cell failed: " + failure.get(), failure.get());
        }
        return new Board(seed.width, seed.height, frame);
    }

    private interface Body {
        void run() throws InterruptedException;
    }

    private static void guarded(AtomicReference<Throwable> failure, Body body) {
        try {
            body.run();
        } catch (InterruptedException stopped) {
            // stopped by the collector after a failure
        } catch (Throwable t) {
            failure.compareAndSet(null, t);
        }
    }
}
