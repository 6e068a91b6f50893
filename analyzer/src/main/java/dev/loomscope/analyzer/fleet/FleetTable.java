package dev.loomscope.analyzer.fleet;

import java.util.ArrayList;
import java.util.List;

/**
 * One table of an export: its name (the directory its Parquet files go in), what a row is, and its columns. An event
 * table also says which JFR event types its rows are and how each column reads its event field ({@link EventField}):
 * the same mapping turns a row back into an event for the reducers, so what is computed from an export is what is
 * computed from the recordings.
 */
public record FleetTable(
        String name, String row, List<FleetColumn> columns, List<String> eventTypes, List<EventField> fields) {

    public FleetTable {
        columns = List.copyOf(columns);
        eventTypes = List.copyOf(eventTypes);
        fields = List.copyOf(fields);
    }

    /** A table of rows loomscope computes (not one event each). */
    public static FleetTable computed(String name, String row, List<FleetColumn> columns) {
        return new FleetTable(name, row, columns, List.of(), List.of());
    }

    /**
     * A table with a row per event of {@code eventTypes}: the recording, the event's fields as {@code fields} map them,
     * then {@code derived} columns loomscope computes.
     */
    public static FleetTable events(
            String name, String row, List<String> eventTypes, List<EventField> fields, List<FleetColumn> derived) {
        List<FleetColumn> columns = new ArrayList<>();
        columns.add(FleetSchema.RECORDING);
        fields.forEach(f -> columns.add(f.column()));
        columns.addAll(derived);
        return new FleetTable(name, row, columns, eventTypes, fields);
    }

    public int index(String column) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).name().equals(column)) {
                return i;
            }
        }
        throw new IllegalArgumentException(name + " has no column " + column);
    }

    /** A row of nulls, to fill. */
    public Object[] newRow(String recording) {
        Object[] row = new Object[columns.size()];
        row[0] = recording;
        return row;
    }
}
