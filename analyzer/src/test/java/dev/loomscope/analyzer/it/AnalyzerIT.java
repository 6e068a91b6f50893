package dev.loomscope.analyzer.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loomscope.analyzer.read.RecordingReader;
import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.flamegraphs.testing.ChildJvm;
import dev.loomscope.recording.RecordingSource;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import jdk.jfr.consumer.RecordingFile;
import org.assertj.core.api.Assertions;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One test per subcommand on recordings made by real JVMs under the real agent, through the packaged CLI. */
class AnalyzerIT {
    static final int PINS = 3;
    static final int GCS = 4;

    @TempDir
    static Path dir;

    static Path fixture;
    static Path platform;
    static Path virtual;

    @BeforeAll
    static void record() throws Exception {
        fixture = Fixtures.fixture(dir, PINS, GCS);
        platform = Fixtures.sleep(dir, "platform");
        virtual = Fixtures.sleep(dir, "virtual");
    }

    static ChildJvm.Result ok(String... args) throws Exception {
        ChildJvm.Result r = Fixtures.cli(dir, args);
        assertThat(r.exitCode()).as(r.stderr()).isZero();
        return r;
    }

    static JsonNode json(String... args) throws Exception {
        String[] withFormat = Arrays.copyOf(args, args.length + 2);
        withFormat[args.length] = "--format";
        withFormat[args.length + 1] = "json";
        return new ObjectMapper().readTree(ok(withFormat).stdout());
    }

    static JsonNode table(JsonNode doc, String name) {
        for (JsonNode t : doc.get("tables")) {
            if (t.get("name").asText().equals(name)) {
                return t;
            }
        }
        throw new AssertionError("no table " + name + " in " + doc);
    }

    static JsonNode figure(JsonNode summary, String figure) {
        for (JsonNode row : table(summary, "summary").get("rows")) {
            if (row.get("figure").asText().equals(figure)) {
                return row.get("value");
            }
        }
        throw new AssertionError("no figure " + figure);
    }

    @Test
    void summaryHasTheKnownTruth() throws Exception {
        JsonNode s = json("summary", fixture.toString());
        assertThat(figure(s, "pinned count").asLong()).isEqualTo(PINS);
        assertThat(figure(s, "pinned max").asDouble()).isBetween(35.0, 1000.0);
        assertThat(figure(s, "gc count").asLong()).isGreaterThanOrEqualTo(GCS);
        assertThat(figure(s, "voluntary context switches per second").asDouble())
                .isPositive();
        JsonNode columns = table(s, "summary").get("columns");
        assertThat(columns.get(1).get("name").asText()).isEqualTo("value");
        assertThat(table(s, "recording").get("rows").toString())
                .contains("\"virtual\"")
                .contains("fixture");
        assertThat(ok("summary", fixture.toString()).stdout())
                .contains("Key figures of")
                .contains("pinned count");
        // the sleep workload starts 1,000 platform threads a run, 7 runs (the agent counts them: jdk.ThreadStart is
        // off)
        assertThat(figure(json("summary", platform.toString()), "platform threads started")
                        .asLong())
                .isBetween(7000L, 7100L);
        assertThat(figure(json("summary", virtual.toString()), "platform threads started")
                        .asLong())
                .isBetween(0L, 100L);
        // ... hundreds to thousands a second in the busiest second (how many is the machine's speed: a busy one starts
        // fewer), the
        // virtual threads' JVM a few of its own
        double platformBusiest = figure(
                        json("summary", platform.toString()), "platform thread starts in the busiest second")
                .asDouble();
        double virtualBusiest = figure(
                        json("summary", virtual.toString()), "platform thread starts in the busiest second")
                .asDouble();
        assertThat(virtualBusiest).isLessThan(100);
        assertThat(platformBusiest).isGreaterThan(Math.max(200, 3 * virtualBusiest));
    }

