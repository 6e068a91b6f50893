package dev.loomscope.analyzer.fleet;

/**
 * One column of a fleet table: its name, type and meaning. Every column may be null (Spark's writer declares its
 * columns so, and the two writers' files must be the same).
 */
public record FleetColumn(String name, Type type, String description) {

    /** The column types: Parquet's physical types, and Java's boxed value each holds. */
    public enum Type {
        LONG(Long.class),
        INT(Integer.class),
        DOUBLE(Double.class),
        BOOLEAN(Boolean.class),
        STRING(String.class);

        public final Class<?> javaType;

        Type(Class<?> javaType) {
            this.javaType = javaType;
        }
    }

    public static FleetColumn of(String name, Type type, String description) {
        return new FleetColumn(name, type, description);
    }
}
