package dev.loomscope.analyzer.fleet;

import dev.loomscope.options.BadDataException;
import dev.loomscope.recording.Said;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.ColumnWriteStore;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ColumnChunkPageWriteStore;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;

/**
 * An export's tables as Parquet files on the local disk: {@code DIR/<table>/*.parquet}, the layout Spark writes, so
 * either side reads the other's. loomscope writes one file per table, a row group per recording; it reads any number of
 * files per table.
 */
public final class ParquetTables {
    private ParquetTables() {}

    /** The Parquet schema of a table: its columns, all optional, strings as UTF-8. */
    public static MessageType schema(FleetTable table) {
        Types.MessageTypeBuilder b = Types.buildMessage();
        for (FleetColumn c : table.columns()) {
            switch (c.type()) {
                case LONG -> b.optional(PrimitiveTypeName.INT64).named(c.name());
                case INT -> b.optional(PrimitiveTypeName.INT32).named(c.name());
                case DOUBLE -> b.optional(PrimitiveTypeName.DOUBLE).named(c.name());
                case BOOLEAN -> b.optional(PrimitiveTypeName.BOOLEAN).named(c.name());
                case STRING ->
                    b.optional(PrimitiveTypeName.BINARY)
                            .as(LogicalTypeAnnotation.stringType())
                            .named(c.name());
            }
        }
        return b.named("spark_schema"); // the message name Spark gives its files
    }

    /** Writes one table: a row group per {@link #rowGroup} call. */
    public static final class Writer implements Closeable {
        private final FleetTable table;
        private final MessageType schema;
        private final ParquetFileWriter file;
        private final ParquetProperties properties = ParquetProperties.builder().build();
        private final Path path;

        public Writer(Path dir, FleetTable table) throws IOException {
            this.table = table;
            this.schema = schema(table);
            Path tableDir = Files.createDirectories(dir.resolve(table.name()));
            this.path = tableDir.resolve("part-00000.parquet");
            this.file = new ParquetFileWriter(
                    new LocalOutputFile(path), schema, ParquetFileWriter.Mode.OVERWRITE, 128L << 20, 0);
            file.start();
        }

        /** The rows as one row group (none: nothing written). */
        public void rowGroup(List<Object[]> rows) throws IOException {
            if (rows.isEmpty()) {
                return;
            }
            ColumnChunkPageWriteStore pages = new ColumnChunkPageWriteStore(
                    Codecs.INSTANCE.getCompressor(Codecs.WRITTEN),
                    schema,
                    properties.getAllocator(),
                    properties.getColumnIndexTruncateLength());
            ColumnWriteStore columns = properties.newColumnWriteStore(schema, pages);
            RecordConsumer out = new ColumnIOFactory(false).getColumnIO(schema).getRecordWriter(columns);
            List<FleetColumn> cs = table.columns();
            for (Object[] row : rows) {
                out.startMessage();
                for (int i = 0; i < cs.size(); i++) {
                    if (row[i] != null) {
                        out.startField(cs.get(i).name(), i);
                        switch (cs.get(i).type()) {
                            case LONG -> out.addLong(((Number) row[i]).longValue());
                            case INT -> out.addInteger(((Number) row[i]).intValue());
                            case DOUBLE -> out.addDouble(((Number) row[i]).doubleValue());
                            case BOOLEAN -> out.addBoolean((Boolean) row[i]);
                            case STRING -> out.addBinary(Binary.fromString((String) row[i]));
                        }
                        out.endField(cs.get(i).name(), i);
                    }
                }
                out.endMessage();
            }
            columns.flush();
            file.startBlock(rows.size());
            pages.flushToFileWriter(file);
            file.endBlock();
            columns.close();
            pages.close();
        }

        @Override
        public void close() throws IOException {
            file.end(Map.of(FleetSchema.VERSION_KEY, FleetSchema.VERSION, "loomscope.table", table.name()));
        }

        public Path path() {
            return path;
        }
    }

    /** Whether {@code dir} holds an export: a recordings table with at least one Parquet file. */
    public static boolean isExport(Path dir) {
        return Files.isDirectory(dir)
                && !files(dir.resolve(FleetSchema.RECORDINGS.name())).isEmpty();
    }

