package dev.loomscope.analyzer.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomscope.flamegraphs.testing.ChildJvm;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code flame --threads --top N}: CPU by virtual thread and by carrier, on the rendezvous workload
 * (two virtual threads a run, named rendezvous-sender and rendezvous-receiver, handing values to
 * each other: nearly all the CPU is theirs), sampled by JFR (the virtual threads themselves) and by
 * async-profiler (their carriers).
 */
class ThreadCpuIT {
    @TempDir
    static Path dir;

    static Path sampledByJfr;
    static Path sampledByAsyncProfiler;

    @BeforeAll
    static void record() throws Exception {
        sampledByJfr = Fixtures.rendezvous(dir, "rendezvous-jfr", "virtual", "engine=jfr", 3);
        sampledByAsyncProfiler = Fixtures.rendezvous(dir, "rendezvous-ctimer", "virtual", "engine=ctimer", 3);
    }

    /**
     * {@code flame REC --threads --top 20 --format csv}, its rows' cells: thread, kind, threads,
     * samples, share, virtual code, mounting, scheduler; the command's output with them for messages.
     */
    record Table(List<String[]> rows, String csv) {}

    static Table threads(Path rec) throws Exception {
        ChildJvm.Result r = Fixtures.cli(dir, "flame", rec.toString(), "--threads", "--top", "20", "--format", "csv");
        assertThat(r.exitCode()).as(r.stderr()).isZero();
        return new Table(r.stdout().lines().skip(1).filter(l -> !l.startsWith("#") && !l.isBlank()).map(l -> l.split(",", -1)).toList(), r.stdout());
    }

    static double share(List<String[]> rows, String kind) {
        return rows.stream().filter(r -> r[1].equals(kind)).mapToDouble(r -> Double.parseDouble(r[4])).sum();
    }

    @Test
    void jfrSamplesVirtualThreadsAsThemselvesGroupedByNameAndCode() throws Exception {
        Table t = threads(sampledByJfr);
        List<String[]> rows = t.rows();
        // one row per name and code, however many virtual threads ran it (a sender and a receiver each run)
        assertThat(rows).anySatisfy(row -> {
            assertThat(row[0]).isEqualTo("rendezvous-receiver running dev/loomscope/workloads/rendezvous/RendezvousWorkload.lambda$run$0");
            assertThat(row[1]).isEqualTo("virtual threads");
            assertThat(Integer.parseInt(row[2])).isGreaterThanOrEqualTo(2);
        });
        assertThat(rows).anySatisfy(row -> assertThat(row[0]).startsWith("rendezvous-sender running dev/loomscope/workloads/rendezvous/"));
        assertThat(share(rows, "virtual threads")).as(t.csv()).isGreaterThan(50);
        // the carriers' own samples are the scheduler's: the virtual threads' are not theirs
        rows.stream().filter(row -> row[1].equals("carrier")).forEach(row -> assertThat(Double.parseDouble(row[7])).isEqualTo(100.0));
    }

    @Test
    void asyncProfilerSamplesCarriersWithTheShareThatRanVirtualThreads() throws Exception {
        Path rec = sampledByAsyncProfiler;
        Table t = threads(rec);
        List<String[]> rows = t.rows();
        // the scheduler's workers are the carriers, nearly all their samples in the virtual threads' code; the main thread, which starts
        // virtual threads, is no carrier; no sample is a virtual thread's own (async-profiler samples OS threads)
        List<String[]> carriers = rows.stream().filter(row -> row[1].equals("carrier")).toList();
        assertThat(carriers).as(t.csv()).isNotEmpty().allSatisfy(row -> assertThat(row[0]).startsWith("ForkJoinPool-"));
        long carrierSamples = carriers.stream().mapToLong(row -> Long.parseLong(row[3])).sum();
        double inCode = carriers.stream().mapToDouble(row -> Long.parseLong(row[3]) * Double.parseDouble(row[5]) / 100).sum();
        assertThat(inCode / carrierSamples).as(t.csv()).isGreaterThan(0.8);
        assertThat(rows).noneMatch(row -> row[1].equals("virtual threads"));
        assertThat(rows).noneMatch(row -> row[0].equals("main") && !row[1].equals("platform"));
        // a virtual thread mounted again runs above the continuation's return barrier: drawn as virtual, not platform
        ChildJvm.Result split = Fixtures.cli(dir, "flame", rec.toString(), "--split-kind", "--collapsed");
        assertThat(split.exitCode()).as(split.stderr()).isZero();
        assertThat(split.stdout().lines()).noneMatch(l -> l.startsWith("platform;cont_returnBarrier"))
                .anyMatch(l -> l.startsWith("virtual (on carrier);cont_returnBarrier;dev/loomscope/workloads/rendezvous/"));
    }

    @Test
    void theTableIsForOneCpuProfile() throws Exception {
        Path rec = sampledByJfr;
        ChildJvm.Result wall = Fixtures.cli(dir, "flame", rec.toString(), "--threads", "--top", "5", "--event", "wall");
        assertThat(wall.exitCode()).isEqualTo(2);
        assertThat(wall.stderr().strip().lines()).hasSize(1);
        assertThat(wall.stderr()).contains("--top with --threads lists the CPU by thread of one profile");
        ChildJvm.Result diff = Fixtures.cli(dir, "flame", "--diff", rec.toString(), rec.toString(), "--threads", "--top", "5");
        assertThat(diff.exitCode()).isEqualTo(2);
        assertThat(diff.stderr()).contains("without --diff");
    }
}
