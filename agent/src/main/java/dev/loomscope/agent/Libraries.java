package dev.loomscope.agent;

import dev.loomscope.events.KnownLibrary;
import dev.loomscope.events.LibraryEvent;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import jdk.jfr.FlightRecorder;

/**
 * Which {@link KnownLibrary} the application loaded, and from where: seen as each one's marker class is defined (a name
 * compared, no class changed) or, attached to a running JVM, among the classes loaded already; written as
 * {@link LibraryEvent}s as each chunk ends ({@link #events}).
 */
final class Libraries implements ClassFileTransformer {
    /** The libraries found: where each was loaded from (its code source's URL, "" when it has none). */
    private static final Map<KnownLibrary, String> FOUND = new ConcurrentHashMap<>();

    private static final AtomicBoolean INSTALLED = new AtomicBoolean();
    /** A loomscope.Library event for each library found so far: the hook JFR runs as each chunk ends. */
    static final Runnable EVENTS = () -> FOUND.forEach((l, location) -> {
        LibraryEvent e = new LibraryEvent();
        e.library = l.title;
        e.version = l.versionIn(location);
        e.location = location;
        e.commit();
    });

    private Libraries() {}

    /**
     * Watches class definitions from now on, and looks among the classes loaded already; once a JVM (a session started
     * again finds it done).
     */
    static void install(Instrumentation inst) {
        if (!INSTALLED.compareAndSet(false, true)) {
            return;
        }
        // what transform uses, loaded before it may run: a transformer that loads a class while a class is being
        // defined
        // deadlocks with another thread doing the same the other way (the class loaders lock a class's name while they
        // define it)
        KnownLibrary.byMarker("");
        inst.addTransformer(new Libraries(), false);
        for (Class<?> c : inst.getAllLoadedClasses()) {
            KnownLibrary l = KnownLibrary.byMarker(c.getName().replace('.', '/'));
            if (l != null) {
                note(l, c.getProtectionDomain());
            }
        }
    }

    /** Has JFR run {@link #EVENTS} as each chunk ends (again: a session that failed to start may have left it). */
    static void hook() {
        FlightRecorder.removePeriodicEvent(EVENTS);
        FlightRecorder.addPeriodicEvent(LibraryEvent.class, EVENTS);
    }

    @Override
    public byte[] transform(
            Module module,
            ClassLoader loader,
            String className,
            Class<?> redefined,
            ProtectionDomain domain,
            byte[] bytes) {
        KnownLibrary l = className == null || redefined != null ? null : KnownLibrary.byMarker(className);
        if (l != null) {
            note(l, domain);
        }
        return null; // nothing changed
    }

    private static void note(KnownLibrary l, ProtectionDomain domain) {
        try {
            var source = domain == null ? null : domain.getCodeSource();
            FOUND.putIfAbsent(
                    l,
                    source == null || source.getLocation() == null
                            ? ""
                            : source.getLocation().toString());
        } catch (RuntimeException unreadable) {
            FOUND.putIfAbsent(l, "");
        }
    }
}
