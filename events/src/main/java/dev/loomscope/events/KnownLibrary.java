package dev.loomscope.events;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The libraries whose presence and version the agent records ({@link LibraryEvent}), each known by a class it always
 * has and the names its jar is published under: those with a known hazard for virtual threads in some of their
 * releases, which {@code advise} says whatever the recorded load.
 */
public enum KnownLibrary {
    HIKARICP("HikariCP", "com/zaxxer/hikari/HikariDataSource", "HikariCP"),
    CONNECTOR_J("MySQL Connector/J", "com/mysql/cj/jdbc/Driver", "mysql-connector-j", "mysql-connector-java");

    /** The library's name as its users call it, and in {@link LibraryEvent#library}. */
    public final String title;
    /** A class every release has, as the JVM names it internally ({@code com/zaxxer/hikari/HikariDataSource}). */
    public final String marker;

    private final List<String> artifacts;

    KnownLibrary(String title, String marker, String... artifacts) {
        this.title = title;
        this.marker = marker;
        this.artifacts = List.of(artifacts);
    }

    private static final Map<String, KnownLibrary> BY_MARKER =
            Arrays.stream(values()).collect(Collectors.toMap(l -> l.marker, l -> l));

    /**
     * The library whose marker class this is (internal name), or null: asked of every class the JVM defines, so one
     * lookup.
     */
    public static KnownLibrary byMarker(String internalName) {
        return BY_MARKER.get(internalName);
    }

    /** The library of this {@link #title}, or null. */
    public static KnownLibrary named(String title) {
        for (KnownLibrary l : values()) {
            if (l.title.equals(title)) {
                return l;
            }
        }
        return null;
    }

    /**
     * The version a jar's location names ({@code .../BOOT-INF/lib/HikariCP-7.0.2.jar!/}: 7.0.2), or "" when the
     * location holds none of this library's jar names (a shaded or unpacked copy).
     */
    public String versionIn(String location) {
        if (location == null) {
            return "";
        }
        for (String artifact : artifacts) {
            for (int at = location.indexOf(artifact + "-"); at >= 0; at = location.indexOf(artifact + "-", at + 1)) {
                boolean whole = at == 0 || "/!\\:".indexOf(location.charAt(at - 1)) >= 0;
                int from = at + artifact.length() + 1;
                int end = location.indexOf(".jar", from);
                if (whole
                        && end > from
                        && Character.isDigit(location.charAt(from))
                        && location.substring(from, end).indexOf('/') < 0) {
                    return location.substring(from, end);
                }
            }
        }
        return "";
    }

    /**
     * Compares two dotted versions by their numbers ({@code 7.0.2} before {@code 7.0.10}); a part that is not a number
     * compares as 0 ({@code 9.0.0-rc} as {@code 9.0.0}).
     */
    public static int compareVersions(String a, String b) {
        String[] x = a.split("[.\\-]");
        String[] y = b.split("[.\\-]");
        for (int i = 0; i < Math.max(x.length, y.length); i++) {
            int c = Long.compare(number(x, i), number(y, i));
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    private static long number(String[] parts, int i) {
        if (i >= parts.length) {
            return 0;
        }
        try {
            return Long.parseLong(parts[i]);
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