    /** The Parquet files of one table directory, in name order (none when it does not exist). */
    static List<Path> files(Path tableDir) {
        if (!Files.isDirectory(tableDir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(tableDir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".parquet")
                            && !p.getFileName().toString().startsWith("."))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Reads every row of one table of the export in {@code dir}, values in the table's column order (a column the file
     * does not have is null: an export from an older loomscope). Bad input naming the file when it is not Parquet, not
     * this table, or of a newer schema.
     */
    public static void read(Path dir, FleetTable table, Consumer<Object[]> rows) {
        read(dir, table, (Predicate<Object[]>) null, rows);
    }

    /** As {@link #read(Path, FleetTable, Consumer)}, only the rows whose {@code column} holds one of {@code values}. */
    public static void read(Path dir, FleetTable table, String column, Set<Long> values, Consumer<Object[]> rows) {
        int c = table.index(column);
        read(dir, table, row -> values.contains(row[c]), rows);
    }

    private static void read(Path dir, FleetTable table, Predicate<Object[]> keep, Consumer<Object[]> rows) {
        for (Path p : files(dir.resolve(table.name()))) {
            ParquetReadOptions options = ParquetReadOptions.builder(new PlainParquetConfiguration())
                    .withCodecFactory(Codecs.INSTANCE)
                    .build();
            LocalInputFile input = new LocalInputFile(p);
            try (ParquetFileReader reader = ParquetFileReader.open(input, options)) {
                String version = reader.getFooter()
                        .getFileMetaData()
                        .getKeyValueMetaData()
                        .get(FleetSchema.VERSION_KEY);
                if (version != null && !version.equals(FleetSchema.VERSION)) {
                    throw new BadDataException(p.toAbsolutePath() + ": an export of schema version " + version
                            + ", this loomscope reads version " + FleetSchema.VERSION
                            + " (export the recordings again, or use the loomscope that wrote it)");
                }
                MessageType fileSchema = reader.getFooter().getFileMetaData().getSchema();
                Columns columns = new Columns(
                        table,
                        fileSchema,
                        positions(table, fileSchema, p),
                        reader.getFooter().getFileMetaData().getCreatedBy());
                reader.setRequestedSchema(columns.requested); // the other columns of the file are not read
                PageReadStore pages;
                while ((pages = reader.readNextRowGroup()) != null) {
                    for (Object[] row : columns.rows(pages)) {
                        if (keep == null || keep.test(row)) {
                            rows.accept(row);
                        }
                    }
                }
            } catch (BadDataException e) {
                throw e;
            } catch (IOException | RuntimeException e) {
                String why = Said.by(e).replace(input.toString(), "it"); // parquet-java names the file by its object
                throw new BadDataException(
                        p.toAbsolutePath() + ": not a readable Parquet file of the " + table.name() + " table: " + why
                                + " (export the recordings again)",
                        e);
            }
        }
    }

    /**
     * A file's columns read column by column into rows of the table (the tables are flat: every column optional, none
     * repeated); a dictionary-encoded string column has its dictionary decoded once per column chunk, not once per row.
     */
    private static final class Columns {
        private final int width;
        private final MessageType requested;
        private final String createdBy;
        private final List<Integer> at = new ArrayList<>(); // per requested column, its index in the table
        private final Column[] converters;
        private final GroupConverter root;

        Columns(FleetTable table, MessageType file, int[] positions, String createdBy) {
            this.width = table.columns().size();
            this.createdBy = createdBy;
            List<Type> fields = new ArrayList<>();
            for (int i = 0; i < positions.length; i++) {
                if (positions[i] >= 0) {
                    fields.add(file.getType(positions[i]));
                    at.add(i);
                }
            }
            this.requested = new MessageType(file.getName(), fields);
            this.converters = new Column[fields.size()];
            for (int f = 0; f < converters.length; f++) {
                converters[f] = new Column(table.columns().get(at.get(f)).type() == FleetColumn.Type.STRING);
            }
            this.root = new GroupConverter() {
                @Override
                public Converter getConverter(int field) {
                    return converters[field];
                }

                @Override
                public void start() {}

                @Override
                public void end() {}
            };
        }

        /** The rows of one row group. */
        List<Object[]> rows(PageReadStore pages) {
            int n = Math.toIntExact(pages.getRowCount());
            List<Object[]> rows = new ArrayList<>(n);
            for (int r = 0; r < n; r++) {
                rows.add(new Object[width]);
            }
            ColumnReadStoreImpl store = new ColumnReadStoreImpl(pages, root, requested, createdBy);
            List<ColumnDescriptor> descriptors = requested.getColumns();
            for (int f = 0; f < descriptors.size(); f++) {
                ColumnDescriptor d = descriptors.get(f);
                ColumnReader values = store.getColumnReader(d);
                Column c = converters[f];
                c.at = at.get(f);
                for (int r = 0; r < n; r++) {
                    if (values.getCurrentDefinitionLevel() == d.getMaxDefinitionLevel()) {
                        c.row = rows.get(r);
                        values.writeCurrentValueToConverter();
                    }
                    values.consume();
                }
            }
            return rows;
        }
    }

    /** One column's values into their place in the row at hand. */
    private static final class Column extends PrimitiveConverter {
        private final boolean string;
        private String[] dictionary;
        int at;
        Object[] row;

        Column(boolean string) {
            this.string = string;
        }

        @Override
        public void addLong(long v) {
            row[at] = v;
        }

        @Override
        public void addInt(int v) {
            row[at] = v;
        }

        @Override
        public void addDouble(double v) {
            row[at] = v;
        }

        @Override
        public void addBoolean(boolean v) {
            row[at] = v;
        }

        @Override
        public void addBinary(Binary v) {
            row[at] = v.toStringUsingUTF8();
        }

        @Override
        public boolean hasDictionarySupport() {
            return string;
        }

        @Override
        public void setDictionary(Dictionary d) {
            dictionary = new String[d.getMaxId() + 1];
            for (int id = 0; id < dictionary.length; id++) {
                dictionary[id] = d.decodeToBinary(id).toStringUsingUTF8();
            }
        }

        @Override
        public void addValueFromDictionary(int id) {
            row[at] = dictionary[id];
        }
    }

    /** Where each of the table's columns is in the file (-1: not there); bad input when a column has another type. */
    private static int[] positions(FleetTable table, MessageType file, Path p) {
        int[] at = new int[table.columns().size()];
        MessageType ours = schema(table);
        for (int i = 0; i < at.length; i++) {
            FleetColumn c = table.columns().get(i);
            if (!file.containsField(c.name())) {
                at[i] = -1;
                continue;
            }
            Type t = file.getType(c.name());
            PrimitiveTypeName expected =
                    ours.getType(c.name()).asPrimitiveType().getPrimitiveTypeName();
            if (!t.isPrimitive() || t.asPrimitiveType().getPrimitiveTypeName() != expected) {
                throw new BadDataException(p.toAbsolutePath() + ": column " + c.name() + " is " + t + ", not "
                        + expected + " as the " + table.name() + " table has it (not a loomscope export?)");
            }
            at[i] = file.getFieldIndex(c.name());
        }
        return at;
    }
}
