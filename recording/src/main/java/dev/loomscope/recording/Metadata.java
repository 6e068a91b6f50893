package dev.loomscope.recording;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.zip.CRC32C;

/**
 * A chunk's metadata event: the classes (event types and the types of their fields) by id, each with its fields in the
 * order they are written. Parsed from the element tree JFR writes: a string table, then {@code root > metadata > class
 * > field | annotation}.
 */
final class Metadata {
    /** Kinds of value, for the readers' switches: the primitives, String, and objects made of fields. */
    static final int OBJECT = 0;

    static final int BOOLEAN = 1;
    static final int BYTE = 2;
    static final int CHAR = 3;
    static final int SHORT = 4;
    static final int INT = 5;
    static final int LONG = 6;
    static final int FLOAT = 7;
    static final int DOUBLE = 8;
    static final int STRING = 9;

    /**
     * A field of a class: its type (the class itself once the metadata is read, null when the metadata does not define
     * it), whether it is a constant-pool reference, whether an array, and its time unit.
     */
    static final class Field {
        private final String name;
        private final long typeId;
        private final boolean constantPool;
        private final boolean array;
        private final String timespan;
        private JfrClass type;

        Field(String name, long typeId, boolean constantPool, boolean array, String timespan) {
            this.name = name;
            this.typeId = typeId;
            this.constantPool = constantPool;
            this.array = array;
            this.timespan = timespan;
        }

        String name() {
            return name;
        }

        long typeId() {
            return typeId;
        }

        boolean constantPool() {
            return constantPool;
        }

        boolean array() {
            return array;
        }

        String timespan() {
            return timespan;
        }

        /** The field's class; a type the metadata does not define is damage. */
        JfrClass type() {
            if (type == null) {
                throw new IllegalStateException(
                        "a field of type " + typeId + ", which the chunk's metadata does not define");
            }
            return type;
        }
    }

    /** A class: its name, kind of value and fields. */
    record JfrClass(long id, String name, List<Field> fields, int kind) {}

    static int kind(String name) {
        return switch (name) {
            case "boolean" -> BOOLEAN;
            case "byte" -> BYTE;
            case "char" -> CHAR;
            case "short" -> SHORT;
            case "int" -> INT;
            case "long" -> LONG;
            case "float" -> FLOAT;
            case "double" -> DOUBLE;
            case "java.lang.String" -> STRING;
            default -> OBJECT;
        };
    }

    final Map<Long, JfrClass> classes = new HashMap<>();
    final Map<String, Long> idsByName = new HashMap<>();

    /**
     * The chunks of one recording mostly carry the same metadata (its string table and element tree byte for byte; only
     * the event's time and id differ): each distinct one is parsed once. Shared by the threads reading one file's
     * chunks; a parsed Metadata is not changed after.
     */
    static final class Cache {
        private record Parsed(byte[] content, Metadata metadata) {}

        private final Map<Long, List<Parsed>> byChecksum = new ConcurrentHashMap<>();

        /** The metadata event at the cursor, from the cache when its content was seen before. */
        Metadata parse(Cursor c) {
            int start = c.pos;
            int size = c.readInt();
            c.varlong(); // type id 0
            c.readLong(); // start
            c.readLong(); // duration
            c.readLong(); // metadata id
            int from = c.pos;
            int to = start + size;
            if (size <= 0 || to > c.limit() || to < from) {
                throw new IllegalStateException("the metadata event's size is " + size + " bytes, and "
                        + (c.limit() - start) + " are left in the chunk");
            }
            byte[] a = c.array(from, to);
            CRC32C crc = new CRC32C();
            crc.update(a, from, to - from);
            List<Parsed> seen = byChecksum.computeIfAbsent(crc.getValue(), k -> new CopyOnWriteArrayList<>());
            for (Parsed p : seen) {
                if (Arrays.equals(p.content, 0, p.content.length, a, from, to)) {
                    return p.metadata;
                }
            }
            Metadata m = content(c);
            seen.add(new Parsed(Arrays.copyOfRange(a, from, to), m));
            return m;
        }
    }

