package dev.loomscope.analyzer.cli;

import dev.loomscope.analyzer.render.Format;
import dev.loomscope.analyzer.render.Table;
import dev.loomscope.options.BadDataException;
import dev.loomscope.options.UsageException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Option;

/** The options every tabular command shares: --format, -o, --debug. */
public final class OutputOptions {
    @Option(
            names = "--format",
            paramLabel = "FORMAT",
            defaultValue = "text",
            converter = FormatConverter.class,
            description = "text, csv, json or md; svg for compare's chart (default: ${DEFAULT-VALUE})")
    Format format = Format.TEXT;

    @Option(
            names = {"-o", "--output"},
            paramLabel = "FILE",
            description = "write to FILE instead of standard output")
    Path output;

    @picocli.CommandLine.Mixin
    DebugOption debug;

    /** Renders the tables in the chosen format to standard output or the -o file. */
    public void emit(List<Table> tables, PrintWriter out) {
        if (format == Format.SVG) {
            throw new UsageException(
                    "--format svg: only 'loomscope compare' draws a chart; use text, csv, json or md here");
        }
        write(format.render(tables), out);
    }

    /** Whether a chart is asked for: --format svg, or -o FILE.svg without another --format. */
    boolean svg() {
        return format == Format.SVG
                || format == Format.TEXT
                        && output != null
                        && output.getFileName()
                                .toString()
                                .toLowerCase(Locale.ROOT)
                                .endsWith(".svg");
    }

    /** Writes {@code text} to standard output or the -o file. */
    void write(String text, PrintWriter out) {
        if (output == null) {
            out.print(text);
            out.flush();
            return;
        }
        try {
            Path abs = output.toAbsolutePath();
            if (abs.getParent() != null) {
                Files.createDirectories(abs.getParent());
            }
            Files.writeString(abs, text);
        } catch (IOException e) {
            throw new BadDataException(
                    output.toAbsolutePath() + ": cannot write: " + e.getMessage() + " (choose another -o)");
        }
    }

    /** picocli converter: a clear message for a bad --format. */
    public static final class FormatConverter implements picocli.CommandLine.ITypeConverter<Format> {
        @Override
        public Format convert(String value) {
            try {
                return Format.parse(value);
            } catch (IllegalArgumentException e) {
                throw new picocli.CommandLine.TypeConversionException(
                        "'" + value + "' is not a format (use text, csv, json or md; svg for compare's chart)");
            }
        }
    }
}
