package dev.loomscope.recording;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The walk over a JFR file's chunks: the one place that decides where each chunk starts and where the whole chunks end.
 * Every reader takes its chunks from here (the analyzer's scan and fast reader, the flame graphs' copy of a profile,
 * the agent's trace of pins and its property mask) and decides only what the walk's {@link End} means to it: a warning,
 * damage, or nothing. A size field is checked against the file, never trusted for an allocation.
 */
public final class Chunks {
    private Chunks() {}

    /** Why the walk ended where it did. */
    public enum End {
        /** At the end of the file (or of the part walked), after a whole chunk. */
        WHOLE,
        /** Fewer bytes left than a chunk header takes: the file was cut inside a header. */
        SHORT_HEADER,
        /** No {@code FLR\0} where a chunk should start: damage. */
        NO_MAGIC,
        /** The size field is 0 (never written) or runs past the end: a chunk being written, or a file cut short. */
        INCOMPLETE,
        /** The size field is smaller than a header: damage. */
        BAD_SIZE
    }

    /** A whole chunk: its number (from 1), where it starts, its header. */
    public record Chunk(int number, long offset, ChunkHeader header) {
        /** The offset just past it. */
        public long end() {
            return offset + header.size();
        }
    }

    /**
     * @param chunks the whole chunks, in file order
     * @param end why the walk stopped
     * @param at where it stopped: the length of the prefix made of whole chunks
     * @param header the header at {@link #at} when the walk stopped at an {@link End#INCOMPLETE} or
     *     {@link End#BAD_SIZE} one, else null
     */
    public record Walk(List<Chunk> chunks, End end, long at, ChunkHeader header) {
        public Walk {
            chunks = List.copyOf(chunks);
        }

        /**
         * Where the first whole chunk that ends at or after {@code epochNanos} begins (its header's start plus
         * duration); {@link #at} if none does. A reader of the recent events can skip what comes before.
         */
        public long firstEndingAfter(long epochNanos) {
            return chunks.stream()
                    .filter(c -> c.header().endNanos() >= epochNanos)
                    .mapToLong(Chunk::offset)
                    .findFirst()
                    .orElse(at);
        }
    }

    /** Reads a header's bytes at an offset into a buffer; returns how many it read. */
    @FunctionalInterface
    private interface HeaderSource {
        int read(ByteBuffer into, long offset) throws IOException;
    }

    public static Walk walk(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            return walk(ch, ch.size());
        }
    }

    /** The chunks of the first {@code length} bytes of {@code ch}. */
    public static Walk walk(FileChannel ch, long length) throws IOException {
        return walk(length, (into, offset) -> {
            int n = 0;
            while (into.hasRemaining()) {
                int r = ch.read(into, offset + n);
                if (r < 0) {
                    break;
                }
                n += r;
            }
            return n;
        });
    }

    /** The chunks of a recording in memory (from position 0 to the limit). */
    public static Walk walk(ByteBuffer bytes) {
        try {
            return walk(bytes.limit(), (into, offset) -> {
                int n = (int) Math.min(into.remaining(), bytes.limit() - offset);
                into.put(bytes.slice((int) offset, n));
                return n;
            });
        } catch (IOException e) {
            throw new IllegalStateException(e); // memory does not fail to read
        }
    }

    private static Walk walk(long length, HeaderSource source) throws IOException {
        List<Chunk> chunks = new ArrayList<>();
        ByteBuffer head = ByteBuffer.allocate(ChunkHeader.SIZE);
        long offset = 0;
        while (offset < length) {
            head.clear();
            if (length - offset < ChunkHeader.SIZE || source.read(head, offset) < ChunkHeader.SIZE) {
                return new Walk(chunks, End.SHORT_HEADER, offset, null);
            }
            if (!ChunkHeader.hasMagic(head, 0)) {
                return new Walk(chunks, End.NO_MAGIC, offset, null);
            }
            ChunkHeader h = ChunkHeader.of(head, 0);
            if (h.size() == 0 || h.size() > length - offset) {
                return new Walk(chunks, End.INCOMPLETE, offset, h);
            }
            if (h.size() < ChunkHeader.SIZE) {
                return new Walk(chunks, End.BAD_SIZE, offset, h);
            }
            chunks.add(new Chunk(chunks.size() + 1, offset, h));
            offset += h.size();
        }
        return new Walk(chunks, End.WHOLE, offset, null);
    }

    /**
     * The length of the prefix of {@code file} made of whole chunks: a chunk still being written (its size a
     * placeholder, or running past the end of the file) and what follows it are left out. A file its writer is
     * appending to can be copied this far.
     */
    public static long wholeLength(Path file) throws IOException {
        return walk(file).at();
    }

    /** Bytes a read of a chunk asks for at a time. */
    private static final int READ_PIECE = 1 << 20;

    /**
     * Reads {@code length} bytes of {@code ch} from {@code offset} into {@code into} from index {@code from}; a file
     * that ends before them is damage to chunk {@code number}, which starts at {@code chunkStart}. A read into an array
     * goes through a direct buffer of the read's size, made per thread and made again when a read is larger: a megabyte
     * at a time keeps that one small buffer warm.
     */
    static void read(FileChannel ch, long chunkStart, long offset, byte[] into, int from, int length, int number)
            throws IOException {
        ByteBuffer buf = ByteBuffer.wrap(into, from, length);
        int end = from + length;
        while (buf.position() < end) {
            buf.limit(Math.min(end, buf.position() + READ_PIECE));
            if (ch.read(buf, offset + buf.position() - from) < 0) {
                throw new DamagedRecordingException(
                        number, chunkStart, offset + buf.position() - from, "the file ends inside the chunk", null);
            }
        }
    }
}
