package dev.loomscope.recording;

/** The chain of a chunk's checkpoints, as the JDK's parser follows it (see {@link #isSound}). */
final class CheckpointChain {
    private CheckpointChain() {}

    /**
     * Whether the chain of checkpoints the JDK's parser follows is sound: from the header's constant pool offset, each
     * checkpoint's delta leads to the next (the JDK's writer points back to the one before, other writers may point
     * forward), landing on checkpoints this walk found, none twice, until a delta of 0. This reader does not follow it
     * (it reads every event in order, checkpoints too), so a chain that is not sound is said, not damage: Datadog's
     * profiler writes deltas the JDK's parser cannot follow, and a parser that follows a chain in a circle goes round
     * for ever.
     */
    static boolean isSound(long constantPoolOffset, IntList checkpoints, ChunkMemory memory, boolean compressed) {
        long offset = constantPoolOffset;
        if (offset == 0 || checkpoints.size() == 0) {
            return true; // no checkpoint, or a chunk whose header was never finished: nothing to follow
        }
        for (int steps = 0; steps < checkpoints.size() && isCheckpoint(checkpoints, offset); steps++) {
            Cursor c = new Cursor(memory, compressed, (int) offset);
            c.readInt(); // size
            c.readLong(); // type (1)
            c.readLong(); // start
            c.readLong(); // duration
            long delta = c.readLong();
            if (delta == 0) {
                return true;
            }
            offset += delta;
        }
        return false;
    }

    private static boolean isCheckpoint(IntList checkpoints, long offset) {
        int lo = 0;
        int hi = checkpoints.size() - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int v = checkpoints.get(mid);
            if (v == offset) {
                return true;
            }
            if (v < offset) {
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return false;
    }
}
