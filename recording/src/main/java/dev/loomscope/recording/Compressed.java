package dev.loomscope.recording;

import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipFile;
import net.jpountz.lz4.LZ4FrameInputStream;

/**
 * Recordings stored compressed, opened as JMC opens them: a gzip stream (.jfr.gz or any name), a zip holding one .jfr,
 * an LZ4 frame stream. Told apart by their first bytes, expanded into a temporary file (the reader walks chunks by
 * offset), which the caller deletes. Bounded: the content must start with JFR's magic before anything is written, and
 * it may expand to at most {@link #maxExpansion} times the compressed size (a compression bomb stops there); the
 * temporary file goes with Ctrl-C and SIGTERM too ({@link TempFiles}).
 */
public final class Compressed {
    /** Recordings compress 3 to 15 times; 50 leaves room and stops a bomb early. Raised by {@code --max-expansion}. */
    public static final int DEFAULT_MAX_EXPANSION = 50;

    private static volatile int maxExpansion = DEFAULT_MAX_EXPANSION;
    /** Small files may expand to this much whatever their ratio (a tiny recording compresses better). */
    static final long MIN_LIMIT = 64L << 20;

    /** A compression format, by its magic bytes. */
    public enum Kind {
        GZIP("gzip"),
        ZIP("zip"),
        LZ4("LZ4 frame");

        final String label;

        Kind(String label) {
            this.label = label;
        }
    }

    private Compressed() {}

    /** How many times its compressed size a recording may expand to, for this run. */
    public static void maxExpansion(int times) {
        maxExpansion = times;
    }

    /** The compression of {@code file}, or null for anything else (a plain .jfr among them). */
    public static Kind detect(Path file) throws BadRecordingException {
        JfrFileCheck.notSpecial(file);
        byte[] head = new byte[4];
        int n;
        try (InputStream in = Files.newInputStream(file)) {
            n = in.readNBytes(head, 0, 4);
        } catch (IOException e) {
            return null; // not readable: the plain checks say so
        }
        if (n >= 2 && (head[0] & 0xFF) == 0x1F && (head[1] & 0xFF) == 0x8B) {
            return Kind.GZIP;
        }
        if (n == 4 && head[0] == 'P' && head[1] == 'K' && head[2] == 3 && head[3] == 4) {
            return Kind.ZIP;
        }
        if (n == 4
                && (head[0] & 0xFF) == 0x04
                && (head[1] & 0xFF) == 0x22
                && (head[2] & 0xFF) == 0x4D
                && (head[3] & 0xFF) == 0x18) {
            return Kind.LZ4;
        }
        return null;
    }

    /** Expands {@code file} into a new temporary file; bad input names the file and where its stream ends or breaks. */
    public static Path expand(Path file, Kind kind, Consumer<String> warnings) throws BadRecordingException {
        Path abs = file.toAbsolutePath();
        Path tmp;
        try {
            tmp = TempFiles.create("loomscope-expanded-", ".jfr");
        } catch (IOException e) {
            throw new BadRecordingException(
                    abs + ": cannot make a temporary file to expand it into: " + e.getMessage()
                            + " (check the space in " + System.getProperty("java.io.tmpdir") + ")",
                    e);
        }
        try {
            switch (kind) {
                case GZIP, LZ4 -> stream(abs, kind, tmp, warnings);
                case ZIP -> zip(abs, tmp);
            }
            return tmp;
        } catch (BadRecordingException | RuntimeException e) {
            TempFiles.delete(tmp);
            throw e;
        }
    }

