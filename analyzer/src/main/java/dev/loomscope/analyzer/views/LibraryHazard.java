package dev.loomscope.analyzer.views;

import dev.loomscope.events.KnownLibrary;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The known hazards of some releases of a library for virtual threads, which a recording's load may never show (one
 * appears only under contention, another only on the JDKs that pin): said by {@code advise} of every
 * {@link KnownLibrary} the agent found loaded, with the release that fixes it.
 */
public enum LibraryHazard {
    HIKARICP_YIELD_SPIN(
            KnownLibrary.HIKARICP,
            "7.1.0",
            false,
            "ConcurrentBag.requite",
            "ConcurrentBag.requite spins in Thread.yield, keeping its carrier",
            "ConcurrentBag spins in Thread.yield while a connection is handed back to a waiting thread; a virtual"
                    + " thread that yields keeps its carrier, so under pool contention the spinning holds the carriers"
                    + " and requests stall for seconds",
            "HikariCP issue #2398, fixed by pull request #2402"),
    CONNECTOR_J_SYNCHRONIZED_IO(
            KnownLibrary.CONNECTOR_J,
            "9.0.0",
            true,
            null,
            "synchronized around its socket I/O pins the carrier",
            "holds synchronized monitors around its socket reads and writes: every query pins its carrier for the"
                    + " database's answer on JDK 21-23",
            "MySQL Connector/J 9.0.0's release notes: synchronized replaced by ReentrantLock");

    final KnownLibrary library;
    /** The first release without the hazard. */
    final String fixedIn;
    /** Whether JDK 24's monitors (JEP 491) end it whatever the release. */
    final boolean endsOnJdk24;
    /**
     * The method a thread dump shows a carrier held at when it strikes ({@code Class.method}), or null when no one
     * frame tells it.
     */
    final String heldAt;
    /** What it does, in a few words for a bottom line. */
    final String gist;

    final String what;
    final String source;

    LibraryHazard(
            KnownLibrary library,
            String fixedIn,
            boolean endsOnJdk24,
            String heldAt,
            String gist,
            String what,
            String source) {
        this.library = library;
        this.fixedIn = fixedIn;
        this.endsOnJdk24 = endsOnJdk24;
        this.heldAt = heldAt;
        this.gist = gist;
        this.what = what;
        this.source = source;
    }

    /** A hazard of a library loaded at {@code version} ("": not told): whether it holds, or cannot be ruled out. */
    public record Found(LibraryHazard hazard, String version) {
        boolean versionTold() {
            return !version.isEmpty();
        }

        /** The words for advise: what, on which JDKs, and what to do. */
        public String line() {
            return which() + " " + hazard.what + (hazard.endsOnJdk24 ? " (not on JDK 24+, JEP 491)" : ", on every JDK")
                    + ": take " + fix() + " (" + hazard.source + ")";
        }

        /** In a few words: {@code HikariCP 7.0.2: ConcurrentBag.requite spins in Thread.yield, keeping its carrier}. */
        public String brief() {
            return which() + ": " + hazard.gist;
        }

        /**
         * Whether a carrier held at {@code frame} (a dump's words: {@code Thread.yield via ConcurrentBag.requite
         * (ConcurrentBag.java:199)}) is it.
         */
        public boolean heldAt(String frame) {
            return hazard.heldAt != null && frame != null && frame.contains(hazard.heldAt + " (");
        }

        /** Whether it holds on JDK {@code feature} (0 unknown: it may). */
        public boolean holdsOn(int feature) {
            return !(hazard.endsOnJdk24 && feature >= 24);
        }

        /** The release that ends it: {@code HikariCP 7.1.0 or later}. */
        public String fix() {
            return hazard.library.title + " " + hazard.fixedIn + " or later";
        }

        private String which() {
            return versionTold()
                    ? hazard.library.title + " " + version
                    : hazard.library.title + " (its version not told: check it is " + hazard.fixedIn + " or later)";
        }
    }

    /**
     * The hazards of the libraries a recording holds (name to version, "" not told), each whose version is before its
     * fix or not told.
     */
    public static List<Found> of(Map<String, String> libraries) {
        List<Found> found = new ArrayList<>();
        for (LibraryHazard h : values()) {
            String version = libraries.get(h.library.title);
            if (version != null && (version.isEmpty() || KnownLibrary.compareVersions(version, h.fixedIn) < 0)) {
                found.add(new Found(h, version));
            }
        }
        return found;
    }
}
