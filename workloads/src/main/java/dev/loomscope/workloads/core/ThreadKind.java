package dev.loomscope.workloads.core;

import dev.loomscope.options.WorkloadOptions;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadFactory;

/** The two kinds of thread the experiments compare. */
public enum ThreadKind {
    PLATFORM,
    VIRTUAL;

    public static final List<String> NAMES = WorkloadOptions.THREADS.choices();

    public static ThreadKind of(Args args) {
        return named(args.choice(WorkloadOptions.THREADS));
    }

    /** "platform" or "virtual". */
    public static ThreadKind named(String name) {
        return valueOf(name.toUpperCase(Locale.ROOT));
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public ThreadFactory factory(String name) {
        return this == VIRTUAL
                ? Thread.ofVirtual().name(name, 0).factory()
                : Thread.ofPlatform().name(name, 0).factory();
    }

    public Thread start(String name, Runnable r) {
        return this == VIRTUAL
                ? Thread.ofVirtual().name(name).start(r)
                : Thread.ofPlatform().name(name).start(r);
    }
}
