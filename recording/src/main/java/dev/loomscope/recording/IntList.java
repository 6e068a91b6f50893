package dev.loomscope.recording;

import java.util.Arrays;

/** A growable list of ints. */
final class IntList {
    private int[] items = new int[64];
    private int size;

    void add(int v) {
        if (size == items.length) {
            items = Arrays.copyOf(items, size * 2);
        }
        items[size++] = v;
    }

    int get(int i) {
        return items[i];
    }

    int size() {
        return size;
    }
}
