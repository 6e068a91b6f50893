package dev.loomscope.analyzer.read;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
        withReadableParts(source, warnings, parts -> {
            for (Path part : parts) {
                try (RecordingFile rf = new RecordingFile(part)) {
                    while (rf.hasMoreEvents()) {
                        sink.accept(rf.readEvent());
                    }
                } catch (IOException | RuntimeException e) {
                    throw cannotParse(part, e);
                }
            }
            return null;
        });
    }

    /** What a reader does with the parts of a recording, ready to parse. */
    @FunctionalInterface
    public interface PartsReader<T> {
        T read(List<Path> readableParts) throws IOException;
    }

    /**
     * Hands {@code body} the parts of {@code source} as a parser can read them: chunk structure
     * checked, a truncated last chunk cut off (into a temporary copy) and an unfinished one marked
     * finished, with a warning each; unreadable parts of a repository skipped with a warning.
     */
    public static <T> T withReadableParts(RecordingSource source, Consumer<String> warnings, PartsReader<T> body) {
        List<Path> readable = new ArrayList<>();
        List<Path> temporaries = new ArrayList<>();
        try {
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
                if (scan.warning() == null) {
                    readable.add(part);
                    continue;
                }
                warnings.accept(scan.warning());
                try {
                    Path tmp = Files.createTempFile("loomscope-complete-", ".jfr");
                    temporaries.add(tmp);
                    copyPrefix(part, tmp, scan.completeBytes());
                    if (scan.unfinishedAt() >= 0) {
                        markFinished(tmp, scan.unfinishedAt() + ChunkScan.STATE_BYTE);
                    }
                    readable.add(tmp);
                } catch (IOException e) {
                    throw cannotParse(part, e);
                }
            }
            try {
                return body.read(readable);
            } catch (IOException e) {
                throw cannotParse(source.name(), e);
            }
        } finally {
            for (Path tmp : temporaries) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException ignored) {
                    // a temp file left behind is harmless
                }
            }
        }
    }

    private static BadInputException cannotParse(Path part, Exception e) {
        if (e instanceof BadInputException b) {
            return b;
        }
        return new ParserRejectedException(part.toAbsolutePath() + ": cannot parse: " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage())
                + " (the recording is damaged or from an unsupported JDK)", e);
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
