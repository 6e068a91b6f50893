package dev.loomscope.analyzer.compare;

import dev.loomscope.analyzer.read.BadInputException;
import dev.loomscope.analyzer.reduce.RecordingFacts;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which group each recording belongs to: the thread kind (or label) the agent stored, or explicit
 * {@code name=GLOB} rules, first match wins.
 */
public final class Grouping {
    private Grouping() {}

    public static Map<String, List<RecordingFacts>> of(List<RecordingFacts> facts, List<String> rules) {
        Map<String, List<RecordingFacts>> groups = new LinkedHashMap<>();
        if (rules == null || rules.isEmpty()) {
            for (RecordingFacts f : facts) {
                groups.computeIfAbsent(f.group(), k -> new ArrayList<>()).add(f);
            }
            return groups;
        }
        List<String> names = new ArrayList<>();
        List<PathMatcher> matchers = new ArrayList<>();
        for (String rule : rules) {
            int eq = rule.indexOf('=');
            if (eq <= 0 || eq == rule.length() - 1) {
                throw new BadInputException("--group " + rule + ": expected NAME=GLOB (e.g. virtual=runs/*virtual*.jfr)");
            }
            names.add(rule.substring(0, eq));
            String glob = rule.substring(eq + 1);
            matchers.add(FileSystems.getDefault().getPathMatcher("glob:" + Path.of(glob).toAbsolutePath().normalize()));
            groups.put(rule.substring(0, eq), new ArrayList<>());
        }
        for (RecordingFacts f : facts) {
            for (int i = 0; i < matchers.size(); i++) {
                if (matchers.get(i).matches(f.source.name().toAbsolutePath().normalize())) {
                    groups.get(names.get(i)).add(f);
                    break;
                }
            }
        }
        for (Map.Entry<String, List<RecordingFacts>> e : groups.entrySet()) {
            if (e.getValue().isEmpty()) {
                String rule = rules.stream().filter(r -> r.startsWith(e.getKey() + "=")).findFirst().orElse(e.getKey());
                throw new BadInputException("--group " + rule + ": matches none of the recordings given (check the pattern)");
            }
        }
        return groups;
    }
}