    /**
     * A type's name as JDK 11 and later write it: JDK 9 and 10 (format 1.x) named the JDK's events
     * {@code com.oracle.jdk.*} and their types {@code com.oracle.jfr.types.*}, which JDK 11 renamed {@code jdk.*} and
     * {@code jdk.types.*} when it opened JFR, keeping their fields.
     */
    static String currentName(String name) {
        if (name == null) {
            return null;
        }
        if (name.startsWith("com.oracle.jdk.")) {
            return "jdk." + name.substring("com.oracle.jdk.".length());
        }
        if (name.startsWith("com.oracle.jfr.types.")) {
            return "jdk.types." + name.substring("com.oracle.jfr.types.".length());
        }
        return name;
    }

    /** The string table and element tree, after the event's header. */
    private static Metadata content(Cursor c) {
        int n = c.readInt();
        c.checkCount(n, 1);
        String[] strings = new String[n];
        for (int i = 0; i < n; i++) {
            Object s = c.readString(-1);
            strings[i] = s instanceof String str ? str : null;
        }
        Element root = element(c, strings, 0);
        Metadata m = new Metadata();
        Map<Long, String> annotationNames = new HashMap<>();
        List<Element> classElements = new ArrayList<>();
        for (Element child : root.children) {
            if (child.name.equals("metadata")) {
                for (Element cls : child.children) {
                    if (cls.name.equals("class")) {
                        classElements.add(cls);
                        annotationNames.put(Long.parseLong(cls.attributes.get("id")), cls.attributes.get("name"));
                    }
                }
            }
        }
        for (Element cls : classElements) {
            long id = Long.parseLong(cls.attributes.get("id"));
            String name = currentName(cls.attributes.get("name"));
            if (name == null) {
                throw new IllegalStateException("a class in the metadata has no name");
            }
            List<Field> fields = new ArrayList<>();
            for (Element f : cls.children) {
                if (!f.name.equals("field")) {
                    continue;
                }
                String timespan = null;
                for (Element a : f.children) {
                    if (a.name.equals("annotation")
                            && "jdk.jfr.Timespan"
                                    .equals(annotationNames.get(Long.parseLong(a.attributes.get("class"))))) {
                        timespan = a.attributes.getOrDefault("value", "NANOSECONDS");
                    }
                }
                if (f.attributes.get("name") == null) {
                    throw new IllegalStateException("a field of " + name + " in the metadata has no name");
                }
                fields.add(new Field(
                        f.attributes.get("name"),
                        Long.parseLong(f.attributes.get("class")),
                        "true".equals(f.attributes.get("constantPool")),
                        f.attributes.containsKey("dimension"),
                        timespan));
            }
            m.classes.put(id, new JfrClass(id, name, fields, kind(name)));
            m.idsByName.put(name, id);
        }
        for (JfrClass cls : m.classes.values()) {
            for (Field f : cls.fields()) {
                f.type = m.classes.get(f.typeId());
            }
        }
        return m;
    }

    private record Element(String name, Map<String, String> attributes, List<Element> children) {}

    private static Element element(Cursor c, String[] strings, int depth) {
        if (depth > 16) {
            throw new IllegalStateException("the metadata nests deeper than " + 16 + " levels");
        }
        String name = strings[c.readInt()];
        int attrs = c.readInt();
        c.checkCount(attrs, 2);
        Map<String, String> a = new HashMap<>();
        for (int i = 0; i < attrs; i++) {
            String key = strings[c.readInt()];
            a.put(key, strings[c.readInt()]);
        }
        int children = c.readInt();
        c.checkCount(children, 3);
        List<Element> kids = new ArrayList<>(children);
        for (int i = 0; i < children; i++) {
            kids.add(element(c, strings, depth + 1));
        }
        return new Element(name, a, kids);
    }
}
