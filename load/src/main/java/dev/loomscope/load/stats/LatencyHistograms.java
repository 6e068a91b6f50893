package dev.loomscope.load.stats;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Base64;
import java.util.Locale;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;

/**
 * HdrHistograms as a results file and a recording carry them (compressed, Base64), and the one rule for when a
 * percentile of one is a figure: at least {@link #ABOVE} values lie above it (p99 of 1,000 values, p99.9 of 10,000);
 * below that, "the p99.9" of a window would be its maximum.
 */
public final class LatencyHistograms {
    /** The longest latency a client's histogram holds, in microseconds (an hour: a longer one is recorded as this). */
    public static final long HIGHEST_MICROS = 3_600_000_000L;
    /** The fewest values above a percentile for it to be printed as one. */
    public static final int ABOVE = 10;

    private LatencyHistograms() {}

    public static String encode(Histogram h) {
        ByteBuffer b = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int n = h.encodeIntoCompressedByteBuffer(b);
        return Base64.getEncoder().encodeToString(Arrays.copyOf(b.array(), n));
    }

    /** The histogram in {@code base64}, or null when the text is not one. */
    public static Histogram decode(String base64, long highest) {
        if (base64 == null || base64.isBlank()) {
            return null;
        }
        try {
            return Histogram.decodeFromCompressedByteBuffer(
                    ByteBuffer.wrap(Base64.getDecoder().decode(base64)), highest);
        } catch (DataFormatException | RuntimeException e) {
            return null;
        }
    }

    /**
     * A client's stall: a request answered this long after it was due, or still late that long (a tail a p99 of short
     * windows hides: a few multi-second requests among thousands).
     */
    public static final long STALL_MICROS = 1_000_000;

    /**
     * The requests of {@code h} (latencies, microseconds) at {@link #STALL_MICROS} or more, per 1,000 of them; null
     * when it holds none.
     */
    public static Double stallsPerThousand(Histogram h) {
        long total = h == null ? 0 : h.getTotalCount();
        if (total == 0) {
            return null;
        }
        long under = h.getCountBetweenValues(0, STALL_MICROS - 1);
        return 1000.0 * (total - under) / total;
    }

    /** The fewest values with which {@code percentile} (0-100) is a figure. */
    public static long needed(double percentile) {
        return (long) Math.ceil(ABOVE / (1 - percentile / 100) - 1e-6);
    }

    /** Whether {@code h} holds enough values for {@code percentile}. */
    public static boolean enough(Histogram h, double percentile) {
        return h.getTotalCount() >= needed(percentile);
    }

    /**
     * {@code p99 21.3 ms (n=4,000)}, or where the values are too few, what they have instead: {@code p99.9 n/a (10,000
     * requests needed, 4,000 here; max 30.1 ms)}; values in microseconds.
     */
    public static String describe(Histogram h, double percentile) {
        String name = "p"
                + (percentile == Math.rint(percentile)
                        ? Long.toString((long) percentile)
                        : Double.toString(percentile));
        if (h.getTotalCount() == 0) {
            return name + " n/a (none)";
        }
        if (!enough(h, percentile)) {
            return String.format(
                    Locale.ROOT,
                    "%s n/a (%,d values needed, %,d here; max %s)",
                    name,
                    needed(percentile),
                    h.getTotalCount(),
                    ms(h.getMaxValue()));
        }
        return String.format(Locale.ROOT, "%s %s", name, ms(h.getValueAtPercentile(percentile)));
    }

    /** Microseconds as milliseconds: {@code 21.3 ms}, {@code 1,502 ms}. */
    public static String ms(double micros) {
        double ms = micros / 1e3;
        return ms >= 1000
                ? String.format(Locale.ROOT, "%,.0f ms", ms)
                : ms >= 10 ? String.format(Locale.ROOT, "%.1f ms", ms) : String.format(Locale.ROOT, "%.2f ms", ms);
    }
}