    /**
     * A copy of {@code recording} as JDK 9 and 10 wrote theirs (JFR format 1.0): every chunk header says 1.0, and the
     * metadata names the JDK's events {@code com.oracle.jdk.*} and their types {@code com.oracle.jfr.types.*} (the
     * names JDK 11 changed, keeping the fields). Each chunk's metadata event is written again with the new string table
     * at the chunk's end, where the header now points; the old one stays in place, skipped as parsers skip every
     * metadata event in the event stream, so no offset in the chunk moves.
     */
    static Path asJdk9(Path recording, String name) throws Exception {
        ByteBuffer in = ByteBuffer.wrap(Files.readAllBytes(recording));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int off = 0; off + 68 <= in.limit(); off += (int) in.getLong(off + 8)) {
            long size = in.getLong(off + 8);
            int meta = off + (int) in.getLong(off + 24);
            int[] at = {meta};
            long eventSize = varlong(in, at);
            ByteArrayOutputStream header = new ByteArrayOutputStream();
            for (int i = 0; i < 4; i++) { // type id, start, duration, metadata id
                writeVarlong(header, varlong(in, at));
            }
            int strings = (int) varlong(in, at);
            writeVarlong(header, strings);
            for (int i = 0; i < strings; i++) {
                int encoding = in.get(at[0]++);
                if (encoding == 0 || encoding == 1) {
                    header.write(encoding);
                    continue;
                }
                assertThat(encoding).as("a UTF-8, char-array or Latin-1 string").isIn(3, 4, 5);
                int length = (int) varlong(in, at);
                String text;
                if (encoding == 4) {
                    StringBuilder chars = new StringBuilder();
                    for (int c = 0; c < length; c++) {
                        chars.append((char) varlong(in, at));
                    }
                    text = chars.toString();
                } else {
                    text = new String(
                            in.array(),
                            at[0],
                            length,
                            encoding == 3 ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1);
                    at[0] += length;
                }
                if (text.startsWith("jdk.types.")) {
                    text = "com.oracle.jfr.types." + text.substring("jdk.types.".length());
                } else if (text.startsWith("jdk.")
                        && !text.startsWith("jdk.jfr.")
                        && Character.isUpperCase(text.charAt(4))) {
                    text = "com.oracle.jdk." + text.substring(4);
                }
                byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
                header.write(3);
                writeVarlong(header, utf8.length);
                header.write(utf8, 0, utf8.length);
            }
            int end = meta + (int) eventSize;
            byte[] body = header.toByteArray();
            byte[] tree = Arrays.copyOfRange(in.array(), at[0], end);
            ByteArrayOutputStream event = new ByteArrayOutputStream();
            int total = body.length + tree.length;
            int sizeBytes = 1;
            while (varlongLength(total + sizeBytes) != sizeBytes) {
                sizeBytes++;
            }
            writeVarlong(event, total + sizeBytes);
            event.write(body, 0, body.length);
            event.write(tree, 0, tree.length);
            ByteBuffer chunk = ByteBuffer.allocate((int) size + event.size());
            chunk.put(in.array(), off, (int) size).put(event.toByteArray());
            chunk.putShort(4, (short) 1)
                    .putShort(6, (short) 0)
                    .putLong(8, chunk.capacity())
                    .putLong(24, size);
            out.write(chunk.array(), 0, chunk.capacity());
        }
        return Files.write(dir.resolve(name), out.toByteArray());
    }

    private static long varlong(ByteBuffer b, int[] at) {
        long v = 0;
        for (int shift = 0; shift < 56; shift += 7) {
            byte x = b.get(at[0]++);
            v |= (long) (x & 0x7f) << shift;
            if (x >= 0) {
                return v;
            }
        }
        return v | (long) (b.get(at[0]++) & 0xff) << 56;
    }

    private static int varlongLength(long v) {
        int n = 1;
        while ((v >>>= 7) != 0 && n < 9) {
            n++;
        }
        return n;
    }

    private static void writeVarlong(ByteArrayOutputStream out, long v) {
        for (int i = 0; i < 8; i++) {
            if ((v & ~0x7fL) == 0) {
                out.write((int) v);
                return;
            }
            out.write((int) (v & 0x7f | 0x80));
            v >>>= 7;
        }
        out.write((int) v);
    }

    /** A copy of {@code recording} whose every chunk header claims JFR format version {@code major}. */
    static Path relabelled(Path recording, String name, int major) throws Exception {
        byte[] bytes = Files.readAllBytes(recording);
        ByteBuffer b = ByteBuffer.wrap(bytes);
        for (int off = 0; off + 68 <= bytes.length; off += (int) b.getLong(off + 8)) {
            b.putShort(off + 4, (short) major);
        }
        return Files.write(dir.resolve(name), bytes);
    }

    /** The figures every reader of {@code p} must give as the JDK's parser does ({@code jdk}). */
    static void sameFiguresAsTheJdks(Path p, RecordingFacts read, RecordingFacts jdk) {
        assertThat(read.summary.label).as(p.toString()).isEqualTo(jdk.summary.label);
        assertThat(read.summary.threadKind).as(p.toString()).isEqualTo(jdk.summary.threadKind);
        assertThat(read.summary.peakThreads).as(p.toString()).isEqualTo(jdk.summary.peakThreads);
        assertThat(read.summary.jvmCpu.count()).as(p.toString()).isEqualTo(jdk.summary.jvmCpu.count());
        assertThat(read.pinning.all().count())
                .as(p.toString())
                .isEqualTo(jdk.pinning.all().count());
        assertThat(read.gc.pauses().count())
                .as(p.toString())
                .isEqualTo(jdk.gc.pauses().count());
        assertThat(read.gc.byCollectorAndCause().keySet())
                .as(p.toString())
                .isEqualTo(jdk.gc.byCollectorAndCause().keySet());
        assertThat(read.heap.afterUsed().count())
                .as(p.toString())
                .isEqualTo(jdk.heap.afterUsed().count());
        // NaN when no collection ran
        assertThat(Double.valueOf(read.heap.afterUsed().max()))
                .as(p.toString())
                .isEqualTo(Double.valueOf(jdk.heap.afterUsed().max()));
        assertThat(read.heap.sampledBytes()).as(p.toString()).isEqualTo(jdk.heap.sampledBytes());
        assertThat(read.ctxsw.voluntaryTotal()).as(p.toString()).isEqualTo(jdk.ctxsw.voluntaryTotal());
    }

    @Test
    void loomscopesReaderGivesEveryReductionTheJdkParserGives() throws Exception {
        for (Path p : List.of(fixture, platform, virtual)) {
            var source = RecordingSource.file(p);
            var jdk = JdkParser.facts(source);
            var fast = RecordingFacts.of(source);
            assertThat(fast.warnings).as(p.toString()).noneMatch(w -> w.contains("read with"));
            assertThat(fast.summary.counts()).as(p.toString()).isEqualTo(jdk.summary.counts());
            // the span is the chunk headers' by definition, whichever parser reads the events
            assertThat(fast.summary.first())
                    .as(p.toString())
                    .isEqualTo(jdk.summary.first())
                    .isEqualTo(chunkExtent(p)[0]);
            assertThat(fast.summary.last())
                    .as(p.toString())
                    .isEqualTo(jdk.summary.last())
                    .isEqualTo(chunkExtent(p)[1]);
            sameFiguresAsTheJdks(p, fast, jdk);
            assertThat(fast.summary.jvm).isEqualTo(jdk.summary.jvm);
            assertThat(fast.summary.youngCollector).isEqualTo(jdk.summary.youngCollector);
            assertThat(fast.summary.virtualThreadsStarted).isEqualTo(jdk.summary.virtualThreadsStarted);
            assertThat(fast.pinning.all().sum()).isEqualTo(jdk.pinning.all().sum());
            assertThat(fast.pinning.groups().keySet())
                    .isEqualTo(jdk.pinning.groups().keySet());
            jdk.pinning.groups().forEach((frame, g) -> {
                assertThat(fast.pinning.groups().get(frame).stack).isEqualTo(g.stack);
                assertThat(fast.pinning.groups().get(frame).carriers).isEqualTo(g.carriers);
                assertThat(fast.pinning.groups().get(frame).reasons).isEqualTo(g.reasons);
            });
            assertThat(fast.pinning.reasonGroups().keySet())
                    .isEqualTo(jdk.pinning.reasonGroups().keySet());
            assertThat(fast.gc.pauses().sum()).isEqualTo(jdk.gc.pauses().sum());
            assertThat(fast.ctxsw.platformThreadsStarted()).isEqualTo(jdk.ctxsw.platformThreadsStarted());
            assertThat(fast.ctxsw.source()).isEqualTo(jdk.ctxsw.source());
            assertThat(fast.runs.runs()).isEqualTo(jdk.runs.runs());
        }
        // format 1.0 (JDK 9, 10): the chunks relabelled and the JDK's types named as JDK 9 named them
        // (com.oracle.jdk.*,
        // com.oracle.jfr.types.*): read by loomscope's reader as JDK 11 names them, the same figures, no other parser
        Path v1 = asJdk9(fixture, "format-1.jfr");
        assertThat(RecordingFile.readAllEvents(v1))
                .anyMatch(e -> e.getEventType().getName().equals("com.oracle.jdk.GarbageCollection"))
                .noneMatch(e -> e.getEventType().getName().equals("jdk.GarbageCollection"));
        var source = RecordingSource.file(fixture);
        var asWritten = RecordingFacts.of(source);
        var nine = RecordingFacts.of(RecordingSource.file(v1));
        assertThat(nine.warnings).isEmpty();
        assertThat(nine.pinning.all().count()).isEqualTo(PINS);
        assertThat(nine.gc.pauses().count())
                .isPositive()
                .isEqualTo(asWritten.gc.pauses().count());
        assertThat(nine.gc.byCollectorAndCause().keySet())
                .isEqualTo(asWritten.gc.byCollectorAndCause().keySet());
        assertThat(nine.summary.peakThreads).isEqualTo(asWritten.summary.peakThreads);
        assertThat(ok("summary", v1.toString()).stdout())
                .doesNotContain("read with")
                .contains("jdk.GarbageCollection");
        ChildJvm.Result flame = Fixtures.cli(dir, "flame", v1.toString(), "--collapsed", "--event", "alloc");
        ChildJvm.Result flame11 = Fixtures.cli(dir, "flame", fixture.toString(), "--collapsed", "--event", "alloc");
        assertThat(flame.stdout()).as(flame.stderr()).isNotEmpty().isEqualTo(flame11.stdout());
    }

    /** The earliest chunk start and the latest chunk end (start + duration) of a recording, from its headers. */
    static Instant[] chunkExtent(Path recording) throws Exception {
        long from = Long.MAX_VALUE;
        long to = Long.MIN_VALUE;
        for (Path part : RecordingSource.file(recording).parts()) { // with the agent's async-profiler samples
            ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(part));
            for (int off = 0; off + 68 <= b.limit(); off += (int) b.getLong(off + 8)) {
                from = Math.min(from, b.getLong(off + 32));
                to = Math.max(to, b.getLong(off + 32) + b.getLong(off + 40));
            }
        }
        return new Instant[] {Instant.ofEpochSecond(0, from), Instant.ofEpochSecond(0, to)};
    }

    @Test
    void aDamagedRecordingIsNamedByChunkAndOffsetAndAReducersFailureIsNotDamage() throws Exception {
        // 4 KiB of zeros where the first chunk's events start: its first event's size is 0
        byte[] bytes = Files.readAllBytes(fixture);
        Arrays.fill(bytes, 68, 68 + 4096, (byte) 0);
        Path damaged = Files.write(dir.resolve("zeroed.jfr"), bytes);
        for (String command : List.of("summary", "gc", "pinning", "compare")) {
            ChildJvm.Result r = Fixtures.cli(dir, command, damaged.toString());
            assertThat(r.exitCode()).as(command + ": " + r.stderr()).isEqualTo(2);
            assertThat(r.stderr().strip().lines()).as(r.stderr()).hasSize(1);
            assertThat(r.stderr())
                    .contains(damaged.toAbsolutePath() + ": damaged at byte ")
                    .contains("(chunk 1, which starts at byte 0)")
                    .doesNotContain("internal error")
                    .doesNotContain("\tat ");
            assertThat(r.stderr())
                    .contains("damaged at byte 68 (chunk 1, which starts at byte 0): an event's size is 0 bytes");
        }
        // what the consumer of the events throws is its own: not damage, not retried with another parser
        var source = RecordingSource.file(fixture);
        IllegalStateException bug = new IllegalStateException("a reducer's bug");
        Assertions.assertThatThrownBy(() -> RecordingReader.events(
                        source,
                        Set.of("loomscope.RunInfo"),
                        w -> {},
                        (e, span) -> {
                            throw bug;
                        },
                        counts -> {}))
                .isSameAs(bug);
    }

    @Test
    void jmcsParserGivesTheSameFiguresAsTheJdks() throws Exception {
        // the reader for what the JDK's parser rejects (formats before JDK 11's), checked on recordings both can read
        for (Path p : List.of(fixture, platform, virtual)) {
            var source = RecordingSource.file(p);
            var jdk = JdkParser.facts(source);
            var jmc = RecordingFacts.viaJmc(source);
            sameFiguresAsTheJdks(p, jmc, jdk);
            assertThat(jmc.summary.count("jdk.GarbageCollection"))
                    .isEqualTo(jdk.summary.count("jdk.GarbageCollection"));
            assertThat(jmc.summary.count("loomscope.WorkloadRun"))
                    .isEqualTo(jdk.summary.count("loomscope.WorkloadRun"));
            assertThat(jmc.runs.runs()).hasSameSizeAs(jdk.runs.runs());
            for (int i = 0; i < jdk.runs.runs().size(); i++) {
                assertThat(jmc.runs.runs().get(i).units())
                        .isEqualTo(jdk.runs.runs().get(i).units());
                assertThat(jmc.runs.runs().get(i).millis())
                        .isCloseTo(jdk.runs.runs().get(i).millis(), Offset.offset(0.001));
            }
        }
        // a version neither parser reads: one line naming both refusals, exit 2
        Path v3 = relabelled(fixture, "format-3.jfr", 3);
        for (String command : List.of("summary", "gc", "rules")) {
            ChildJvm.Result r = Fixtures.cli(dir, command, v3.toString());
            assertThat(r.exitCode()).as(command).isEqualTo(2);
            assertThat(r.stderr().strip().lines()).as(r.stderr()).hasSize(1);
            assertThat(r.stderr())
                    .contains("JMC's parser cannot read it")
                    .doesNotContain("Exception:")
                    .doesNotContain("\tat ");
        }
    }

    @Test
    void pinningCountsEachPinAndGatesCi() throws Exception {
        JsonNode p = json("pinning", fixture.toString());
        JsonNode rows = table(p, "pinning").get("rows");
        // each pin waited in a class initializer of its own: grouped by the class being initialised
        List<String> frames = new ArrayList<>();
        rows.forEach(
                r -> frames.add(r.get("frame").asText() + " " + r.get("count").asLong()));
        assertThat(frames)
                .containsExactlyInAnyOrder(
                        FixtureApp.class.getName() + "$P1.<clinit> 1",
                        FixtureApp.class.getName() + "$P2.<clinit> 1",
                        FixtureApp.class.getName() + "$P3.<clinit> 1");
        assertThat(frames).hasSize(PINS);
        assertThat(Fixtures.cli(dir, "pinning", fixture.toString(), "--fail-on-pinning")
                        .exitCode())
                .isEqualTo(1);
        assertThat(Fixtures.cli(dir, "pinning", fixture.toString(), "--fail-on-pinning=20ms")
                        .exitCode())
                .isEqualTo(1);
        assertThat(Fixtures.cli(dir, "pinning", fixture.toString(), "--fail-on-pinning=5s")
                        .exitCode())
                .isZero();
        assertThat(Fixtures.cli(dir, "pinning", platform.toString(), "--fail-on-pinning")
                        .exitCode())
                .isZero();
        // the file after the option, and a duration given apart, are what they look like
        assertThat(Fixtures.cli(dir, "pinning", "--fail-on-pinning", fixture.toString())
                        .exitCode())
                .isEqualTo(1);
        assertThat(Fixtures.cli(dir, "pinning", "--fail-on-pinning", "20ms", fixture.toString())
                        .exitCode())
                .isEqualTo(1);
        // each recording's threshold is shown; a gate below it cannot be checked there
        JsonNode recorded = table(p, "pinning-recorded").get("rows").get(0);
        assertThat(recorded.get("jdk.VirtualThreadPinned").asText()).isEqualTo("recorded");
        assertThat(recorded.get("threshold").asText()).isEqualTo("10 ms");
        ChildJvm.Result below = Fixtures.cli(dir, "pinning", fixture.toString(), "--fail-on-pinning=5ms");
        assertThat(below.exitCode()).isEqualTo(2);
        assertThat(below.stderr().strip())
                .endsWith(
                        ": records pins of 10 ms or more only, so --fail-on-pinning 5ms cannot be checked (record with"
                                + " pinned-threshold=5ms or lower)");
    }

    @Test
    void aRecordingWithoutPinEventsCannotPassAPinningGate() throws Exception {
        // JFR settings that record collections only: the app pinned, the recording cannot say so
        Path jfc = Files.writeString(
                dir.resolve("gc-only.jfc"),
                "<?xml version='1.0' encoding='UTF-8'?>\n<configuration version='2.0' label='gc only'><event"
                        + " name='jdk.GarbageCollection'><setting name='enabled'>true</setting><setting"
                        + " name='threshold'>0 ms</setting></event></configuration>\n");
        Path gcOnly = Fixtures.plain(dir, "gc-only.jfr", ",settings=" + jfc, 2, 1);
        ChildJvm.Result view = Fixtures.cli(dir, "pinning", gcOnly.toString());
        assertThat(view.exitCode()).isZero();
        assertThat(view.stdout())
                .contains("pins not recorded: no recording here recorded jdk.VirtualThreadPinned")
                .contains("not recorded");
        ChildJvm.Result gate = Fixtures.cli(dir, "pinning", "--fail-on-pinning", gcOnly.toString());
        assertThat(gate.exitCode()).isEqualTo(2);
        assertThat(gate.stderr().strip().lines()).hasSize(1);
        assertThat(gate.stderr())
                .contains(gcOnly
                        + ": records no jdk.VirtualThreadPinned events, so it cannot show pins and --fail-on-pinning"
                        + " has nothing to check");
    }

    static JsonNode rule(JsonNode rows, String name) {
        for (JsonNode r : rows) {
            if (r.get("rule").asText().equals(name)) {
                return r;
            }
        }
        throw new AssertionError("no rule " + name + " in " + rows);
    }

    @Test
    void rulesRunJmcsAnalysisAndLoomscopesOwn() throws Exception {
        JsonNode rows =
                table(json("rules", fixture.toString(), "--details"), "rules").get("rows");
        JsonNode pinning = rule(rows, "Virtual thread pinning");
        assertThat(pinning.get("severity").asText()).isEqualTo("warning"); // 40 ms pins: above the JDK's 20 ms
        assertThat(pinning.get("finding").asText()).startsWith(PINS + " pinned virtual threads");
        assertThat(pinning.get("solution").asText()).contains("loomscope pinning");
        assertThat(rule(rows, "Virtual thread submit failures").get("severity").asText())
                .isEqualTo("ok");
        JsonNode starvation = rule(rows, "Carrier starvation");
        if (Runtime.version().feature() >= 24) {
            assertThat(starvation.get("severity").asText()).isNotEqualTo("not applicable");
        } else {
            assertThat(starvation.get("severity").asText()).isEqualTo("not applicable");
            assertThat(starvation.get("finding").asText()).contains("JDK 24");
        }
        // JMC's own rules ran too: dozens of them, over topics beside ours
        assertThat(rows.size()).isGreaterThan(30);
        assertThat(rows.findValuesAsText("topic")).contains("garbage_collection", "virtual_threads");
        assertThat(rows.findValuesAsText("severity")).contains("not applicable");

        // a plain JDK recording (no agent): loomscope's scheduler samples are missing, and the rule says so
        Path plain = Fixtures.plain(dir, "plain.jfr", "", 0, 0);
        JsonNode plainRows = table(json("rules", plain.toString()), "rules").get("rows");
        assertThat(rule(plainRows, "Carrier starvation").get("severity").asText())
                .isEqualTo("not applicable");
        assertThat(rule(plainRows, "Carrier starvation").get("finding").asText())
                .contains("loomscope agent");
        assertThat(rule(plainRows, "Virtual thread pinning").get("severity").asText())
                .isEqualTo("ok");

        JsonNode platformRows =
                table(json("rules", platform.toString()), "rules").get("rows");
        assertThat(rule(platformRows, "Virtual thread pinning").get("severity").asText())
                .isEqualTo("ok");
        // the sleep workload on platform threads starts 1,000 a run, thousands a second: the recording's cost per start
        // matters
        JsonNode cost = rule(platformRows, "Recording cost of platform thread starts");
        assertThat(cost.get("finding").asText()).matches("The app started 7,0\\d\\d platform threads in .*");
        // its severity follows the start rate this machine managed while the fixture was recorded, which a busy machine
        // lowers:
        // held to the rule's arithmetic on the rate the finding states, not to one machine's speed
        Matcher rate = Pattern.compile("up to ([\\d,]+) a second")
                .matcher(cost.get("finding").asText());
        assertThat(rate.find()).as(cost.get("finding").asText()).isTrue();
        double share = Double.parseDouble(rate.group(1).replace(",", ""))
                / 5500
                * (cost.get("finding").asText().contains("async-profiler") ? 0.12 : 0.04);
        assertThat(cost.get("severity").asText())
                .as(cost.get("finding").asText())
                .isEqualTo(share < 0.01 ? "ok" : share < 0.02 ? "info" : "warning");
        JsonNode virtualCost = rule(
                table(json("rules", virtual.toString()), "rules").get("rows"),
                "Recording cost of platform thread starts");
        assertThat(virtualCost.get("severity").asText()).isEqualTo("ok");
        assertThat(virtualCost.get("finding").asText())
                .endsWith("costs it under 1% of its throughput (a rule of thumb).");
        assertThat(rule(plainRows, "Recording cost of platform thread starts")
                        .get("severity")
                        .asText())
                .isEqualTo("not applicable");
        // the scheduler's samples are read (their long field too) whenever the recording has them
        long schedulerSamples = 0;
        for (JsonNode row :
                table(json("summary", platform.toString()), "event-counts").get("rows")) {
            if (row.get("event type").asText().equals("loomscope.SchedulerSample")) {
                schedulerSamples = row.get("count").asLong();
            }
        }
        if (schedulerSamples > 0) {
            assertThat(rule(platformRows, "Carrier starvation").get("finding").asText())
                    .startsWith("In 0 of " + schedulerSamples + " scheduler samples");
        }
        assertThat(Fixtures.cli(dir, "rules", fixture.toString(), "--fail-on-warning")
                        .exitCode())
                .isEqualTo(1);
        assertThat(ok("rules", fixture.toString()).stdout())
                .contains("Automated analysis")
                .contains("warning");
    }

    @Test
    void gcCountsEverySystemGc() throws Exception {
        JsonNode rows = table(json("gc", fixture.toString()), "gc").get("rows");
        long systemGc = 0;
        for (JsonNode r : rows) {
            if (r.get("cause").asText().equals("System.gc()")) {
                systemGc += r.get("count").asLong();
            }
        }
        assertThat(systemGc).isGreaterThanOrEqualTo(GCS);
    }

    @Test
    void heapAndContextSwitches() throws Exception {
        JsonNode heap =
                table(json("heap", fixture.toString()), "heap").get("rows").get(0);
        assertThat(heap.get("after gc max").asDouble()).isPositive();
        JsonNode ctx =
                table(json("ctxsw", fixture.toString()), "ctxsw").get("rows").get(0);
        assertThat(ctx.get("process total").asDouble()).isPositive();
        assertThat(ctx.get("source").asText()).isIn("getrusage", "proc");
        assertThat(ok("ctxsw", fixture.toString(), "--format", "csv").stdout()).startsWith("table,");
        assertThat(ok("heap", fixture.toString(), "--format", "md").stdout())
                .contains("### Heap per recording")
                .contains("|---|");
    }

    @Test
    void flameGraphFromTheAgentsProfile() throws Exception {
        Path html = dir.resolve("flame.html");
        ok("flame", fixture.toString(), "-o", html.toString(), "--split-kind");
        assertThat(Files.readString(html)).startsWith("<!DOCTYPE html>").contains("FixtureApp");
        String collapsed = ok("flame", fixture.toString(), "--collapsed").stdout();
        assertThat(collapsed).contains("FixtureApp.main");
        assertThat(ok("flame", fixture.toString(), "--format", "collapsed").stdout())
                .isEqualTo(collapsed);
        // the same samples as a pprof profile, each labelled with its thread kind
        Path pprof = dir.resolve("cpu.pb.gz");
        ok("flame", fixture.toString(), "--format", "pprof", "-o", pprof.toString());
        byte[] head = Arrays.copyOf(Files.readAllBytes(pprof), 2);
        assertThat(head).containsExactly((byte) 0x1f, (byte) 0x8b); // gzip
        if (Files.isExecutable(Path.of("/usr/local/go/bin/go"))) {
            ChildJvm.Result go = ChildJvm.exec(
                    List.of("/usr/local/go/bin/go", "tool", "pprof", "-traces", pprof.toString()), dir, 120);
            assertThat(go.exitCode()).as(go.toString()).isZero();
            assertThat(go.stdout()).contains("FixtureApp.main").containsPattern("thread_kind:\\s+(virtual|platform)");
        }
        ChildJvm.Result noFile = Fixtures.cli(dir, "flame", fixture.toString(), "--format", "pprof");
        assertThat(noFile.exitCode()).isEqualTo(2);
        assertThat(noFile.stderr()).contains("name the profile to write with -o FILE");
        ChildJvm.Result notAGraph = Fixtures.cli(
                dir,
                "flame",
                fixture.toString(),
                "--format",
                "csv",
                "-o",
                dir.resolve("x").toString());
        assertThat(notAGraph.exitCode()).isEqualTo(2);
        assertThat(notAGraph.stderr()).contains("a graph is html, collapsed, pprof, otlp or heatmap");
        Path noSamples = Fixtures.plain(dir, "no-samples.jfr", ",settings=none", 0, 0);
        ChildJvm.Result none = Fixtures.cli(
                dir, "flame", noSamples.toString(), "-o", dir.resolve("x.html").toString());
        assertThat(none.exitCode()).isEqualTo(2);
        assertThat(none.stderr().strip())
                .isEqualTo("loomscope flame: " + noSamples.toAbsolutePath()
                        + ": no cpu samples (the recording has cpu 0, wall 0, alloc 0, lock 0; record them with the"
                        + " agent option profile=cpu (or JFR's jdk.ExecutionSample or jdk.CPUTimeSample))");
        assertThat(dir.resolve("x.html")).doesNotExist();
    }

    @Test
    void compareGivesAVerdictAndExports() throws Exception {
        Path export = dir.resolve("export");
        String out = ok("compare", platform.toString(), virtual.toString(), "--export", export.toString())
                .stdout();
        // one JVM a side: however clear the runs, one JVM each cannot tell the kinds apart from two JVMs' luck
        assertThat(out)
                .containsPattern(
                        "virtual vs platform: run time median -\\d+% \\(95% CI -\\d+%..-\\d+%\\), p=n/a, n=1/1 JVMs x 6"
                                + " runs: too few JVMs");
        assertThat(Files.readString(export.resolve("values.csv")))
                .startsWith("group,recording,index,metric,unit,value,units_of_work");
        // the spread of the runs, the thesis's boxes: 6 runs a side are too few to call
        assertThat(out)
                .containsPattern(
                        "virtual vs platform: run time spread \\(IQR\\) [\\d.,]+ ms against [\\d.,]+ ms, [\\d.]+x"
                                + " \\(95% CI [\\d.]+x\\.\\.[\\d.]+x; relative to the median [\\d.]+x\\), n=1/1 JVMs x"
                                + " 6 runs: too few runs");
        assertThat(Files.readString(export.resolve("spread.csv")))
                .startsWith("metric,unit,group,baseline,verdict,iqr,");
        JsonNode doc = json("compare", platform.toString(), virtual.toString(), "--metric", "run time");
        assertThat(table(doc, "boxplot").get("rows")).hasSize(2);
        assertThat(table(doc, "spread").get("rows").get(0).get("verdict").asText())
                .isEqualTo("too few runs");
        // GC, heap, context switches and pins are per measured run too (from the events in each run's window, and the
        // run's own counts)
        JsonNode all = json("compare", platform.toString(), virtual.toString());
        for (String metric : List.of("gc pause total", "gc count", "context switches per unit", "pinned time")) {
            List<JsonNode> rows = new ArrayList<>();
            table(all, "boxplot").get("rows").forEach(r -> {
                if (r.get("metric").asText().equals(metric)) {
                    rows.add(r);
                }
            });
            assertThat(rows)
                    .as(metric)
                    .hasSize(2)
                    .allSatisfy(r -> assertThat(r.get("n").asLong()).as(metric).isEqualTo(6));
        }
        assertThat(out)
                .containsPattern(
                        "virtual vs platform: context switches per unit median [-+]\\d+% .*, n=1/1 JVMs x 6 runs");
        assertThat(table(doc, "comparison").get("rows").get(0).get("test").asText())
                .isEqualTo("exact");
        // the verdicts as one chart for slides: a standalone SVG, one row (a marker) per headline verdict
        Path forest = dir.resolve("forest.svg");
        ok("compare", platform.toString(), virtual.toString(), "-o", forest.toString());
        var svg = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(forest.toFile());
        assertThat(svg.getDocumentElement().getAttribute("xmlns")).isEqualTo("http://www.w3.org/2000/svg");
        assertThat(Files.readString(forest))
                .contains(">run time</text>")
                .contains(">too few JVMs</text>")
                .doesNotContain(">better</text>");
        assertThat(ok("compare", platform.toString(), virtual.toString(), "--format", "svg")
                        .stdout())
                .startsWith("<?xml")
                .contains("id='forest'");
        ChildJvm.Result notAChart = Fixtures.cli(dir, "summary", platform.toString(), "--format", "svg");
        assertThat(notAChart.exitCode()).isEqualTo(2);
        assertThat(notAChart.stderr().strip())
                .isEqualTo(
                        "loomscope summary: --format svg: only 'loomscope compare' draws a chart; use text, csv, json"
                                + " or md here (see 'loomscope summary --help')");
        ChildJvm.Result bad = Fixtures.cli(dir, "compare", platform.toString(), "--metric", "joy");
        assertThat(bad.exitCode()).isEqualTo(2);
        assertThat(bad.stderr()).startsWith("loomscope compare: --metric joy: unknown metric");
        ChildJvm.Result noMatch = Fixtures.cli(dir, "compare", platform.toString(), "--group", "x=/nowhere/*.jfr");
        assertThat(noMatch.exitCode()).isEqualTo(2);
        assertThat(noMatch.stderr()).contains("matches none of the recordings");
    }

    /**
     * Four JVMs a side, the JVM the unit: a thousand sleeping tasks on virtual threads are found better, every output
     * saying the same.
     */
    @Test
    void jvmLevelVerdictOnFourJvmsASide() throws Exception {
        Path p = Fixtures.sleepJvms(dir, "platform", 4);
        Path v = Fixtures.sleepJvms(dir, "virtual", 4);
        String out = ok("compare", p.toString(), v.toString(), "--metric", "run time")
                .stdout();
        // every virtual JVM faster than every platform one: the smallest p 4 against 4 can give, 2 / C(8, 4)
        assertThat(out)
                .containsPattern(
                        "virtual vs platform: run time median -\\d+% \\(95% CI -\\d+%..-\\d+%\\), p=0\\.029, n=4/4 JVMs"
                                + " x 2 runs: better");
        JsonNode doc = json("compare", p.toString(), v.toString(), "--metric", "run time");
        JsonNode row = table(doc, "comparison").get("rows").get(0);
        assertThat(row.get("verdict").asText()).isEqualTo("better");
        assertThat(row.get("jvms").asLong()).isEqualTo(4);
        assertThat(row.get("n").asLong()).isEqualTo(8);
        Path forest = dir.resolve("jvms.svg");
        ok("compare", p.toString(), v.toString(), "-o", forest.toString());
        assertThat(Files.readString(forest)).contains(">better</text>").contains("class='band'");
        // a stricter alpha than 4 JVMs a side can reach: the rule is the option's, and it says so rather than 'no
        // difference'
        assertThat(ok("compare", p.toString(), v.toString(), "--metric", "run time", "--alpha", "0.01")
                        .stdout())
                .contains(": too few JVMs");
    }

    @Test
    void reportIsSelfContained() throws Exception {
        Path report = dir.resolve("report");
        ok("report", platform.toString(), virtual.toString(), "-o", report.toString());
        String html = Files.readString(report.resolve("index.html"));
        assertThat(html)
                .contains("virtual vs platform: run time median")
                .contains("<svg")
                .doesNotContain("http://", "https://")
                .doesNotContain("<script src");
        // the answer first: the forest plot comes before any other chart; statistics tables closed, their columns
        // explained; printing opens them
        assertThat(html.indexOf("<svg id='forest'")).isPositive().isLessThan(html.indexOf("<svg viewBox"));
        assertThat(html)
                .contains("<details class='stats'><summary>Boxplot statistics per group")
                .contains("<th title='mean half-width of the 95% prediction band")
                .contains("addEventListener('beforeprint'")
                .contains("@media print");
        // runs drawn by fork: x is the run within its JVM
        assertThat(html).contains("run within its JVM; colour: fork");
        assertThat(report.resolve("flame-platform.html")).exists();
        assertThat(report.resolve("flame-virtual.html")).exists();
        assertThat(report.resolve("flame-diff-virtual-vs-platform.html")).exists();
    }

    @Test
    void badInputsAreOneLineAndExitTwo() throws Exception {
        Path empty = Files.createFile(dir.resolve("empty.jfr"));
        Path text = Files.writeString(dir.resolve("text.jfr"), "not a recording");
        for (Path p : new Path[] {dir.resolve("missing.jfr"), empty, text}) {
            ChildJvm.Result r = Fixtures.cli(dir, "summary", p.toString());
            assertThat(r.exitCode()).isEqualTo(2);
            assertThat(r.stderr().strip().lines()).hasSize(1);
            assertThat(r.stderr())
                    .startsWith("loomscope summary: " + p.toAbsolutePath() + ": ")
                    .doesNotContain("Exception");
        }
        ChildJvm.Result opt = Fixtures.cli(dir, "summary", "--colour");
        assertThat(opt.exitCode()).isEqualTo(2);
        assertThat(opt.stderr().strip().lines()).hasSize(1);
    }

    @Test
    void truncatedLastChunkIsAWarningAndCorruptionNamesTheOffset() throws Exception {
        byte[] a = Files.readAllBytes(platform);
        byte[] b = Files.readAllBytes(virtual);
        byte[] both = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        long lastChunk = lastChunkOffset(both);
        Path truncated = dir.resolve("truncated.jfr");
        Files.write(truncated, Arrays.copyOf(both, (int) lastChunk + 200));
        ChildJvm.Result t = Fixtures.cli(dir, "summary", truncated.toString());
        assertThat(t.exitCode()).as(t.stderr()).isZero();
        assertThat(t.stdout()).contains("truncated: the last chunk (at byte " + lastChunk + ") is incomplete");
        // every command that shows figures says they come from part of the file: terminal, JSON, report
        for (String command : List.of("pinning", "gc", "heap", "ctxsw", "compare")) {
            assertThat(ok(command, truncated.toString()).stdout())
                    .as(command)
                    .contains("truncated: the last chunk (at byte " + lastChunk + ")");
            assertThat(json(command, truncated.toString()).toString())
                    .as(command)
                    .contains("truncated: the last chunk (at byte " + lastChunk + ")");
        }
        Path report = dir.resolve("report-truncated");
        ok("report", truncated.toString(), virtual.toString(), "-o", report.toString());
        assertThat(Files.readString(report.resolve("index.html")))
                .contains("<section id='warnings' class='banner'>")
                .contains("truncated: the last chunk (at byte " + lastChunk + ")");
        long secondChunk = a.length; // where the second recording starts
        byte[] corrupt = both.clone();
        corrupt[(int) secondChunk] = 'X';
        Path corrupted = dir.resolve("corrupted.jfr");
        Files.write(corrupted, corrupt);
        ChildJvm.Result c = Fixtures.cli(dir, "summary", corrupted.toString());
        assertThat(c.exitCode()).isEqualTo(2);
        assertThat(c.stderr().strip())
                .isEqualTo("loomscope summary: " + corrupted.toAbsolutePath() + ": corrupted chunk at byte "
                        + secondChunk + " (no FLR magic where chunk " + (chunkCount(a) + 1)
                        + " should start; the file is damaged)");
        byte[] hugeSize = Arrays.copyOf(a, a.length);
        ByteBuffer.wrap(hugeSize).putLong(8, Long.MAX_VALUE - 1);
        Path huge = dir.resolve("huge-size.jfr");
        Files.write(huge, hugeSize);
        ChildJvm.Result h = Fixtures.cli(dir, "summary", huge.toString());
        assertThat(h.exitCode()).isEqualTo(2);
        assertThat(h.stderr())
                .contains(huge + ": corrupted chunk at byte 0 (its size field says " + (Long.MAX_VALUE - 1)
                        + " bytes, more than any recording holds; the file is damaged)")
                .doesNotContain("OutOfMemory");
    }

    static long lastChunkOffset(byte[] file) {
        long offset = 0;
        long last = 0;
        ByteBuffer buf = ByteBuffer.wrap(file);
        while (offset < file.length) {
            last = offset;
            offset += buf.getLong((int) offset + 8);
        }
        return last;
    }

    static int chunkCount(byte[] file) {
        int n = 0;
        long offset = 0;
        ByteBuffer buf = ByteBuffer.wrap(file);
        while (offset < file.length) {
            offset += buf.getLong((int) offset + 8);
            n++;
        }
        return n;
    }

    @Test
    void repositoryOfAKilledJvmIsRead() throws Exception {
        Path repo = Fixtures.killedRepository(dir);
        JsonNode s = json("summary", repo.toString());
        assertThat(figure(s, "gc count").asLong()).isGreaterThanOrEqualTo(1);
        assertThat(table(s, "event-counts").get("rows").size()).isGreaterThan(10);
        assertThat(table(s, "recording").get("notes").toString())
                .contains("was still being written when its JVM stopped");
    }
}
