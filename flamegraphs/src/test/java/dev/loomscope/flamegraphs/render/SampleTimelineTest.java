package dev.loomscope.flamegraphs.render;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class SampleTimelineTest {
    private static long sum(String page) {
        return Pattern.compile("ms: (\\d+) samples</title>")
                .matcher(page)
                .results()
                .mapToLong(m -> Long.parseLong(m.group(1)))
                .sum();
    }

    private static String page(SampleTimeline t) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        t.writeHeatmap("t <b>", out);
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aCellASecondAndFiftyMillisecondsWithEverySampleInOne() {
        TreeMap<Long, long[]> cells = new TreeMap<>();
        long start = 1_700_000_000_000L / SampleTimeline.CELL_MS; // a cell number: epoch ms / 50
        cells.put(start, new long[] {3, 1, 0});
        cells.put(start + 25, new long[] {0, 2, 4}); // 1 s + 250 ms later
        String page = page(new SampleTimeline(SampleKind.CPU, cells));
        assertThat(sum(page)).isEqualTo(10);
        assertThat(page)
                .contains("<h2>virtual threads: 3 samples (30.0%)</h2>")
                .contains("<h2>JVM threads: 4 samples (40.0%)</h2>")
                .contains("<title>1 s +250 ms: 2 samples</title>")
                .contains("a column a second")
                .contains("t &lt;b&gt;")
                .doesNotContain("<b>");
    }

    @Test
    void aLongRecordingsColumnsSumSeveralSecondsAndStayFew() {
        TreeMap<Long, long[]> cells = new TreeMap<>();
        long start = 1_700_000_000_000L / SampleTimeline.CELL_MS;
        long total = 0;
        for (long s = 0; s < 3 * 3600; s += 7) { // three hours, a sample every 7 s at offset 100 ms
            cells.put(start + s * 20 + 2, new long[] {1, 0, 0});
            total++;
        }
        String page = page(new SampleTimeline(SampleKind.WALL, cells));
        assertThat(sum(page)).isEqualTo(total);
        assertThat(page).contains("a column 9 seconds");
        long rects = Pattern.compile("<rect x='(\\d+)' y='16'")
                .matcher(page)
                .results()
                .count();
        assertThat(rects).isPositive().isLessThanOrEqualTo(SampleTimeline.MAX_COLUMNS);
    }
}
