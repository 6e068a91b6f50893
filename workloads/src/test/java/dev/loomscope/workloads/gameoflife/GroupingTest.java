package dev.loomscope.workloads.gameoflife;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class GroupingTest {
    @Test
    void theTalksGroupingIsNMinusOneContiguousGroupsTheOtherRoundRobinOverN() {
        // 16 cores: 15 groups of contiguous cells (the collector is the 16th thread), every cell once, in order
        List<List<Integer>> contiguous = CspGameOfLife.groups(100, 16, CspGameOfLife.CONTIGUOUS);
        assertThat(contiguous).hasSize(15);
        assertThat(contiguous.stream().flatMap(List::stream).toList())
                .isEqualTo(IntStream.range(0, 100).boxed().toList());
        assertThat(contiguous)
                .allSatisfy(g -> assertThat(g.get(g.size() - 1) - g.get(0)).isEqualTo(g.size() - 1));
        assertThat(contiguous.stream().mapToInt(List::size).max().getAsInt()
                        - contiguous.stream().mapToInt(List::size).min().getAsInt())
                .isLessThanOrEqualTo(1);
        // 2 cores: one group, one thread stepping every cell, beside the collector
        assertThat(CspGameOfLife.groups(100, 2, CspGameOfLife.CONTIGUOUS)).hasSize(1);
        List<List<Integer>> roundRobin = CspGameOfLife.groups(10, 4, CspGameOfLife.ROUND_ROBIN);
        assertThat(roundRobin).containsExactly(List.of(0, 4, 8), List.of(1, 5, 9), List.of(2, 6), List.of(3, 7));
        assertThat(CspGameOfLife.groups(3, 16, CspGameOfLife.CONTIGUOUS)).hasSize(3);
    }
}
