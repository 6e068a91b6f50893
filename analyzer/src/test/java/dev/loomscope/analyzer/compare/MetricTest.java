package dev.loomscope.analyzer.compare;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

/**
 * Each figure is a {@code Metric} constant declared once: it is in exactly one of the declaring lists (compared by
 * default, or the recording's other figures), the recording's other figures are each shown by the summary, and the
 * lists that select figures repeat none.
 */
class MetricTest {
    /** The public constants of type Metric, by reflection: what a newcomer adding a figure declares. */
    private static List<Metric> declared() throws IllegalAccessException {
        List<Metric> out = new ArrayList<>();
        for (Field f : Metric.class.getFields()) {
            if (f.getType() == Metric.class && Modifier.isStatic(f.getModifiers())) {
                out.add((Metric) f.get(null));
            }
        }
        return out;
    }

    @Test
    void everyDeclaredFigureIsInExactlyOneDeclaringList() throws IllegalAccessException {
        List<Metric> declared = declared();
        assertThat(declared).hasSizeGreaterThanOrEqualTo(40);
        for (Metric m : declared) {
            long in = Stream.concat(Metric.ALL.stream(), Metric.RECORDING_FIGURES.stream())
                    .filter(m::equals)
                    .count();
            assertThat(in)
                    .as("%s: in the compared figures or the recording's others, once", m.name())
                    .isEqualTo(1);
        }
        assertThat(Stream.concat(Metric.ALL.stream(), Metric.RECORDING_FIGURES.stream()))
                .containsExactlyInAnyOrderElementsOf(declared);
        assertThat(declared.stream().map(Metric::name).distinct().count())
                .as("names told apart")
                .isEqualTo(declared.size());
    }

    @Test
    void theRecordingsOtherFiguresAreEachShownByTheSummary() {
        assertThat(Metric.SUMMARY).containsAll(Metric.RECORDING_FIGURES);
    }

    @Test
    void theSelectingListsRepeatNone() {
        for (List<Metric> list : List.of(
                Metric.SUMMARY,
                CompareView.HEADLINE,
                BottomLine.CAUSES.stream().map(BottomLine.Cause::metric).toList())) {
            assertThat(list).isNotEmpty().doesNotHaveDuplicates();
        }
    }

    /**
     * A name is parsed only where a user types one: as declared, in kebab or snake case, any letter case; an unknown
     * name is none.
     */
    /** What load and threads describe is neither better nor worse: exactly the three figures that say so. */
    @Test
    void onlyTheLoadsAndThePeakThreadsDescribe() throws IllegalAccessException {
        assertThat(declared().stream().filter(Metric::descriptive))
                .containsExactlyInAnyOrder(Metric.CPU_LOAD, Metric.PEAK_THREADS, Metric.CPU_A_CARRIER);
        assertThat(Metric.CPU_LOAD.direction()).isEqualTo("describes: higher or lower, not better or worse");
    }

    @Test
    void aTypedNameFindsItsConstant() {
        assertThat(Metric.named("gc-pause-total")).isSameAs(Metric.GC_PAUSE_TOTAL);
        assertThat(Metric.named("Latency_P99.9")).isSameAs(Metric.LATENCY_P999);
        assertThat(Metric.named("pinned  time")).isSameAs(Metric.PINNED_TIME);
        assertThat(Metric.named("gc pauses")).isNull();
        // a mistyped name is a usage error naming what it is like, then every known name
        Assertions.assertThatThrownBy(() -> Metric.parse(List.of("run tme")))
                .hasMessageStartingWith(
                        "--metric run tme: unknown metric; did you mean run time? (known: run time, throughput,");
        Assertions.assertThatThrownBy(() -> Metric.parse(List.of("joy")))
                .hasMessageStartingWith("--metric joy: unknown metric (known: run time,");
    }

    /**
     * The figures per unit of work are the ones named so, each said in a service's words per request and in a
     * workload's per unit; every other figure keeps its name.
     */
    @Test
    void figuresPerUnitOfWorkAreSaidPerRequestOfAService() throws IllegalAccessException {
        for (Metric m : declared()) {
            boolean named = m.name().endsWith(Metric.PER_UNIT) && m.unit().endsWith(Metric.OF_UNIT);
            assertThat(m.perUnit()).as(m.name()).isEqualTo(named);
            assertThat(Words.WORKLOAD.name(m)).isEqualTo(m.name());
            assertThat(Words.WORKLOAD.unit(m)).isEqualTo(m.unit());
        }
        assertThat(Words.SERVICE.name(Metric.CPU_TIME_PER_UNIT)).isEqualTo("cpu time per request");
        assertThat(Words.SERVICE.unit(Metric.CPU_TIME_PER_UNIT)).isEqualTo("ms/request");
        assertThat(Words.SERVICE.name(Metric.THROUGHPUT)).isEqualTo(Metric.THROUGHPUT.name());
    }
}
