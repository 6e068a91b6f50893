package dev.loomscope.analyzer.render;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A titled table: columns with units, rows of cells (text, numbers, or null for "not applicable"). Reducers' results
 * become tables; renderers turn tables into text, CSV, Markdown or JSON. A note under the table says what is missing
 * and why.
 */
public final class Table {

    /** A column: its name, its unit ("" for none) and how many decimals numbers get in text. */
    public record Column(String name, String unit, int decimals) {
        public String header() {
            return unit.isEmpty() ? name : name + " (" + unit + ")";
        }
    }

    private final String name;
    private final String title;
    private final List<Column> columns;
    private final List<Object[]> rows = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();

    public Table(String name, String title, List<Column> columns) {
        this.name = name;
        this.title = title;
        this.columns = List.copyOf(columns);
    }

    public static Column text(String name) {
        return new Column(name, "", 0);
    }

    public static Column number(String name, String unit, int decimals) {
        return new Column(name, unit, decimals);
    }

    public Table row(Object... cells) {
        if (cells.length != columns.size()) {
            throw new IllegalArgumentException(
                    name + ": " + cells.length + " cells for " + columns.size() + " columns");
        }
        rows.add(Arrays.copyOf(cells, cells.length));
        return this;
    }

    public Table note(String note) {
        notes.add(note);
        return this;
    }

    /**
     * This table, with the note {@code none: why} when it has no rows: no output shows a title with nothing under it.
     */
    public Table orNone(String why) {
        if (rows.isEmpty()) {
            notes.add(0, "none: " + why);
        }
        return this;
    }

    /**
     * This table with {@code prefix} before its title (one comparison of several: {@code echo: }), and before its first
     * column's text cells too when {@code cells} (the verdict lines).
     */
    public Table prefixed(String prefix, boolean cells) {
        Table t = new Table(name, prefix + title, columns);
        for (Object[] row : rows) {
            Object[] r = row.clone();
            if (cells && r.length > 0 && r[0] instanceof String s) {
                r[0] = prefix + s;
            }
            t.rows.add(r);
        }
        t.notes.addAll(notes);
        return t;
    }

    public String name() {
        return name;
    }

    public String title() {
        return title;
    }

    public List<Column> columns() {
        return columns;
    }

    public List<Object[]> rows() {
        return rows;
    }

    public List<String> notes() {
        return notes;
    }

    /** A cell as text: numbers with the column's decimals, null or NaN as "n/a". */
    public String format(int column, Object cell) {
        if (cell == null) {
            return "n/a";
        }
        if (cell instanceof Double d) {
            if (d.isNaN() || d.isInfinite()) {
                return "n/a";
            }
            return String.format(Locale.ROOT, "%,." + columns.get(column).decimals() + "f", d);
        }
        if (cell instanceof Float f) {
            return format(column, (double) f);
        }
        if (cell instanceof Long || cell instanceof Integer) {
            return String.format(Locale.ROOT, "%,d", ((Number) cell).longValue());
        }
        return cell.toString();
    }
}
