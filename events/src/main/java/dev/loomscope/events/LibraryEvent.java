package dev.loomscope.events;

import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;

/**
 * {@code loomscope.Library}: a {@link KnownLibrary} the application loaded, with the version its jar's name gives and
 * where it was loaded from; written by the agent as each chunk ends, once a library, so that every chunk a recording
 * keeps holds it. Stable schema: fields may be added, never renamed.
 */
@Name(LibraryEvent.NAME)
@Label("Library")
@Description(
        "A library with a known hazard for virtual threads in some releases, loaded by the application: its version and"
                + " where it came from")
public final class LibraryEvent extends LoomscopeEvent {
    /** The event's name in a recording. */
    public static final String NAME = "loomscope.Library";

    @Label("Library")
    @Description("The library's name (HikariCP, MySQL Connector/J)")
    public String library;

    @Label("Version")
    @Description("The version its jar's name gives; empty when the jar's name holds none (a shaded or unpacked copy)")
    public String version;

    @Label("Location")
    @Description("Where its classes were loaded from (the jar's URL)")
    public String location;
}
