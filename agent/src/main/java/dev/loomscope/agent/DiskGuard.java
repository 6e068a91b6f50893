package dev.loomscope.agent;

import dev.loomscope.agent.log.AgentLog;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.LongConsumer;

/**
 * Keeps JFR from meeting a full disk. JFR shuts the JVM down when a write to its disk repository finds no space, and
 * something else can fill that disk at any moment (a log, the application itself, at gigabytes a second). So the agent
 * holds a reserve on the repository's disk from before the recording starts, in {@link #STAGES} files, and watches the
 * free space every {@link #POLL_MILLIS} ms from then on (during JFR's own start too). When less than
 * {@link #STOP_FREE_BYTES} is left, it watches every millisecond, lets the other writer run into the full disk first
 * (until the free space holds still, at most {@link #SETTLE_MILLIS}), then asks the session to stop; whenever the disk
 * is full meanwhile, one part of the reserve goes back to the file system, so that what JFR still has to write (its
 * last chunk, a few MB) finds room. A writer that keeps writing after the disk was full takes the reserve too: then JFR
 * may still find no space. The reserve is written with bytes that do not compress, so that the file system really sets
 * the space aside.
 */
final class DiskGuard {
    /** The space held for JFR's last writes: several times the largest last chunk measured (under 4 MB). */
    static final long RESERVE_BYTES = 32L << 20;
    /** The reserve's parts, each given back on its own. */
    static final int STAGES = 4;
    /** Less free than this on a watched disk: the recording stops. */
    static final long STOP_FREE_BYTES = 32L << 20;
    /** Less free than this while stopping: the disk is full, a part of the reserve goes back. */
    static final long FULL_BYTES = 2L << 20;
    /** How often the free space is looked at while it is ample: one statvfs, a few microseconds. */
    static final long POLL_MILLIS = 5;
    /** How long the other writer may go on filling the disk before the recording stops all the same. */
    static final long SETTLE_MILLIS = 1000;

    static final String RESERVE_NAME = "loomscope-reserve-";

    private final List<Path> reserve; // the parts not given back yet
    private final FileStore[] stores;
    private volatile boolean done;

    private DiskGuard(List<Path> reserve, FileStore[] stores) {
        this.reserve = reserve;
        this.stores = stores;
    }

    /**
     * Writes the reserve in {@code reserveDir} (on the repository's disk) and returns the guard of the disks of
     * {@code dirs}; the reserve is at most an eighth of what is free there. Throws when the disks have too little room
     * left, after the reserve, for a recording to start.
     */
    static DiskGuard hold(Path reserveDir, Path... dirs) throws IOException {
        FileStore[] stores = new FileStore[dirs.length];
        for (int i = 0; i < dirs.length; i++) {
            stores[i] = Files.getFileStore(dirs[i]);
        }
        long part = Math.min(RESERVE_BYTES, Files.getFileStore(reserveDir).getUsableSpace() / 8) / STAGES;
        List<Path> parts = new ArrayList<>();
        DiskGuard guard = new DiskGuard(parts, stores);
        try {
            for (int i = 0; i < STAGES; i++) {
                Path file = reserveDir.resolve(RESERVE_NAME + i + ".tmp");
                parts.add(file);
                write(file, part);
            }
            long free = guard.free();
            if (free < STOP_FREE_BYTES) {
                throw new IOException("only " + free / 1024 + " KB free");
            }
        } catch (IOException e) {
            guard.close();
            throw new IllegalStateException(
                    e.getMessage() + " on the disk of JFR's repository (" + reserveDir
                            + ") as the recording starts; nothing will be recorded, so that JFR cannot fill the disk"
                            + " and stop the application",
                    e);
        }
        return guard;
    }

    private static void write(Path file, long size) throws IOException {
        byte[] noise = new byte[1 << 20];
        new Random(file.hashCode()).nextBytes(noise);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            for (long left = size; left > 0; ) {
                ByteBuffer b = ByteBuffer.wrap(noise, 0, (int) Math.min(noise.length, left));
                while (b.hasRemaining()) {
                    left -= ch.write(b);
                }
            }
        }
    }

    /**
     * Watches on a daemon thread until {@link #close()}; when a disk runs low, runs {@code stop} with the free bytes
     * (once, on a thread of its own) and gives the reserve back as the disk fills.
     */
    void watch(LongConsumer stop) {
        Thread.ofPlatform().name("loomscope-agent-disk").daemon().start(() -> {
            try {
                long free;
                while ((free = free()) >= STOP_FREE_BYTES) {
                    if (done) {
                        return;
                    }
                    Thread.sleep(POLL_MILLIS);
                }
                // the other writer runs into the full disk first: until the free space holds still (or SETTLE_MILLIS)
                long settled = System.nanoTime() + SETTLE_MILLIS * 1_000_000;
                for (long before = -1, now = free; now != before && System.nanoTime() < settled && !done; ) {
                    Thread.sleep(1);
                    before = now;
                    now = free();
                    if (now == before && now < FULL_BYTES) {
                        giveBack(1); // it stopped on a full disk: room for what JFR writes next
                        now = free();
                    }
                }
                long low = free;
                Thread stopping = Thread.ofPlatform()
                        .name("loomscope-agent-disk-stop")
                        .daemon()
                        .start(() -> stop.accept(low));
                while (stopping.isAlive()) {
                    giveBackIfFull();
                    Thread.sleep(1);
                }
            } catch (InterruptedException exiting) {
                // the JVM is exiting: the shutdown hook finishes
            } catch (Throwable t) {
                AgentLog.failure("stopped watching the free disk space", t);
            }
        });
    }

    private long free() throws IOException {
        long least = Long.MAX_VALUE;
        for (FileStore store : stores) {
            least = Math.min(least, store.getUsableSpace());
        }
        return least;
    }

    private void giveBackIfFull() throws IOException {
        if (free() < FULL_BYTES) {
            giveBack(1);
        }
    }

    /** Gives up to {@code parts} parts of the reserve back to the file system. */
    private synchronized void giveBack(int parts) {
        for (int i = 0; i < parts && !reserve.isEmpty(); i++) {
            try {
                Files.deleteIfExists(reserve.remove(reserve.size() - 1));
            } catch (IOException ignored) {
                // gone already
            }
        }
    }

    /** Stops watching and gives the whole reserve back; the recording has ended. */
    void close() {
        done = true;
        giveBack(STAGES);
    }
}
