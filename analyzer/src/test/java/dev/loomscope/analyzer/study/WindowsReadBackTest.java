package dev.loomscope.analyzer.study;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomscope.analyzer.reduce.RunsReducer.WorkloadRun;
import dev.loomscope.load.ClientFigures;
import dev.loomscope.load.KnownAnswerServer;
import dev.loomscope.load.LoadRun;
import dev.loomscope.load.LoadSpec;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.assertj.core.data.Offset;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A JVM's windows are merged one way: what the load client summed as they came and what the study reads back from the
 * results file it wrote are the same figures, request for request.
 */
class WindowsReadBackTest {
    @TempDir
    Path dir;

    @Test
    void theWindowsReadBackMergeToTheFiguresTheClientSummedLive() throws Exception {
        Path csv = dir.resolve("load.csv");
        List<LoadRun.Summary> live;
        // 8 workers holding a request 10 ms serve 800/s; 200/s offered over 6 connections, so some requests wait in
        // the client
        try (KnownAnswerServer server = new KnownAnswerServer(8, 10, false);
                Writer rows = Files.newBufferedWriter(csv)) {
            LoadSpec spec = server.threeWindowsAt200(6);
            live = new LoadRun(spec, new PrintWriter(new StringWriter(), true), rows).run();
        }
        assertThat(live).hasSize(1);
        ClientFigures summed = live.get(0).client();
        List<WorkloadRun> measured =
                ControlRuns.read(csv).stream().filter(r -> !r.warmup()).toList();
        assertThat(measured).hasSize(3);
        // what was sent, at which rate and over how many connections: fields of the row, not words in its name
        assertThat(measured)
                .extracting(
                        r -> r.client().target(),
                        r -> r.client().rate(),
                        r -> r.client().connections())
                .containsOnly(Tuple.tuple("GET /", 200.0, 6));
        ClientFigures read = ClientFigures.of(measured);
        assertThat(read).isNotNull();
        assertThat(read.offered()).isEqualTo(summed.offered()).isPositive();
        assertThat(read.answered()).isEqualTo(summed.answered());
        assertThat(read.errors()).isEqualTo(summed.errors());
        assertThat(read.connections()).isEqualTo(6);
        assertThat(read.seconds()).isCloseTo(summed.seconds(), Offset.offset(1e-3));
        assertThat(read.judged().getTotalCount()).isEqualTo(summed.judged().getTotalCount());
        assertThat(read.judged().getValueAtPercentile(99))
                .isEqualTo(summed.judged().getValueAtPercentile(99));
        assertThat(read.judged().getMaxValue()).isEqualTo(summed.judged().getMaxValue());
        assertThat(read.send().getTotalCount()).isEqualTo(summed.send().getTotalCount());
        assertThat(read.keptUp()).isEqualTo(summed.keptUp());
        assertThat(read.busyConnections()).isCloseTo(summed.busyConnections(), Offset.offset(1e-6));
    }
}
