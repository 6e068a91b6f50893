package dev.loomscope.recording;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class PinFramesTest {
    private static Frame jdk(String cls, String method) {
        return new Frame(cls, method, 10, 1);
    }

    private static Frame app(String cls, String method, int type) {
        return new Frame(cls, method, 20, type);
    }

    /** JDK 21, a blocking call inside synchronized library code: the innermost frame outside the JDK. */
    @Test
    void synchronizedCodeIsNamedByTheInnermostApplicationFrame() {
        List<Frame> frames = List.of(
                jdk("java.lang.VirtualThread", "parkOnCarrierThread"),
                jdk("java.lang.VirtualThread", "park"),
                jdk("java.util.concurrent.locks.LockSupport", "park"),
                jdk("java.lang.Thread", "sleep"),
                app("org.h2.engine.Session", "lock", 1),
                app("org.h2.command.Command", "executeQuery", 1),
                app("com.example.Handler", "handle", 1));
        assertThat(PinFrames.culprit(frames)).isEqualTo(4);
        assertThat(PinFrames.culpritMethod(frames)).isEqualTo("org.h2.engine.Session.lock");
        assertThat(PinFrames.shortStart(frames)).isEqualTo(3); // the JDK call it made, then the application's frames
        assertThat(PinFrames.shortTrace(frames)).containsExactly(3, 4, 5, 6);
        assertThat(PinFrames.Cause.of(frames, List.of())).isEqualTo(PinFrames.Cause.MONITOR);
    }

    /** A pin inside a class initializer is the class being initialised, even below other application frames. */
    @Test
    void aClassInitializerIsTheCulprit() {
        List<Frame> frames = List.of(
                jdk("java.lang.Thread", "sleep"),
                app("app.Config", "load", 1),
                app("app.Config", "<clinit>", 0),
                app("app.Main", "run", 1));
        assertThat(PinFrames.culpritMethod(frames)).isEqualTo("app.Config.<clinit>");
        assertThat(PinFrames.Cause.of(frames, List.of())).isEqualTo(PinFrames.Cause.CLASS_INIT);
    }

    /** JDK 25, an upcall from native code: the application frame that made the downcall, not the callback. */
    @Test
    void anUpcallIsNamedByTheCallThatWentNative() {
        List<Frame> frames = List.of(
                jdk("java.lang.Thread", "sleep"),
                app("app.Sort", "compare", 1),
                jdk(
                        "jdk.internal.foreign.abi.UpcallStub",
                        "invoke"), // (JFR's stacks hold Java frames only: no qsort here)
                jdk("jdk.internal.foreign.abi.DowncallStub/0x1", "invoke"),
                jdk("java.lang.invoke.LambdaForm$MH", "invoke"),
                app("app.Sort", "sortNative", 1),
                app("app.Main", "run", 1));
        int culprit = PinFrames.culprit(frames);
        assertThat(frames.get(culprit).method()).isEqualTo("app.Sort.sortNative");
        assertThat(PinFrames.wentNative(frames, culprit)).isTrue();
        assertThat(PinFrames.wentNative(frames, 6)).isFalse();
        assertThat(PinFrames.shortTrace(frames)).contains(culprit);
        assertThat(PinFrames.Cause.of(frames, List.of("Native or VM frame on stack")))
                .isEqualTo(PinFrames.Cause.NATIVE);
        assertThat(PinFrames.Cause.of(frames, List.of())).isEqualTo(PinFrames.Cause.NATIVE);
    }

    /** An application's own native method pins by being on the stack. */
    @Test
    void anApplicationNativeMethodIsTheCulprit() {
        List<Frame> frames = List.of(
                jdk("java.lang.Object", "wait0"),
                app("app.Jni", "callback", 1),
                app("app.Jni", "run", 3),
                app("app.Main", "main", 1));
        assertThat(PinFrames.culpritMethod(frames)).isEqualTo("app.Jni.run");
        assertThat(PinFrames.culpritMethod(List.of())).isEqualTo("(no stack trace)");
        assertThat(PinFrames.Cause.of(frames, List.of())).isEqualTo(PinFrames.Cause.NATIVE);
    }

    /** Without a stack, the JDK 24+ reason tells; without either, a monitor (what JDK 21-23 pin on). */
    @Test
    void withoutAStackTheReasonTellsTheCause() {
        assertThat(PinFrames.Cause.of(null, List.of("Native or VM frame on stack")))
                .isEqualTo(PinFrames.Cause.NATIVE);
        assertThat(PinFrames.Cause.of(List.of(), List.of())).isEqualTo(PinFrames.Cause.MONITOR);
    }
}
