package dev.loomscope.analyzer.fleet;

import dev.loomscope.analyzer.read.BadInputException;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.ColumnWriteStore;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.convert.GroupRecordConverter;
import org.apache.parquet.hadoop.ColumnChunkPageWriteStore;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.RecordReader;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;

/**
 * An export's tables as Parquet files on the local disk: {@code DIR/<table>/*.parquet}, the layout
 * Spark writes, so either side reads the other's. loomscope writes one file per table, a row group
 * per recording; it reads any number of files per table.
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
                case STRING -> b.optional(PrimitiveTypeName.BINARY).as(LogicalTypeAnnotation.stringType()).named(c.name());
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
            this.file = new ParquetFileWriter(new LocalOutputFile(path), schema, ParquetFileWriter.Mode.OVERWRITE, 128L << 20, 0);
            file.start();
        }

        /** The rows as one row group (none: nothing written). */
        public void rowGroup(List<Object[]> rows) throws IOException {
            if (rows.isEmpty()) {
                return;
            }
            ColumnChunkPageWriteStore pages = new ColumnChunkPageWriteStore(Codecs.INSTANCE.getCompressor(Codecs.WRITTEN), schema,
                    properties.getAllocator(), properties.getColumnIndexTruncateLength());
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
        return Files.isDirectory(dir) && !files(dir.resolve(FleetSchema.RECORDINGS.name())).isEmpty();
    }

    /** The Parquet files of one table directory, in name order (none when it does not exist). */
    static List<Path> files(Path tableDir) {
        if (!Files.isDirectory(tableDir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(tableDir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".parquet") && !p.getFileName().toString().startsWith(".")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Reads every row of one table of the export in {@code dir}, values in the table's column order
     * (a column the file does not have is null: an export from an older loomscope). Bad input
     * naming the file when it is not Parquet, not this table, or of a newer schema.
     */
    public static void read(Path dir, FleetTable table, Consumer<Object[]> rows) {
        for (Path p : files(dir.resolve(table.name()))) {
            ParquetReadOptions options = ParquetReadOptions.builder(new PlainParquetConfiguration()).withCodecFactory(Codecs.INSTANCE).build();
            LocalInputFile input = new LocalInputFile(p);
            try (ParquetFileReader reader = ParquetFileReader.open(input, options)) {
                String version = reader.getFooter().getFileMetaData().getKeyValueMetaData().get(FleetSchema.VERSION_KEY);
                if (version != null && !version.equals(FleetSchema.VERSION)) {
                    throw new BadInputException(p.toAbsolutePath() + ": an export of schema version " + version + ", this loomscope reads version "
                            + FleetSchema.VERSION + " (export the recordings again, or use the loomscope that wrote it)");
                }
                MessageType fileSchema = reader.getFooter().getFileMetaData().getSchema();
                int[] at = positions(table, fileSchema, p);
                PageReadStore pages;
                while ((pages = reader.readNextRowGroup()) != null) {
                    RecordReader<Group> records = new ColumnIOFactory().getColumnIO(fileSchema).getRecordReader(pages, new GroupRecordConverter(fileSchema));
                    for (long i = 0; i < pages.getRowCount(); i++) {
                        rows.accept(values(table, records.read(), at));
                    }
                }
            } catch (BadInputException e) {
                throw e;
            } catch (IOException | RuntimeException e) {
                String why = String.valueOf(e.getMessage()).replace(input.toString(), "it"); // parquet-java names the file by its object
                throw new BadInputException(p.toAbsolutePath() + ": not a readable Parquet file of the " + table.name() + " table: " + why
                        + " (export the recordings again)", e);
            }
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
            PrimitiveTypeName expected = ours.getType(c.name()).asPrimitiveType().getPrimitiveTypeName();
            if (!t.isPrimitive() || t.asPrimitiveType().getPrimitiveTypeName() != expected) {
                throw new BadInputException(p.toAbsolutePath() + ": column " + c.name() + " is " + t + ", not " + expected + " as the " + table.name()
                        + " table has it (not a loomscope export?)");
            }
            at[i] = file.getFieldIndex(c.name());
        }
        return at;
    }

    private static Object[] values(FleetTable table, Group g, int[] at) {
        Object[] row = new Object[at.length];
        for (int i = 0; i < at.length; i++) {
            if (at[i] < 0 || g.getFieldRepetitionCount(at[i]) == 0) {
                continue;
            }
            row[i] = switch (table.columns().get(i).type()) {
                case LONG -> g.getLong(at[i], 0);
                case INT -> g.getInteger(at[i], 0);
                case DOUBLE -> g.getDouble(at[i], 0);
                case BOOLEAN -> g.getBoolean(at[i], 0);
                case STRING -> g.getString(at[i], 0);
            };
        }
        return row;
    }
}
