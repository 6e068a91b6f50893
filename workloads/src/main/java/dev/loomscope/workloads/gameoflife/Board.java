package dev.loomscope.workloads.gameoflife;

import java.util.Arrays;

/**
 * A Game of Life board, cells outside it dead. The seed is Gosper's glider gun (36x9) surrounded by {@code padding}
 * dead cells on each side, so padding 5, 25 and 100 give the 874, 5,074 and 49,324 cells of the original experiment.
 * {@link #step()} is the plain sequential Game of Life the CSP version is checked against.
 */
public final class Board {
    static final String[] SEED = {
        "........................O...........",
        "......................O.O...........",
        "............OO......OO............OO",
        "...........O...O....OO............OO",
        "OO........O.....O...OO..............",
        "OO........O...O.OO....O.O...........",
        "..........O.....O.......O...........",
        "...........O...O....................",
        "............OO......................",
    };

    final int width;
    final int height;
    final boolean[] alive;

    Board(int width, int height, boolean[] alive) {
        this.width = width;
        this.height = height;
        this.alive = alive;
    }

    public static Board seeded(int padding) {
        int w = SEED[0].length() + 2 * padding;
        int h = SEED.length + 2 * padding;
        boolean[] a = new boolean[w * h];
        for (int y = 0; y < SEED.length; y++) {
            for (int x = 0; x < SEED[y].length(); x++) {
                a[(y + padding) * w + x + padding] = SEED[y].charAt(x) == 'O';
            }
        }
        return new Board(w, h, a);
    }

    public int cells() {
        return alive.length;
    }

    /** Indices of the up to 8 neighbours of cell {@code i}. */
    int[] neighbours(int i) {
        int x = i % width;
        int y = i / width;
        int[] n = new int[8];
        int k = 0;
        for (int dy = -1; dy <= 1; dy++) {
            for (int dx = -1; dx <= 1; dx++) {
                int nx = x + dx;
                int ny = y + dy;
                if ((dx != 0 || dy != 0) && nx >= 0 && ny >= 0 && nx < width && ny < height) {
                    n[k++] = ny * width + nx;
                }
            }
        }
        return Arrays.copyOf(n, k);
    }

    static boolean rule(boolean alive, int liveNeighbours) {
        return liveNeighbours == 3 || (alive && liveNeighbours == 2);
    }

    public Board step() {
        boolean[] next = new boolean[alive.length];
        for (int i = 0; i < alive.length; i++) {
            int live = 0;
            for (int n : neighbours(i)) {
                live += alive[n] ? 1 : 0;
            }
            next[i] = rule(alive[i], live);
        }
        return new Board(width, height, next);
    }

    public int population() {
        int p = 0;
        for (boolean b : alive) {
            p += b ? 1 : 0;
        }
        return p;
    }
}
