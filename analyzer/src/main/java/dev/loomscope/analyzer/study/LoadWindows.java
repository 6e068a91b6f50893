package dev.loomscope.analyzer.study;

import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.analyzer.reduce.RunsReducer.WorkloadRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A service's recording joined with the load client's windows: {@code study --app} writes the client's {@value #FILE}
 * beside each recording, and a recording is judged once per URL and rate ({@code GET /io at 300/s}) over that
 * workload's windows, as the study judged it.
 */
public final class LoadWindows {
    /** The load client's windows, beside the service's recording. */
    public static final String FILE = "load.csv";

    private LoadWindows() {}

    /** {@code runs}' workloads in their order, each with its own runs. */
    static Map<String, List<WorkloadRun>> byWorkload(List<WorkloadRun> runs) {
        Map<String, List<WorkloadRun>> out = new LinkedHashMap<>();
        runs.forEach(
                r -> out.computeIfAbsent(r.workload(), k -> new ArrayList<>()).add(r));
        return out;
    }

    /**
     * Each recording as it is, except one without runs of its own that has the load client's windows beside it: that
     * one once per workload of the windows, with that workload's runs.
     */
    public static List<RecordingFacts> joined(List<RecordingFacts> facts) {
        List<RecordingFacts> out = new ArrayList<>();
        for (RecordingFacts f : facts) {
            Path beside = f.source.name().toAbsolutePath().resolveSibling(FILE);
            if (!f.runs.runs().isEmpty() || !Files.isRegularFile(f.source.name()) || !Files.isRegularFile(beside)) {
                out.add(f);
                continue;
            }
            Map<String, List<WorkloadRun>> windows = byWorkload(ControlRuns.read(beside));
            if (windows.isEmpty()) {
                out.add(f);
            }
            windows.values().forEach(runs -> out.add(f.withRuns(runs)));
        }
        return out;
    }
}
