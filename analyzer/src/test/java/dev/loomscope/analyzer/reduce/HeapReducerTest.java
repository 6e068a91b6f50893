package dev.loomscope.analyzer.reduce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Heap levels only from collections, what the heap took between them, and async-profiler's summaries kept apart. */
class HeapReducerTest {
    static final Instant T0 = Instant.parse("2026-11-24T12:00:00Z");
    static final long MIB = 1 << 20;

    static CannedEvent gc(long id, long atMillis) {
        return new CannedEvent(
                "jdk.GarbageCollection", T0.plusMillis(atMillis), Duration.ofMillis(5), Map.of("gcId", id));
    }

    static CannedEvent summary(long id, String when, long atMillis, long usedMib) {
        return new CannedEvent(
                "jdk.GCHeapSummary",
                T0.plusMillis(atMillis),
                Map.of("gcId", id, "when", when, "heapUsed", usedMib * MIB, "heapSpace.committedSize", 512 * MIB));
    }

    @Test
    void levelsComeFromCollectionsAndTheFillRateFromBetweenThem() {
        HeapReducer h = new HeapReducer();
        // three collections a second apart: 200 MiB taken before each, 10 MiB left after; async-profiler's "After GC"
        // once a second
        // with its own numbering (gcId 1 again, at no collection's time) reads 150 MiB: a level, not an after-GC one
        for (long i = 0; i < 3; i++) {
            h.add(gc(i, 1000 * i + 1000));
            h.add(summary(i, "Before GC", 1000 * i + 1000, 210));
            h.add(summary(i, "After GC", 1000 * i + 1005, 10));
            h.add(summary(i + 1, "After GC", 1000 * i + 1500, 150)); // async-profiler's
        }
        assertThat(h.afterUsed().toArray()).containsExactly(10.0 * MIB, 10.0 * MIB, 10.0 * MIB);
        assertThat(h.beforeUsed().count()).isEqualTo(3);
        assertThat(h.sampledUsed().toArray()).containsExactly(150.0 * MIB, 150.0 * MIB, 150.0 * MIB);
        // 200 MiB each from one collection's end to the next one's start (0.995 s)
        assertThat(h.between()).hasSize(2);
        assertThat(h.allocationRate()).isCloseTo(200 * MIB / 0.995, within(1.0));
        // a window inside one stretch: that stretch's rate; a window before the first collection: not measured
        long t0 = Timeline.epochNanos(T0);
        assertThat(h.allocationRate(t0 + 1_200_000_000L, t0 + 1_800_000_000L))
                .isCloseTo(200 * MIB / 0.995, within(1.0));
        assertThat(h.allocationRate(t0, t0 + 900_000_000L)).isNull();
    }

    @Test
    void withoutCollectionEventsSummariesPairByTheirOwnIds() {
        HeapReducer h = new HeapReducer();
        h.add(summary(0, "Before GC", 1000, 100));
        h.add(summary(0, "After GC", 1002, 5));
        h.add(summary(7, "After GC", 1500, 60)); // no before: not a collection's
        assertThat(h.afterUsed().toArray()).containsExactly(5.0 * MIB);
        assertThat(h.sampledUsed().toArray()).containsExactly(60.0 * MIB);
        assertThat(h.allocationRate()).as("one collection: nothing between two").isNull();
    }
}
