package dev.loomscope.agent.work;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class WorkFilterTest {
    @Test
    void readsJfrsMethodFilterSyntax() {
        List<String> problems = new ArrayList<>();
        WorkFilter f = WorkFilter.parse("com.example.Handler::handle; com.example.Jobs ;@jakarta.ws.rs.GET", problems);
        assertThat(problems).isEmpty();
        assertThat(f.matches("com/example/Handler", "handle", List.of())).isTrue();
        assertThat(f.matches("com/example/Handler", "close", List.of())).isFalse();
        assertThat(f.matches("com/example/Jobs", "anything", List.of())).isTrue();
        assertThat(f.matches("com/example/Other", "get", List.of("Ljakarta/ws/rs/GET;"))).isTrue();
        assertThat(f.mayMatch("com/example/Other")).isTrue(); // an annotation may be on any class's method
        assertThat(WorkFilter.parse("com.example.Handler::handle", problems).mayMatch("com/example/Other")).isFalse();
    }

    @Test
    void namesWhatItCannotRead() {
        List<String> problems = new ArrayList<>();
        WorkFilter f = WorkFilter.parse("com.example.Handler::; ::handle;a b::c", problems);
        assertThat(f.isEmpty()).isTrue();
        assertThat(problems).hasSize(3).allMatch(p -> p.endsWith("is not Class::method, Class or @Annotation"));
    }

    /** A thread's unit of work from its stack: the outermost frame a Class::method or Class rule names. */
    @Test
    void tellsTheUnitOfWorkFromAStack() {
        WorkFilter f = WorkFilter.parse("com.example.Handler::handle; com.example.Jobs", new ArrayList<>());
        StackTraceElement[] stack = {new StackTraceElement("java.lang.Thread", "sleep", null, -1), new StackTraceElement("com.example.Jobs", "step",
                null, 3), new StackTraceElement("com.example.Handler", "handle", null, 9), new StackTraceElement("com.example.Server", "run", null, 1)};
        assertThat(f.unitOf(stack)).isEqualTo("com.example.Handler::handle");
        assertThat(f.unitOf(new StackTraceElement[] {stack[0], stack[3]})).isNull();
    }
}
