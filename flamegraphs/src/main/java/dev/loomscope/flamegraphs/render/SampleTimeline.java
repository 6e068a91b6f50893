package dev.loomscope.flamegraphs.render;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Samples by time and thread kind: how many of one kind ({@code kind}) fell in each {@link #CELL_MS} cell of wall-clock
 * time ({@code cells}: cell number since the epoch, counts by {@link #KINDS}). Drawn as a heatmap
 * ({@link #writeHeatmap}): a column a second (or, past {@link #MAX_COLUMNS} seconds, as many seconds as keep the
 * columns to that many), a row for each 50 ms within the second, one map per thread kind; the darker a cell, the more
 * samples.
 */
public record SampleTimeline(SampleKind kind, NavigableMap<Long, long[]> cells) {
    /** A cell's width: 20 a second. */
    public static final int CELL_MS = 50;

    static final int CELLS_A_SECOND = 1000 / CELL_MS;

    /** The most columns a map has: a longer recording's columns take several seconds each. */
    static final int MAX_COLUMNS = 1200;

    /**
     * The thread kinds a sample is counted under: a virtual thread's code (on its carrier), a platform thread's, the
     * JVM's own threads'.
     */
    public static final List<String> KINDS = List.of("virtual threads", "platform threads", "JVM threads");

    static final int VIRTUAL = 0;
    static final int PLATFORM = 1;
    static final int JVM = 2;

    /** Adds {@code counts} (by {@link #KINDS}) to those of {@code cell} in {@code cells}. */
    static void add(Map<Long, long[]> cells, long cell, long[] counts) {
        long[] sum = cells.computeIfAbsent(cell, c -> new long[counts.length]);
        for (int k = 0; k < counts.length; k++) {
            sum[k] += counts[k];
        }
    }

    /** Samples of thread kind {@code k} in all. */
    public long total(int k) {
        return cells.values().stream().mapToLong(c -> c[k]).sum();
    }

    /**
     * A self-contained HTML page: the heatmap of each thread kind with samples, all on one colour scale, titled
     * {@code title}.
     */
    public void writeHeatmap(String title, OutputStream out) {
        writeHeatmaps(title, Map.of("", this), out);
    }

    /**
     * The cells as drawn: a column of {@code perColumn} seconds from the first sample's second, a row for each 50 ms.
     */
    private record Drawn(Map<Long, long[]> cells, int columns, int perColumn) {}

    private Drawn drawn() {
        long first = Math.floorDiv(cells.firstKey(), CELLS_A_SECOND) * CELLS_A_SECOND;
        long span = (cells.lastKey() - first) / CELLS_A_SECOND + 1;
        int perColumn = (int) Math.max(1, (span + MAX_COLUMNS - 1) / MAX_COLUMNS); // seconds a column sums
        // the cells of the page: per thread kind, column and row, the samples of the seconds the column sums
        Map<Long, long[]> drawn = new TreeMap<>();
        cells.forEach((cell, n) -> {
            long offset = cell - first;
            add(drawn, offset / CELLS_A_SECOND / perColumn * CELLS_A_SECOND + offset % CELLS_A_SECOND, n);
        });
        return new Drawn(drawn, (int) ((span + perColumn - 1) / perColumn), perColumn);
    }

    /**
     * One page for several recordings ({@code byRecording}, by name; one unnamed: no heading of its own): each
     * recording's maps on a time axis of its own, from its first sample, since JVMs that ran apart share no clock worth
     * drawing; one colour scale for all.
     */
    public static void writeHeatmaps(String title, Map<String, SampleTimeline> byRecording, OutputStream out) {
        Map<String, Drawn> drawn = new LinkedHashMap<>();
        byRecording.forEach((name, t) -> drawn.put(name, t.drawn()));
        long max = drawn.values().stream()
                .flatMap(d -> d.cells().values().stream())
                .flatMapToLong(Arrays::stream)
                .max()
                .orElse(1);
        SampleKind kind = byRecording.values().iterator().next().kind();
        boolean several = byRecording.size() > 1;
        PrintStream p = new PrintStream(out, false, StandardCharsets.UTF_8);
        p.println("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>" + SafeHtml.text(title)
                + "</title><style>body{font:14px sans-serif;margin:16px} svg{display:block;margin:4px 0 18px}"
                + " rect:hover{stroke:#000} .axis{font:11px sans-serif;fill:#555}</style></head><body>");
        p.println("<h1>" + SafeHtml.text(title) + "</h1>");
        Set<Integer> perColumn =
                new TreeSet<>(drawn.values().stream().map(Drawn::perColumn).toList());
        String column = perColumn.size() > 1
                ? "a second (past " + MAX_COLUMNS + " seconds, as many seconds as keep a map to " + MAX_COLUMNS
                        + " columns, their samples at each offset summed)"
                : perColumn.contains(1)
                        ? "a second"
                        : perColumn.iterator().next() + " seconds (their samples at each offset summed)";
        p.println(
                "<p>" + SafeHtml.text(kind.label()) + " samples by time: a column " + column + " from the first sample"
                        + (several ? " of each recording, each on a time axis of its own (they ran apart)" : "")
                        + ", a row for each " + CELL_MS
                        + " ms within the second (top: its start); the darker a cell, the more samples (the darkest: "
                        + max + "). Hover a cell for its count. Each thread kind has its own map, all on one scale; a"
                        + " virtual thread's samples are those of its code on its carrier.</p>");
        for (var recording : drawn.entrySet()) {
            SampleTimeline t = byRecording.get(recording.getKey());
            if (several) {
                p.println("<h2>" + SafeHtml.text(recording.getKey()) + "</h2>");
            }
            t.maps(p, recording.getValue(), max, several ? "h3" : "h2");
        }
        p.println("</body></html>");
        p.flush();
    }

    /** This recording's maps, a thread kind each, under headings of {@code level}. */
    private void maps(PrintStream p, Drawn d, long max, String level) {
        int columns = d.columns();
        int perColumn = d.perColumn();
        int w = Math.max(3, Math.min(16, 1200 / Math.max(1, columns)));
        int h = 8;
        long all = 0;
        for (int k = 0; k < KINDS.size(); k++) {
            all += total(k);
        }
        for (int k = 0; k < KINDS.size(); k++) {
            long n = total(k);
            if (n == 0) {
                continue;
            }
            p.println("<" + level + ">" + KINDS.get(k) + ": "
                    + String.format(Locale.ROOT, "%,d samples (%.1f%%)", n, 100.0 * n / all) + "</" + level + ">");
            int width = columns * w + 40;
            int height = CELLS_A_SECOND * h + 18;
            p.println("<svg width='" + width + "' height='" + height + "' xmlns='http://www.w3.org/2000/svg'>");
            p.println("<rect x='40' y='0' width='" + columns * w + "' height='" + CELLS_A_SECOND * h
                    + "' fill='#f4f4f4'/>"); // no samples
            for (var cell : d.cells().entrySet()) {
                long c = cell.getValue()[k];
                if (c == 0) {
                    continue;
                }
                long second = cell.getKey() / CELLS_A_SECOND; // the column
                long row = cell.getKey() % CELLS_A_SECOND;
                double t = (double) c / max; // pale to dark red
                String fill = "rgb(" + Math.round(255 - 115 * t) + "," + Math.round(230 - 230 * t) + ","
                        + Math.round(220 - 220 * t) + ")";
                String at = perColumn == 1
                        ? second + " s +" + row * CELL_MS + " ms"
                        : second * perColumn + "-" + ((second + 1) * perColumn - 1) + " s, +" + row * CELL_MS + " ms";
                p.println("<rect x='" + (40 + second * w) + "' y='" + row * h + "' width='" + w + "' height='" + h
                        + "' fill='" + fill + "'><title>" + at + ": " + c + " samples</title></rect>");
            }
            p.println("<text class='axis' x='0' y='10'>0 ms</text><text class='axis' x='0' y='" + (CELLS_A_SECOND * h)
                    + "'>" + (1000 - CELL_MS) + " ms</text>");
            int step = Math.max(1, 60 / w);
            for (int s = 0; s < columns; s += step) {
                p.println("<text class='axis' x='" + (40 + s * w) + "' y='" + (height - 2) + "'>" + (long) s * perColumn
                        + " s</text>");
            }
            p.println("</svg>");
        }
    }
}
