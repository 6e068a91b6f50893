package dev.loomscope.analyzer.views;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomscope.analyzer.render.Table;
import dev.loomscope.flamegraphs.render.SampleGraph;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class FrameShareViewTest {
    private static final byte J = SampleGraph.JIT_COMPILED;

    private static void add(SampleGraph g, long weight, String... names) {
        byte[] types = new byte[names.length];
        Arrays.fill(types, J);
        g.add(names, types, weight, false);
    }

    @Test
    void selfIsTheInnermostFrameAndTotalCountsARecursiveFrameOnce() {
        SampleGraph g = new SampleGraph();
        add(g, 6, "main", "parse", "parse", "read");
        add(g, 3, "main", "parse");
        add(g, 1, "main", "write");
        Table t = FrameShareView.top(g, "r.jfr", 3);
        List<Object[]> rows = t.rows();
        assertThat(rows).hasSize(3);
        assertThat(rows.get(0)).containsExactly("read", 60.0, 60.0, 6L, 6L);
        assertThat(rows.get(1)).containsExactly("parse", 30.0, 90.0, 3L, 9L);
        assertThat(rows.get(2)).containsExactly("write", 10.0, 10.0, 1L, 1L);
    }

    @Test
    void aDiffListsTheLargestChangesOfShareEachSideOnItsOwnTotal() {
        SampleGraph before = new SampleGraph();
        add(before, 80, "main", "parse");
        add(before, 20, "main", "write");
        SampleGraph after = new SampleGraph();
        add(after, 10, "main", "parse");
        add(after, 30, "main", "write");
        add(after, 10, "main", "lock");
        List<Object[]> rows = FrameShareView.diff(before, after, "a", "b", 3).rows();
        assertThat(rows.get(0)).containsExactly("parse", 80.0, 20.0, -60.0, 80.0, 20.0);
        assertThat(rows.get(1)).containsExactly("write", 20.0, 60.0, 40.0, 20.0, 60.0);
        assertThat(rows.get(2)).containsExactly("lock", 0.0, 20.0, 20.0, 0.0, 20.0);
    }
}
