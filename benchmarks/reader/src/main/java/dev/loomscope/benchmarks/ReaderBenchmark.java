package dev.loomscope.benchmarks;

import dev.loomscope.recording.JfrParser;
import java.io.File;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import jdk.jfr.consumer.EventStream;
import one.jfr.JfrReader;
import one.jfr.event.AllocationSample;
import one.jfr.event.Event;
import org.openjdk.jmc.common.item.IItem;
import org.openjdk.jmc.common.item.IItemCollection;
import org.openjdk.jmc.common.item.IItemIterable;
import org.openjdk.jmc.common.item.ItemFilters;
import org.openjdk.jmc.flightrecorder.JfrLoaderToolkit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * One pass over one recording by each JFR parser a JVM tool can use: loomscope's reader, the
 * JDK's (jdk.jfr.consumer, its streaming API, which skips the event types no handler names), JMC's
 * (JfrLoaderToolkit, which holds every event) and async-profiler's (one.jfr.JfrReader over the file
 * mapped, which decodes its own event types only). {@code pass=all}: every event each parser
 * decodes, handed to a blackhole; {@code pass=one}: the events of {@link #ONE_TYPE} only. Each
 * iteration is one pass (single shot); after it the fork prints the events handed on, the heap's
 * peak (every heap pool's peak usage, reset before the pass) and the most threads alive.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 3)
@Fork(value = 1, jvmArgsAppend = "-Xmx16g")
public class ReaderBenchmark {
    /** The one event type of {@code pass=one}: one every parser decodes (async-profiler's reader knows few). */
    public static final String ONE_TYPE = "jdk.ObjectAllocationSample";

    @Param("")
    public String file;

    @Param({"one", "all"})
    public String pass;

    private Path path;
    private Set<String> allTypes;
    private long events;
    private int threadsBefore;

    @Setup(Level.Trial)
    public void types() throws Exception {
        path = Path.of(file);
        if (!Files.isRegularFile(path)) {
            throw new IllegalArgumentException("-p file=RECORDING.jfr: " + file + " is not a file");
        }
        allTypes = JfrParser.read(path, Files.size(path), Set.of(), e -> {})
                .counts()
                .keySet(); // counted, none decoded
    }

    @Setup(Level.Iteration)
    public void reset() {
        System.gc();
        ManagementFactory.getMemoryPoolMXBeans().forEach(MemoryPoolMXBean::resetPeakUsage);
        ManagementFactory.getThreadMXBean().resetPeakThreadCount();
        threadsBefore = ManagementFactory.getThreadMXBean().getThreadCount();
        events = 0;
    }

    @TearDown(Level.Iteration)
    public void report() {
        long peak = ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(p -> p.getType() == MemoryType.HEAP)
                .mapToLong(p -> p.getPeakUsage().getUsed())
                .sum();
        System.out.printf(
                "%n[reader] events %d, peak heap %d MB, threads %d (%d before the pass)%n",
                events, peak >> 20, ManagementFactory.getThreadMXBean().getPeakThreadCount(), threadsBefore);
    }

    @Benchmark
    public void loomscope(Blackhole bh) throws Exception {
        JfrParser.read(path, Files.size(path), pass.equals("one") ? Set.of(ONE_TYPE) : allTypes, e -> {
            bh.consume(e.startTime());
            events++;
        });
    }

    @Benchmark
    public void jdk(Blackhole bh) throws Exception {
        try (EventStream s = EventStream.openFile(path)) {
            if (pass.equals("one")) {
                s.onEvent(ONE_TYPE, e -> {
                    bh.consume(e.getStartTime());
                    events++;
                });
            } else {
                s.onEvent(e -> {
                    bh.consume(e.getStartTime());
                    events++;
                });
            }
            s.start();
        }
    }

    @Benchmark
    public void jmc(Blackhole bh) throws Exception {
        IItemCollection items =
                JfrLoaderToolkit.loadEvents(new File(file)); // parses every event: there is no other way in
        if (pass.equals("one")) {
            items = items.apply(ItemFilters.type(ONE_TYPE));
        }
        for (IItemIterable it : items) {
            for (IItem item : it) {
                bh.consume(item);
                events++;
            }
        }
    }

    @Benchmark
    public void asyncProfiler(Blackhole bh) throws Exception {
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            MappedByteBuffer map = ch.map(
                    FileChannel.MapMode.READ_ONLY,
                    0,
                    ch.size()); // files under 2 GiB; its file reader re-reads on every seek
            try (JfrReader jfr = new JfrReader(map)) {
                Event e;
                while ((e = pass.equals("one") ? jfr.readEvent(AllocationSample.class) : jfr.readEvent()) != null) {
                    bh.consume(e.time);
                    events++;
                }
            }
        }
    }
}
