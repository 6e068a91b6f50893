package dev.loomscope.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loomscope.options.BadDataException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The windows' histograms as an HdrHistogram interval log, read back by HdrHistogram's own reader: one interval a
 * window, tagged measured or warm-up, holding the requests the summary counted.
 */
class HistogramLogTest {
    @TempDir
    Path dir;

    @Test
    void eachWindowIsAnIntervalTheLibrarysReaderReadsBack() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        long begun = System.currentTimeMillis();
        List<LoadRun.Summary> done;
        try (KnownAnswerServer server = new KnownAnswerServer(8, 10, false);
                HistogramLog log = new HistogramLog(bytes, "the test's log", begun)) {
            LoadSpec spec = server.threeWindowsAt200(10);
            done = new LoadRun(spec, new PrintWriter(new StringWriter(), true), null, log).run();
        }
        assertThat(done).hasSize(1);
        HistogramLogReader reader = new HistogramLogReader(new ByteArrayInputStream(bytes.toByteArray()));
        List<Histogram> measured = new ArrayList<>();
        int warmUp = 0;
        for (EncodableHistogram h = reader.nextIntervalHistogram(); h != null; h = reader.nextIntervalHistogram()) {
            assertThat(h.getStartTimeStamp()).isGreaterThanOrEqualTo(begun);
            assertThat(h.getEndTimeStamp()).isGreaterThan(h.getStartTimeStamp());
            if (h.getTag().equals("measured:GET_/@200/s")) {
                measured.add((Histogram) h);
            } else {
                assertThat(h.getTag()).isEqualTo("warm-up:GET_/@200/s");
                assertThat(measured).as("warm-up windows come first").isEmpty();
                warmUp++;
            }
        }
        assertThat(reader.getStartTimeSec()).isEqualTo(begun / 1e3);
        assertThat(warmUp).isPositive();
        assertThat(measured).hasSize(3);
        assertThat(measured.stream().mapToLong(Histogram::getTotalCount).sum())
                .isEqualTo(done.get(0).client().answered())
                .isPositive();
        // 10 ms held by the server: no answered request faster
        assertThat(measured.get(0).getMinValue()).isGreaterThanOrEqualTo(9_900);
    }

    @Test
    void aLogThatCannotBeWrittenIsSaidWithItsPath() {
        Path missing = dir.resolve("no/such/dir/windows.hlog");
        assertThatThrownBy(() -> HistogramLog.to(missing))
                .isInstanceOf(BadDataException.class)
                .hasMessageStartingWith(missing.toAbsolutePath() + ": cannot write the histogram log (");
    }
}
