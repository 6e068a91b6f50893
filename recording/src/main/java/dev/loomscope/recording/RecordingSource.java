package dev.loomscope.recording;

import java.nio.file.Path;
import java.util.List;

/**
 * One recording to read: a .jfr file (with the agent's async-profiler samples beside it, when there), or the chunk
 * files of a JFR disk repository (what a killed JVM leaves behind), read in order as one recording.
 *
 * @param name what to call it in output: the file, or the repository directory
 * @param parts the files, in order
 */
public record RecordingSource(Path name, List<Path> parts) {
    public RecordingSource {
        parts = List.copyOf(parts);
    }

    /** A file, with the async-profiler samples the agent wrote beside it ({@link ProfileFile}) when they are there. */
    public static RecordingSource file(Path p) {
        Path profile = ProfileFile.beside(p);
        return new RecordingSource(p, profile == null ? List.of(p) : List.of(p, profile));
    }

    /** The file name without directory and .jfr, for labels. */
    public String shortName() {
        String n = name.getFileName() == null
                ? name.toString()
                : name.getFileName().toString();
        for (String ext : new String[] {".jfr", ".jfr.gz", ".jfr.zip", ".jfr.lz4"}) {
            if (n.endsWith(ext)) {
                return n.substring(0, n.length() - ext.length());
            }
        }
        return n;
    }
}
