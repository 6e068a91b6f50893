package dev.loomscope.analyzer.read;

import dev.loomscope.options.BadDataException;
import dev.loomscope.recording.ProfileFile;
import dev.loomscope.recording.RecordingSource;
import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import java.util.stream.Stream;

/**
 * Turns what the user typed into recordings: files, globs ({@code runs/*.jfr}, {@code **}), directories (every .jfr
 * below them, and .jfr.gz, .jfr.zip, .jfr.lz4), and JFR disk repositories (a directory of chunk files named
 * {@code yyyy_MM_dd_HH_mm_ss[_NN].jfr}: one recording, chunks in order). The agent's async-profiler samples
 * ({@code NAME.async-profiler.jfr}) are read with their recording, not as one of their own.
 */
public final class Inputs {
    private static final Pattern CHUNK = Pattern.compile("\\d{4}_\\d{2}_\\d{2}_\\d{2}_\\d{2}_\\d{2}(_\\d+)?\\.jfr");

    private Inputs() {}

    public static List<RecordingSource> resolve(List<String> args) {
        List<RecordingSource> out = new ArrayList<>();
        for (String arg : args) {
            List<RecordingSource> found = resolveOne(arg);
            out.addAll(found);
        }
        return out;
    }

    /**
     * A file or directory that is there is what it names, even when its name holds a wildcard (the shell expanded a
     * pattern to it: {@code run[1].jfr}); otherwise a name with a wildcard is a pattern.
     */
    static List<RecordingSource> resolveOne(String arg) {
        Path p = Path.of(arg).toAbsolutePath().normalize();
        if (Files.isDirectory(p)) {
            return directory(p);
        }
        if (!Files.exists(p) && hasWildcard(arg)) {
            return glob(arg);
        }
        return List.of(RecordingSource.file(p)); // checked when read: missing, empty, not JFR
    }

    private static boolean hasWildcard(String s) {
        return s.indexOf('*') >= 0 || s.indexOf('?') >= 0 || s.indexOf('[') >= 0;
    }

    private static List<RecordingSource> glob(String pattern) {
        Path abs = Path.of(pattern).toAbsolutePath().normalize();
        // the longest leading part without wildcards is where the walk starts
        Path root = abs.getRoot();
        for (Path part : abs) {
            if (hasWildcard(part.toString())) {
                break;
            }
            root = root.resolve(part);
        }
        PathMatcher m;
        try {
            m = FileSystems.getDefault().getPathMatcher("glob:" + abs);
        } catch (PatternSyntaxException e) {
            throw new BadDataException(abs + ": no such file, and not a pattern either: " + e.getDescription()
                    + " (check the name, or close its [)");
        }
        List<RecordingSource> out = new ArrayList<>();
        if (Files.isDirectory(root)) {
            try (Stream<Path> s = Files.walk(root)) {
                s.filter(Files::isRegularFile)
                        .filter(m::matches)
                        .filter(p -> !belongsToARecording(p))
                        .sorted()
                        .forEach(p -> out.add(RecordingSource.file(p)));
            } catch (IOException e) {
                throw new BadDataException(root + ": cannot list: " + e.getMessage() + " (check the permissions)");
            }
        }
        if (out.isEmpty()) {
            throw new BadDataException(abs + ": no file matches (check the pattern)");
        }
        return out;
    }

    /** A profile file whose recording is beside it: read with that recording, not as one of its own. */
    private static boolean belongsToARecording(Path p) {
        return ProfileFile.is(p) && Files.isRegularFile(ProfileFile.recordingOf(p));
    }

    /** .jfr, and .jfr compressed: .jfr.gz, .jfr.zip, .jfr.lz4. */
    public static boolean isRecordingName(String name) {
        return name.endsWith(".jfr")
                || name.endsWith(".jfr.gz")
                || name.endsWith(".jfr.zip")
                || name.endsWith(".jfr.lz4");
    }

    private static List<RecordingSource> directory(Path dir) {
        List<Path> jfrs;
        try (Stream<Path> s = Files.walk(dir)) {
            jfrs = s.filter(Files::isRegularFile)
                    .filter(p -> isRecordingName(p.getFileName().toString()))
                    .filter(p -> !belongsToARecording(p))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new BadDataException(dir + ": cannot list: " + e.getMessage() + " (check the permissions)");
        }
        if (jfrs.isEmpty()) {
            throw new BadDataException(
                    dir + ": no .jfr files in this directory, compressed or not (name recordings or a JFR repository)");
        }
        List<RecordingSource> out = new ArrayList<>();
        // Chunk files grouped by their directory make one recording each; other files stand alone.
        var byDir = new TreeMap<Path, List<Path>>();
        for (Path p : jfrs) {
            if (CHUNK.matcher(p.getFileName().toString()).matches()) {
                byDir.computeIfAbsent(p.getParent(), k -> new ArrayList<>()).add(p);
            } else {
                out.add(RecordingSource.file(p));
            }
        }
        byDir.forEach((d, parts) -> out.add(new RecordingSource(d, parts)));
        return out;
    }
}
