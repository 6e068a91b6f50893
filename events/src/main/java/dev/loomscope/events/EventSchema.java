package dev.loomscope.events;

import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Timespan;

/**
 * loomscope's events as their classes declare them: the one declaration every writer and reader of them follows. The
 * agent and the workloads write the classes; the reducers, the Parquet schema and the control runs' results file take
 * the names, fields, units and optional fields from here.
 */
public final class EventSchema {
    private EventSchema() {}

    /** Every event loomscope writes. */
    public static final List<Class<? extends Event>> EVENTS = List.of(
            RunInfoEvent.class,
            WorkloadRunEvent.class,
            ContextSwitchesEvent.class,
            SchedulerSampleEvent.class,
            SchedulerStallEvent.class,
            WorkEvent.class,
            WorkWindowEvent.class,
            ChunkEndEvent.class,
            HeldMonitorSampleEvent.class,
            HeldMonitorEvent.class,
            LibraryEvent.class);

    /**
     * One field: its name, Java type, label, description (the label when it has none), unit ({@code bytes}, a time
     * unit, or null) and whether readers must do without it.
     */
    public record Field(String name, Class<?> type, String label, String description, String unit, boolean optional) {}

    /** The event's name in a recording ({@code loomscope.WorkloadRun}), as its {@code @Name} says: its {@code NAME}. */
    public static String name(Class<? extends Event> event) {
        Name name = event.getAnnotation(Name.class);
        if (name == null) {
            throw new IllegalArgumentException(event.getName() + " has no @Name");
        }
        return name.value();
    }

    /** The event's fields, in the order the class declares them. */
    public static List<Field> fields(Class<? extends Event> event) {
        return FIELDS.get(event);
    }

    /** Each event's fields, read once: the reducers ask for them field by field as the CLI starts. */
    private static final ClassValue<List<Field>> FIELDS = new ClassValue<>() {
        @Override
        protected List<Field> computeValue(Class<?> event) {
            return declared(event);
        }
    };

    private static List<Field> declared(Class<?> event) {
        List<Field> fields = new ArrayList<>();
        for (java.lang.reflect.Field f : event.getDeclaredFields()) {
            if (Modifier.isStatic(f.getModifiers()) || !Modifier.isPublic(f.getModifiers())) {
                continue;
            }
            Label label = f.getAnnotation(Label.class);
            Description description = f.getAnnotation(Description.class);
            String text = label == null ? f.getName() : label.value();
            String unit = f.isAnnotationPresent(DataAmount.class)
                    ? "bytes"
                    : f.isAnnotationPresent(Timespan.class)
                            ? f.getAnnotation(Timespan.class).value().toLowerCase(Locale.ROOT)
                            : null;
            fields.add(new Field(
                    f.getName(),
                    f.getType(),
                    text,
                    description == null ? text : description.value(),
                    unit,
                    f.isAnnotationPresent(OptionalField.class)));
        }
        return List.copyOf(fields);
    }

    /** The names of the fields every event of the type must have. */
    public static List<String> required(Class<? extends Event> event) {
        return fields(event).stream()
                .filter(f -> !f.optional())
                .map(Field::name)
                .toList();
    }

    /**
     * {@code name}, a field the event declares: what a reader asks a recording for, checked without reading the field's
     * annotations (the JVM makes a class for each annotation type it reads, which a command would pay for at its
     * start); a name the event does not declare is a bug of the caller's.
     */
    public static String fieldName(Class<? extends Event> event, String name) {
        try {
            java.lang.reflect.Field f = event.getDeclaredField(name);
            if (Modifier.isPublic(f.getModifiers()) && !Modifier.isStatic(f.getModifiers())) {
                return name;
            }
        } catch (NoSuchFieldException e) {
            // said below
        }
        throw new IllegalArgumentException(name(event) + " declares no field " + name);
    }

    /** The field {@code name} of the event; a name the event does not declare is a bug of the caller's. */
    public static Field field(Class<? extends Event> event, String name) {
        return fields(event).stream()
                .filter(f -> f.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException(name(event) + " declares no field " + name));
    }
}
