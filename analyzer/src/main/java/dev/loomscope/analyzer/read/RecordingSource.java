package dev.loomscope.analyzer.read;

import java.nio.file.Path;
import java.util.List;

/**
 * One recording to read: a .jfr file, or the chunk files of a JFR disk repository (what a killed
 * JVM leaves behind), read in order as one recording.
 *
 * @param name  what to call it in output: the file, or the repository directory
 * @param parts the files, in order
 */
public record RecordingSource(Path name, List<Path> parts) {
    public RecordingSource {
        parts = List.copyOf(parts);
    }

    public static RecordingSource file(Path p) {
        return new RecordingSource(p, List.of(p));
    }

    /** The file name without directory and .jfr, for labels. */
    public String shortName() {
        String n = name.getFileName() == null ? name.toString() : name.getFileName().toString();
        for (String ext : new String[] {".jfr", ".jfr.gz", ".jfr.zip", ".jfr.lz4"}) {
            if (n.endsWith(ext)) {
                return n.substring(0, n.length() - ext.length());
            }
        }
        return n;
    }
}
