package dev.loomscope.recording;

import java.io.Serializable;
import java.util.List;

/**
 * One frame of a recorded stack trace, whichever parser read it.
 *
 * @param className the binary name with dots ({@code java.lang.Thread}), as the JDK's parser gives it
 * @param methodName the method's name
 * @param line the line number, or 0 and below when not known
 * @param type the frame type as JFR numbers it (its FrameType constant: 0 interpreted, 1 JIT compiled, 2 inlined, 3
 *     native, 4 C++, 5 kernel, 6 C1 compiled), -1 when unknown
 */
public record Frame(String className, String methodName, int line, int type) implements Serializable {
    /** The FrameType names the JDK's parser gives, in the order of their constants. */
    static final List<String> TYPE_NAMES =
            List.of("Interpreted", "JIT compiled", "Inlined", "Native", "C++", "Kernel", "C1 compiled");

    /** A frame type's constant from its name, -1 for a name not known. */
    public static int type(String name) {
        return TYPE_NAMES.indexOf(name);
    }

    /** {@code class.method:line}, or {@code class.method} without a line. */
    public String text() {
        return line > 0 ? className + "." + methodName + ":" + line : className + "." + methodName;
    }

    /** {@code class.method}. */
    public String method() {
        return className + "." + methodName;
    }

    /** Whether the frame's class is the JDK's ({@link JdkFrames}). */
    public boolean isJdk() {
        return JdkFrames.isJdk(className);
    }
}
