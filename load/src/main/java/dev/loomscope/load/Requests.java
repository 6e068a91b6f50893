package dev.loomscope.load;

import java.util.ArrayList;
import java.util.List;

/**
 * What one workload of the load client sends: one request, or a weighted mix of several (a request file), all to one
 * host over one kind of connection. Request i of the open loop is {@code order}'s entry i modulo its length: the mix's
 * weights interleaved smoothly (each request as evenly spread as its weight allows, the same sequence on every run), so
 * any stretch of the load holds the mix.
 */
public record Requests(String label, List<Target> targets, List<Integer> order, String described) {
    /** One request, every time. */
    public static Requests of(Target t) {
        return new Requests(t.label(), List.of(t), List.of(0), "url=" + t.uri() + " method=" + t.method());
    }

    /**
     * {@code targets} with their {@code weights} (each at least 1), called {@code label}; {@code source} names where
     * they come from.
     */
    public static Requests mix(String label, List<Target> targets, List<Integer> weights, String source) {
        // smooth weighted round robin: each turn every request gains its weight, the one ahead is sent and pays the
        // total
        int total = weights.stream().mapToInt(Integer::intValue).sum();
        long[] current = new long[weights.size()];
        List<Integer> order = new ArrayList<>(total);
        for (int turn = 0; turn < total; turn++) {
            int best = 0;
            for (int k = 0; k < current.length; k++) {
                current[k] += weights.get(k);
                if (current[k] > current[best]) {
                    best = k;
                }
            }
            current[best] -= total;
            order.add(best);
        }
        StringBuilder d = new StringBuilder("requests=" + source);
        for (int k = 0; k < targets.size(); k++) {
            d.append(" [")
                    .append(weights.get(k))
                    .append("x ")
                    .append(targets.get(k).method())
                    .append(' ')
                    .append(targets.get(k).uri())
                    .append(']');
        }
        return new Requests(label, List.copyOf(targets), List.copyOf(order), d.toString());
    }

    /** The one the connections are made to (every request of a mix shares its scheme, host and port). */
    public Target first() {
        return targets.get(0);
    }
}
