package dev.loomscope.flamegraphs.profiler;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.Path;

/** The loaded async-profiler: commands in its own text syntax ({@code start,event=cpu,...}). */
public final class AsyncProfilerHandle {
    private final Object instance;
    private final Method execute;
    private final String version;
    private final Path library;

    AsyncProfilerHandle(Object instance, Method execute, String version, Path library) {
        this.instance = instance;
        this.execute = execute;
        this.version = version;
        this.library = library;
    }

    /** Runs one command; the profiler's refusal comes back as an exception with its message. */
    public String execute(String command) throws ProfilerCommandException {
        try {
            return (String) execute.invoke(instance, command);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            throw new ProfilerCommandException(
                    cause.getMessage() == null
                            ? cause.toString()
                            : cause.getMessage().strip(),
                    cause);
        } catch (IllegalAccessException e) {
            throw new ProfilerCommandException(e.toString(), e);
        }
    }

    public String version() {
        return version;
    }

    public Path library() {
        return library;
    }
}
