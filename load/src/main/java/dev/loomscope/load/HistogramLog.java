package dev.loomscope.load;

import dev.loomscope.options.BadDataException;
import java.io.FileNotFoundException;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

/**
 * The windows' latency histograms as an HdrHistogram interval log (HdrHistogram's own {@link HistogramLogWriter},
 * format 1.3), for the tools that read one (its {@code HistogramLogProcessor}, plotters, jHiccup's readers): one
 * interval per window, the answered requests' latencies from their intended start in microseconds (the maximum column
 * in seconds), tagged {@code measured:TARGET@RATE} or {@code warm-up:TARGET@RATE} with spaces as underscores (a tag may
 * hold neither a space nor a comma), timestamps in seconds since the log's start.
 */
public final class HistogramLog implements AutoCloseable {
    private final PrintStream out;
    private final HistogramLogWriter writer;
    /** What the log is, for a failure's message. */
    private final String where;

    /** A log on {@code to} ({@code where}: what it is, for a failure's message), its start {@code startEpochMillis}. */
    public HistogramLog(OutputStream to, String where, long startEpochMillis) {
        this.where = where;
        this.out = new PrintStream(to, false, StandardCharsets.UTF_8);
        this.writer = new HistogramLogWriter(out);
        writer.outputComment("loomscope load: each window's answered requests, latency from the intended start (us)");
        writer.outputLogFormatVersion();
        writer.outputStartTime(startEpochMillis);
        writer.setBaseTime(startEpochMillis);
        writer.outputLegend();
        out.flush();
    }

    /** A log written to {@code file}, begun now. */
    public static HistogramLog to(Path file) {
        try {
            return new HistogramLog(
                    new FileOutputStream(file.toFile()), file.toAbsolutePath().toString(), System.currentTimeMillis());
        } catch (FileNotFoundException e) {
            throw new BadDataException(
                    file.toAbsolutePath() + ": cannot write the histogram log (" + e.getMessage() + ")", e);
        }
    }

    /** The tag of a window of {@code workload} ({@code GET /io at 400/s}). */
    static String tag(String workload, boolean warmup) {
        return (warmup ? "warm-up:" : "measured:")
                + workload.replace(" at ", "@").replaceAll("[\\s,]+", "_");
    }

    /** Writes window {@code w} of {@code workload}; a stream that failed (a full disk, a closed pipe) is said. */
    void window(String workload, boolean warmup, OpenLoop.Window w) {
        Histogram h = w.latencyMicros().copy();
        h.setStartTimeStamp(w.startEpochNanos() / 1_000_000);
        h.setEndTimeStamp((w.startEpochNanos() + w.nanos()) / 1_000_000);
        h.setTag(tag(workload, warmup));
        writer.outputIntervalHistogram(h);
        out.flush();
        if (out.checkError()) {
            throw new BadDataException(where + ": cannot write the histogram log (is the disk full?)");
        }
    }

    @Override
    public void close() {
        out.close();
    }
}
