package dev.loomscope.recording;

import java.util.Arrays;

/** An open-addressing map from long keys to int values (a constant pool's ids to their offsets), no boxing. */
final class LongIntMap {
    private static final int ABSENT = -1;
    private long[] keys = new long[16];
    private int[] values = new int[16];
    private boolean[] used = new boolean[16];
    private int size;

    LongIntMap() {
        Arrays.fill(values, ABSENT);
    }

    void put(long key, int value) {
        if ((size + 1) * 2 > keys.length) {
            grow();
        }
        int i = slot(key, keys, used);
        if (!used[i]) {
            used[i] = true;
            keys[i] = key;
            size++;
        }
        values[i] = value;
    }

    /** The value, or -1. */
    int get(long key) {
        int i = slot(key, keys, used);
        return used[i] ? values[i] : ABSENT;
    }

    int size() {
        return size;
    }

    private static int slot(long key, long[] keys, boolean[] used) {
        int mask = keys.length - 1;
        int i = (int) (mix(key) & mask);
        while (used[i] && keys[i] != key) {
            i = (i + 1) & mask;
        }
        return i;
    }

    private static long mix(long k) {
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        return k ^ (k >>> 33);
    }

    private void grow() {
        long[] oldKeys = keys;
        int[] oldValues = values;
        boolean[] oldUsed = used;
        keys = new long[oldKeys.length * 2];
        values = new int[oldKeys.length * 2];
        used = new boolean[oldKeys.length * 2];
        for (int j = 0; j < oldKeys.length; j++) {
            if (oldUsed[j]) {
                int i = slot(oldKeys[j], keys, used);
                used[i] = true;
                keys[i] = oldKeys[j];
                values[i] = oldValues[j];
            }
        }
    }
}
