package dev.loomscope.analyzer.study;

import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.load.ClientFigures;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The JVMs of one URL and rate whose measured windows drained a backlog ({@link ClientFigures#drained}): requests left
 * late by a cold start answered inside the windows, so their throughput is above what was offered and their latency the
 * backlog's. No verdict's bottom line rests on them.
 */
final class Draining {
    private Draining() {}

    /**
     * What drained, in words ({@code virtual: 3 of 4 JVMs answered above the offered rate ...}); null when no JVM did.
     */
    static String of(Map<String, List<RecordingFacts>> groups) {
        StringBuilder b = new StringBuilder();
        for (String kind : StudyPlan.KINDS) {
            List<ClientFigures> figures = groups.getOrDefault(kind, List.of()).stream()
                    .map(f -> f.runs.client())
                    .filter(Objects::nonNull)
                    .toList();
            long drained = figures.stream().filter(ClientFigures::drained).count();
            if (drained > 0) {
                b.append(b.isEmpty() ? "" : "; ")
                        .append(String.format(
                                Locale.ROOT,
                                "%s: %d of %d JVMs answered above the offered rate in their measured windows",
                                kind,
                                drained,
                                figures.size()));
            }
        }
        return b.isEmpty()
                ? null
                : b
                        + " (a backlog from their warm-up draining: their figures are the backlog's, not the service's;"
                        + " give a longer --max-warmup, or a rate they keep)";
    }
}
