package dev.loomscope.recording;

/**
 * Values by field name: what an event has ({@link JfrEvent}), and what a row of another source of the same fields has
 * (the control runs' results file), so one reading serves both.
 */
public interface FieldValues {
    boolean hasField(String name);

    String string(String name);

    long longValue(String name);

    double doubleValue(String name);

    boolean bool(String name);
}
