package dev.loomscope.analyzer.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import net.jpountz.lz4.LZ4FrameOutputStream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Recordings as users hand them over: compressed (gzip, zip, LZ4 frame), and damaged (a seeded mutation of real
 * recordings: truncation, flipped bits, overwritten and zeroed bytes, huge lengths, garbage appended). Damage is one
 * line naming the file, exit 2, in bounded time (under a minute); never a stack trace, never "internal error".
 */
class BadInputIT {
    @TempDir
    static Path dir;

    static Path fixture;
    static Path virtual;

    @BeforeAll
    static void record() throws Exception {
        fixture = Fixtures.fixture(dir, 2, 2);
        virtual = Fixtures.sleep(dir, "virtual");
    }

    /** The CLI in this JVM, with a time limit: past it, exit -1 and what it had written. */
    static Fixtures.Run cli(String... args) throws Exception {
        // daemon: one that never ends must not keep the tests' JVM alive
        ExecutorService one = Executors.newSingleThreadExecutor(
                Thread.ofPlatform().name("cli").daemon().factory());
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        try {
            Future<Fixtures.Run> f = one.submit(() -> Fixtures.inProcess(List.of(args), out, err));
            return f.get(60, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            return new Fixtures.Run(-1, out.toString(), "still running after 60 s; " + err);
        } finally {
            one.shutdownNow();
        }
    }

    @Test
    void compressedRecordingsOpenAsThePlainOne() throws Exception {
        // the recording alone: what a compressed copy of its one file holds (the agent's async-profiler samples are a
        // file beside it)
        Path alone = Files.copy(
                fixture, Files.createDirectories(dir.resolve("alone")).resolve(fixture.getFileName()));
        String plain = cli("summary", alone.toString(), "--format", "csv").out();
        Path gz = dir.resolve("fixture.jfr.gz");
        try (OutputStream o = new GZIPOutputStream(Files.newOutputStream(gz))) {
            Files.copy(fixture, o);
        }
        Path zip = dir.resolve("fixture.zip");
        try (ZipOutputStream o = new ZipOutputStream(Files.newOutputStream(zip))) {
            o.putNextEntry(new ZipEntry("readme.txt"));
            o.write("a recording".getBytes());
            o.putNextEntry(new ZipEntry("run/fixture.jfr"));
            Files.copy(fixture, o);
        }
        Path lz4 = dir.resolve("fixture.jfr.lz4");
        try (OutputStream o = new LZ4FrameOutputStream(Files.newOutputStream(lz4))) {
            Files.copy(fixture, o);
        }
        for (Path p : List.of(gz, zip, lz4)) {
            Fixtures.Run r = cli("summary", p.toString(), "--format", "csv");
            assertThat(r.code()).as(p + ": " + r.err()).isZero();
            // the same figures; only the recording's name differs
            assertThat(r.out()
                            .replace(p.getFileName().toString(), "NAME")
                            .replaceAll("fixture(\\.jfr)?(\\.gz|\\.lz4)?", "NAME"))
                    .isEqualTo(plain.replace(fixture.getFileName().toString(), "NAME")
                            .replaceAll("fixture(\\.jfr)?(\\.gz|\\.lz4)?", "NAME"));
        }
        // a directory finds compressed recordings too
        Path d = Files.createDirectories(dir.resolve("compressed"));
        Files.copy(gz, d.resolve("a.jfr.gz"));
        assertThat(cli("summary", d.toString()).out()).contains("Recording " + d.resolve("a.jfr.gz"));

        Path noJfr = dir.resolve("nothing.zip");
        try (ZipOutputStream o = new ZipOutputStream(Files.newOutputStream(noJfr))) {
            o.putNextEntry(new ZipEntry("notes.txt"));
            o.write("no recording here".getBytes());
        }
        oneLine(cli("summary", noJfr.toString()), noJfr + ": a zip without a .jfr inside (it holds notes.txt)");
        byte[] whole = Files.readAllBytes(gz);
        Path cut = Files.write(dir.resolve("cut.jfr.gz"), Arrays.copyOf(whole, whole.length / 2));
        oneLine(cli("summary", cut.toString()), cut + ": the gzip stream ends at byte ");
        // bytes appended after the gzip stream are named, not read as if they were not there
        byte[] junk = "appended, not gzip".getBytes();
        byte[] joined = Arrays.copyOf(whole, whole.length + junk.length);
        System.arraycopy(junk, 0, joined, whole.length, junk.length);
        Path appended = Files.write(dir.resolve("appended.jfr.gz"), joined);
        Fixtures.Run r = cli("summary", appended.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out())
                .contains("warning: " + appended + ": " + junk.length + " bytes after the gzip stream (from byte "
                        + whole.length + ") are not gzip: left out");
    }

    static void oneLine(Fixtures.Run r, String expected) {
        assertThat(r.code()).as(r.err()).isEqualTo(2);
        assertThat(r.err().strip().lines()).as(r.err()).hasSize(1);
        assertThat(r.err()).contains(expected);
    }

    /**
     * Compression bombs and pipes: content that is not a recording is refused from its first bytes before anything is
     * written (its compressed stream breaks after them: a reader that went on would say so), a recording's magic
     * followed by 400 MB of zeros stops at the expansion limit, a FIFO is refused without being opened (opening it
     * would block), and no temporary file stays behind.
     */
    @Test
    void bombsAndPipesAreRefusedQuicklyWithoutLeavingFiles() throws Exception {
        Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
        Supplier<Long> expanded = () -> {
            try (var s = Files.list(tmp)) {
                return s.filter(f -> f.getFileName().toString().startsWith("loomscope-expanded-"))
                        .count();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
        long before = expanded.get();
        byte[] mb = new byte[1 << 20];
        Path zeros = dir.resolve("zeros.jfr.gz");
        Path magic = dir.resolve("magic.jfr.gz");
        try (OutputStream z = new GZIPOutputStream(Files.newOutputStream(zeros));
                OutputStream m = new GZIPOutputStream(Files.newOutputStream(magic))) {
            m.write(new byte[] {'F', 'L', 'R', 0});
            for (int i = 0; i < 400; i++) {
                z.write(mb);
                m.write(mb);
            }
        }
        byte[] broken = Files.readAllBytes(zeros);
        Arrays.fill(broken, 4096, broken.length, (byte) 0xFF); // past the first deflate block: not a stream any more
        Files.write(zeros, broken);
        Fixtures.Run notJfr = cli("summary", zeros.toString());
        assertThat(notJfr.code()).isEqualTo(2);
        assertThat(notJfr.err().strip())
                .as("refused from its first bytes")
                .isEqualTo("loomscope summary: " + zeros + ": a gzip file whose content is not a JFR recording (it does"
                        + " not start with FLR\\0)");
        Fixtures.Run bomb = cli("summary", magic.toString());
        assertThat(bomb.code()).isEqualTo(2);
        assertThat(bomb.err())
                .contains(magic + ": expands to more than 50 times its compressed size")
                .contains("--max-expansion N raises the limit");
        assertThat(cli("summary", "--max-expansion", "0", magic.toString()).err())
                .contains("--max-expansion 0: must be 1 or more");
        Path fifo = dir.resolve("pipe.jfr");
        Assumptions.assumeTrue(
                new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor() == 0, "mkfifo is not available");
        for (String command : List.of("summary", "pinning", "rules")) {
            Fixtures.Run pipe = cli(command, fifo.toString());
            assertThat(pipe.code()).as(command).isEqualTo(2);
            assertThat(pipe.err())
                    .as(command)
                    .contains(fifo + ": not a regular file (a pipe, device or socket is not read");
        }
        assertThat(expanded.get()).as("temporary files left in " + tmp).isEqualTo(before);
    }

    /** A few hundred seeded mutations of real recordings, through every command that reads them. */
    @Test
    void damagedRecordingsAreOneLineExitTwoInBoundedTime() throws Exception {
        Random random = new Random(20261123);
        List<String> commands = List.of("summary", "pinning", "gc", "heap", "ctxsw");
        List<String> failures = new ArrayList<>();
        int cases = 0;
        for (Path source : List.of(fixture, virtual)) {
            byte[] original = Files.readAllBytes(source);
            for (int i = 0; i < 30; i++) {
                String how = mutationName(i);
                byte[] bytes = mutate(original, i % 6, random);
                Path damaged = Files.write(dir.resolve("mutant-" + source.getFileName() + "-" + i + ".jfr"), bytes);
                List<String> these = new ArrayList<>(commands);
                if (i % 3 == 0) {
                    // slower (JMC's parser, async-profiler's converter): every third mutant
                    these.addAll(List.of("rules", "flame"));
                }
                for (String command : these) {
                    cases++;
                    check(
                            command.equals("flame")
                                    ? List.of(
                                            command,
                                            damaged.toString(),
                                            "-o",
                                            dir.resolve("mutant.html").toString())
                                    : List.of(command, damaged.toString()),
                            damaged,
                            how,
                            failures);
                }
                Files.delete(damaged);
            }
        }
        assertThat(cases).isEqualTo(340);
        assertThat(failures).isEmpty();
    }

    /**
     * The other files the CLI opens, damaged the same ways: JMH results (jmh, jmh --baseline) and an export's Parquet
     * tables (compare and report read an export by replaying its rows). Each is one line and exit 2 or a clean answer,
     * never our bug, in bounded time.
     */
    @Test
    void damagedJmhResultsAndExportsAreOneLineExitTwoInBoundedTime() throws Exception {
        // another seed, other mutants: -Dloomscope.fuzz.seed=N
        Random random = new Random(Long.getLong("loomscope.fuzz.seed", 20261124));
        List<String> failures = new ArrayList<>();
        int cases = 0;
        List<Path> jmh;
        try (var s = Files.list(Path.of("src/test/resources/jmh"))) {
            jmh = s.filter(f -> f.toString().endsWith(".json")).sorted().toList();
        }
        for (Path source : jmh) {
            byte[] original = Files.readAllBytes(source);
            for (int i = 0; i < 12; i++) {
                Path damaged = Files.write(
                        dir.resolve("mutant-" + source.getFileName() + "-" + i + ".json"),
                        mutate(original, i % 6, random));
                for (List<String> args : List.of(
                        List.of("jmh", damaged.toString()),
                        List.of("jmh", source.toString(), "--baseline", damaged.toString()))) {
                    cases++;
                    check(args, damaged, mutationName(i), failures);
                }
                Files.delete(damaged);
            }
        }
        Path export = dir.resolve("export");
        Fixtures.Run exported = cli("export", fixture.toString(), virtual.toString(), "--to", export.toString());
        assertThat(exported.code()).as(exported.err()).isZero();
        List<Path> tables;
        try (var s = Files.walk(export)) {
            tables = s.filter(f -> f.toString().endsWith(".parquet")).sorted().toList();
        }
        assertThat(tables).hasSizeGreaterThan(5);
        for (int i = 0; i < 24; i++) {
            Path table = tables.get(i % tables.size());
            Path copy = dir.resolve("export-mutant");
            copyTree(export, copy);
            Path damaged = copy.resolve(export.relativize(table));
            Files.write(damaged, mutate(Files.readAllBytes(table), i % 6, random));
            for (List<String> args : List.of(
                    List.of("compare", copy.toString(), "--format", "csv"),
                    List.of(
                            "report",
                            copy.toString(),
                            "-o",
                            dir.resolve("mutant-report").toString()))) {
                cases++;
                check(args, copy, mutationName(i) + " in " + export.relativize(table), failures);
            }
            deleteTree(copy);
        }
        assertThat(cases).isEqualTo(jmh.size() * 24 + 48);
        assertThat(failures).isEmpty();
    }

    /**
     * Recordings of other writers (src/test/resources/corpus: JMC's test recordings of JDK 7-21, async-profiler's,
     * Datadog's; its README says where each comes from), or another corpus named with
     * {@code -Dloomscope.fuzz.corpus=DIR}: each file as it is gives a clean answer in every reading command, and
     * {@code loomscope.fuzz.mutants} (default 1) seeded mutants of it are clean answers or one line and exit 2, in
     * bounded time.
     */
    @Test
    void everyOtherWritersRecordingReadsAndItsMutantsAreCleanAnswersOrOneLineExitTwo() throws Exception {
        Path corpus = Path.of(System.getProperty("loomscope.fuzz.corpus", "src/test/resources/corpus"));
        int mutants = Integer.getInteger("loomscope.fuzz.mutants", 1);
        Random random = new Random(20261124);
        List<String> failures = new ArrayList<>();
        List<Path> files;
        try (var s = Files.walk(corpus)) {
            files = s.filter(f -> f.toString().endsWith(".jfr") || f.toString().endsWith(".jfr.gz"))
                    .sorted()
                    .toList();
        }
        assertThat(files).as("the corpus in " + corpus).hasSizeGreaterThan(60);
        int cases = 0;
        for (Path source : files) {
            byte[] original = Files.readAllBytes(source);
            if (original.length > 2
                    && (original[0] & 0xff) == 0x1f
                    && (original[1] & 0xff) == 0x8b) { // mutants of the recording, not of its gzip
                original = new GZIPInputStream(new ByteArrayInputStream(original)).readAllBytes();
            }
            for (int i = -1; i < mutants; i++) {
                Path input = i < 0
                        ? source
                        : Files.write(
                                dir.resolve("corpus-mutant.jfr"),
                                original.length > 68 ? mutate(original, i % 6, random) : original);
                for (String command : List.of("summary", "pinning", "gc", "heap", "ctxsw", "rules", "flame")) {
                    cases++;
                    List<String> args = command.equals("flame")
                            ? List.of(command, input.toString(), "--top", "5")
                            : List.of(command, input.toString());
                    if (i >= 0) {
                        check(args, input, mutationName(i) + " of " + source.getFileName(), failures);
                        continue;
                    }
                    Fixtures.Run r = cli(args.toArray(String[]::new));
                    // as it is: an answer; flame may say in one line that there are no samples of the kind asked for,
                    // or that it reads
                    // no JDK 7-8 recording (format 0.x, which JMC's parser reads for the other commands and the JDK's
                    // jfr reads for none)
                    boolean saidWhy = command.equals("flame")
                            && r.code() == 2
                            && r.err().strip().lines().count() == 1
                            && (r.err().contains("no ") || r.err().contains("JFR format version 0."));
                    if (r.code() != 0 && !saidWhy) {
                        failures.add(String.join(" ", args) + " (as it is): exit " + r.code() + ": "
                                + r.err().strip());
                    }
                }
            }
        }
        System.out.println("corpus: " + cases + " command x input pairs over " + files.size() + " files, "
                + failures.size() + " failures");
        assertThat(failures).isEmpty();
    }

    /**
     * A Java exception's class name; an event type that only begins with the word (jdk.ExceptionStatistics) is not one.
     */
    static final Pattern JAVA_EXCEPTION = Pattern.compile("\\w*Exception\\b");

    /**
     * Runs {@code args}: a clean answer, or one line naming {@code named} with exit 2, within a minute; else a line in
     * {@code failures}.
     */
    static void check(List<String> args, Path named, String how, List<String> failures) throws Exception {
        long start = System.nanoTime();
        Fixtures.Run r = cli(args.toArray(String[]::new));
        long ms = (System.nanoTime() - start) / 1_000_000;
        String err = r.err().strip();
        boolean clean = (r.code() == 0 || r.code() == 2)
                && err.lines()
                                .filter(l -> !l.contains(": warning: ") && !l.contains(": wrote "))
                                .count()
                        <= (r.code() == 0 ? 0 : 1)
                && !err.contains("internal error")
                && !JAVA_EXCEPTION.matcher(err).find()
                && !err.contains("\tat ")
                && ms < 60_000
                && (r.code() == 0
                        || err.contains(named.toString())
                        || err.contains(named.getFileName().toString()));
        if (!clean) {
            failures.add(String.join(" ", args) + " (" + how + "): exit " + r.code() + " in " + ms + " ms: " + err);
        }
    }

    static void copyTree(Path from, Path to) throws IOException {
        try (var s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        }
    }

    static void deleteTree(Path dir) throws IOException {
        try (var s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    static String mutationName(int i) {
        return List.of("truncated", "bits flipped", "bytes overwritten", "huge length", "zeroed", "garbage appended")
                .get(i % 6);
    }

    static byte[] mutate(byte[] original, int kind, Random random) {
        byte[] b = original.clone();
        int at = 68 + random.nextInt(b.length - 68);
        switch (kind) {
            case 0 -> b = Arrays.copyOf(b, at);
            case 1 -> {
                for (int k = 0; k < 4; k++) {
                    int p = random.nextInt(b.length);
                    b[p] ^= (byte) (1 << random.nextInt(8));
                }
            }
            case 2 -> {
                for (int k = 0; k < 16 && at + k < b.length; k++) {
                    b[at + k] = (byte) random.nextInt(256);
                }
            }
            case 3 -> { // a LEB128 length of about 2^62 where a small number stood
                for (int k = 0; k < 8 && at + k < b.length; k++) {
                    b[at + k] = (byte) 0xFF;
                }
                if (at + 8 < b.length) {
                    b[at + 8] = 0x3F;
                }
            }
            case 4 -> Arrays.fill(b, at, Math.min(b.length, at + 1 + random.nextInt(8192)), (byte) 0);
            default -> {
                byte[] more = new byte[1 + random.nextInt(4096)];
                random.nextBytes(more);
                b = Arrays.copyOf(b, b.length + more.length);
                System.arraycopy(more, 0, b, original.length, more.length);
            }
        }
        return b;
    }
}
