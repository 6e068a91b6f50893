package dev.loomscope.analyzer.read;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/**
 * Streams the events of one recording, one at a time (never a list of them), chunk structure
 * checked first. Warnings (a truncated last chunk) go to {@code warnings}.
 */
public final class RecordingReader {
    private RecordingReader() {}

    public static void read(RecordingSource source, Consumer<RecordedEvent> sink, Consumer<String> warnings) {
        for (Path part : source.parts()) {
            ChunkScan.Result scan;
            try {
                scan = ChunkScan.scan(part);
            } catch (BadInputException e) {
                if (source.parts().size() > 1) {
                    warnings.accept(e.getMessage() + "; skipped"); // an unfinished chunk of a repository
                    continue;
                }
                throw e;
            }
            if (scan.warning() != null) {
                warnings.accept(scan.warning());
            }
            Path readable = part;
            Path tmp = null;
            try {
                if (scan.warning() != null) {
                    tmp = Files.createTempFile("loomscope-complete-", ".jfr");
                    copyPrefix(part, tmp, scan.completeBytes());
                    if (scan.unfinishedAt() >= 0) {
                        markFinished(tmp, scan.unfinishedAt() + ChunkScan.STATE_BYTE);
                    }
                    readable = tmp;
                }
                try (RecordingFile rf = new RecordingFile(readable)) {
                    while (rf.hasMoreEvents()) {
                        sink.accept(rf.readEvent());
                    }
                }
            } catch (IOException | RuntimeException e) {
                if (e instanceof BadInputException b) {
                    throw b;
                }
                throw new BadInputException(part.toAbsolutePath() + ": cannot parse: "
                        + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage())
                        + " (the recording is damaged or from an unsupported JDK)", e);
            } finally {
                if (tmp != null) {
                    try {
                        Files.deleteIfExists(tmp);
                    } catch (IOException ignored) {
                        // a temp file left behind is harmless
                    }
                }
            }
        }
    }

    private static void markFinished(Path copy, long stateByte) throws IOException {
        try (var ch = java.nio.channels.FileChannel.open(copy, java.nio.file.StandardOpenOption.WRITE)) {
            ch.write(java.nio.ByteBuffer.wrap(new byte[] {0}), stateByte);
        }
    }

    private static void copyPrefix(Path from, Path to, long bytes) throws IOException {
        try (InputStream in = Files.newInputStream(from); OutputStream out = Files.newOutputStream(to)) {
            byte[] buf = new byte[1 << 16];
            long left = bytes;
            while (left > 0) {
                int n = in.read(buf, 0, (int) Math.min(buf.length, left));
                if (n < 0) {
                    break;
                }
                out.write(buf, 0, n);
                left -= n;
            }
        }
    }
}
