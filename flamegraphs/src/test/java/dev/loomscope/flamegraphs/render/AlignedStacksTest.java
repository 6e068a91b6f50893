package dev.loomscope.flamegraphs.render;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomscope.recording.RawFrame;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Stacks aligned at the code their thread runs (differential graphs of the two thread kinds), on canned frames, leaf
 * first.
 */
class AlignedStacksTest {
    private static RawFrame java(String cls, String method) {
        return new RawFrame(cls, method, 1, SampleGraph.JIT_COMPILED);
    }

    private static final RawFrame WORK = java("app/Work", "step");
    private static final RawFrame LOOP = java("app/Work", "loop");
    private static final RawFrame THREAD_RUN_WITH = java("java/lang/Thread", "runWith");
    private static final RawFrame THREAD_RUN = java("java/lang/Thread", "run");
    private static final RawFrame VIRTUAL_RUN = java("java/lang/VirtualThread", "run");
    private static final RawFrame ENTER = java("jdk/internal/vm/Continuation", "enterSpecial");

    /**
     * Every stack of a graph of aligned cpu samples of {@code stacks}, as "frame;frame samples" (a platform thread's
     * and a virtual one's apart).
     */
    private static List<String> aligned(List<List<RawFrame>> stacks) {
        FlameSamples samples = new FlameSamples(FlameOptions.of(SampleKind.CPU), true, true);
        stacks.forEach(s -> samples.addStack("STATE_DEFAULT", s, false, 1, 1));
        List<String> lines = new ArrayList<>();
        samples.graph("test").forEach((names, types, virtual, id, n) -> lines.add(String.join(";", names) + " " + n));
        return lines;
    }

    @Test
    void bothKindsStartAtTheThreadsOwnCode() {
        assertThat(aligned(List.of(
                        List.of(WORK, LOOP, THREAD_RUN_WITH, THREAD_RUN), List.of(WORK, LOOP, VIRTUAL_RUN, ENTER))))
                .containsExactly("app/Work.loop;app/Work.step 1", "app/Work.loop;app/Work.step 1");
    }

    /**
     * A thread sampled in its entry frame itself (starting or ending): one frame that says so, on either kind, not
     * Thread.run.
     */
    @Test
    void aSampleInTheEntryItselfIsSaidAsSuch() {
        assertThat(aligned(List.of(List.of(THREAD_RUN_WITH, THREAD_RUN), List.of(VIRTUAL_RUN, ENTER))))
                .containsExactly(FlameSamples.THREAD_START + " 1", FlameSamples.THREAD_START + " 1");
    }

    @Test
    void aStackWithoutAnEntryIsDrawnWhole() {
        assertThat(aligned(List.of(List.of(WORK, LOOP)))).containsExactly("app/Work.loop;app/Work.step 1");
    }
}