    private static void stream(Path abs, Kind kind, Path tmp, Consumer<String> warnings) throws BadRecordingException {
        try (Counting counted = new Counting(Files.newInputStream(abs));
                InputStream in = kind == Kind.GZIP ? new GzipMembers(counted) : new LZ4FrameInputStream(counted);
                OutputStream out = Files.newOutputStream(tmp)) {
            try {
                copyBounded(abs, kind.label, in, out, Files.size(abs));
                if (in instanceof GzipMembers g && g.trailing() > 0) {
                    warnings.accept(abs + ": " + g.trailing() + " bytes after the gzip stream (from byte "
                            + (Files.size(abs) - g.trailing())
                            + ") are not gzip: left out (something was appended to the file, or it is damaged)");
                }
            } catch (EOFException e) {
                throw new BadRecordingException(
                        abs + ": the " + kind.label + " stream ends at byte " + counted.count
                                + " before its data does (the compressed file is cut short)",
                        e);
            } catch (IOException e) {
                if (e.getMessage() != null && e.getMessage().contains("No space left")) {
                    throw new BadRecordingException(
                            abs + ": cannot expand it: no space left in " + System.getProperty("java.io.tmpdir"), e);
                }
                throw new BadRecordingException(
                        abs + ": the " + kind.label + " stream is damaged near byte " + counted.count + ": "
                                + e.getMessage() + " (the compressed file is damaged)",
                        e);
            }
        } catch (IOException e) {
            throw new BadRecordingException(
                    abs + ": cannot read it as " + kind.label + ": " + e.getMessage() + " (check the file)", e);
        }
    }

    private static void zip(Path abs, Path tmp) throws BadRecordingException {
        try (ZipFile zip = new ZipFile(abs.toFile())) {
            List<ZipEntry> recordings = new ArrayList<>();
            List<String> names = new ArrayList<>();
            for (Enumeration<? extends ZipEntry> e = zip.entries(); e.hasMoreElements(); ) {
                ZipEntry entry = e.nextElement();
                names.add(entry.getName());
                if (!entry.isDirectory() && entry.getName().endsWith(".jfr")) {
                    recordings.add(entry);
                }
            }
            if (recordings.isEmpty()) {
                throw new BadRecordingException(abs + ": a zip without a .jfr inside (it holds "
                        + (names.isEmpty()
                                ? "nothing"
                                : String.join(", ", names.subList(0, Math.min(5, names.size())))
                                        + (names.size() > 5 ? ", ..." : ""))
                        + ")");
            }
            if (recordings.size() > 1) {
                throw new BadRecordingException(abs + ": a zip with " + recordings.size()
                        + " .jfr files inside (unzip it and name the recordings)");
            }
            try (InputStream in = zip.getInputStream(recordings.get(0));
                    OutputStream out = Files.newOutputStream(tmp)) {
                copyBounded(abs, "zip", in, out, Files.size(abs));
            }
        } catch (ZipException e) {
            throw new BadRecordingException(
                    abs + ": a damaged zip: " + e.getMessage() + " (the compressed file is damaged or cut short)", e);
        } catch (EOFException e) {
            throw new BadRecordingException(
                    abs + ": the zip ends before its .jfr does (the compressed file is cut short)", e);
        } catch (IOException e) {
            throw new BadRecordingException(
                    abs + ": cannot read it as a zip: " + e.getMessage() + " (check the file)", e);
        }
    }

    /**
     * Copies the expanded content, first checking that it starts with {@code FLR\0} (nothing is written otherwise), and
     * stopping with bad data past the expansion limit.
     */
    private static void copyBounded(Path abs, String label, InputStream in, OutputStream out, long compressedSize)
            throws IOException, BadRecordingException {
        byte[] head = in.readNBytes(4);
        if (head.length < 4 || !ChunkHeader.hasMagic(ByteBuffer.wrap(head), 0)) {
            throw new BadRecordingException(abs + ": a " + label
                    + " file whose content is not a JFR recording (it does not start with FLR\\0)");
        }
        long limit = Math.max(MIN_LIMIT, compressedSize * maxExpansion);
        out.write(head);
        long written = head.length;
        byte[] buf = new byte[1 << 16];
        for (int n = in.read(buf); n >= 0; n = in.read(buf)) {
            written += n;
            if (written > limit) {
                throw new BadRecordingException(String.format(
                        Locale.ROOT,
                        "%s: expands to more than %d times its compressed size (%d MB), more than a recording does: a"
                                + " compression bomb? (--max-expansion N raises the limit)",
                        abs,
                        maxExpansion,
                        limit >> 20));
            }
            out.write(buf, 0, n);
        }
    }

    /** Counts the compressed bytes read, for where a stream ends. */
    private static final class Counting extends FilterInputStream {
        long count;

        Counting(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                count++;
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0) {
                count += n;
            }
            return n;
        }

        @Override
        public long skip(long n) throws IOException {
            long s = super.skip(n);
            count += s;
            return s;
        }
    }
}
