package dev.loomscope.analyzer.reduce;

/**
 * One frame of a recorded stack trace, whichever parser read it.
 *
 * @param className  the binary name with dots ({@code java.lang.Thread}), as the JDK's parser gives it
 * @param methodName the method's name
 * @param line       the line number, or 0 and below when not known
 */
public record Frame(String className, String methodName, int line) {
    /** {@code class.method:line}, or {@code class.method} without a line. */
    public String text() {
        return line > 0 ? className + "." + methodName + ":" + line : className + "." + methodName;
    }

    /** {@code class.method}. */
    public String method() {
        return className + "." + methodName;
    }

    boolean isJdk() {
        return className.startsWith("java.") || className.startsWith("jdk.") || className.startsWith("sun.") || className.startsWith("javax.");
    }
}
