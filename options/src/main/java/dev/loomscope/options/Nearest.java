package dev.loomscope.options;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The names most like a mistyped word, as picocli suggests an option: by the cosine of their letter-pair counts, the
 * most alike first, those sharing no letter pair left out. Used wherever a user types a name from a list (a command, an
 * agent option, a metric, a rule's setting). Plain loops: a lambda's first use costs the CLI's start more than this
 * whole answer.
 */
public final class Nearest {
    private Nearest() {}

    /** The names like {@code word}, the most alike first; of names as alike, the last one given. */
    public static List<String> of(String word, Collection<String> names) {
        return of(word, names, 0);
    }

    /**
     * {@code "; did you mean A or B?"} with at most three names at least half as alike as the same word (a cosine of
     * 0.5: {@code pinned-treshold} finds {@code pinned-threshold}, {@code colour} nothing), or nothing when none is.
     */
    public static String didYouMean(String word, Collection<String> names) {
        return phrase(of(word, names, 0.5));
    }

    /**
     * {@code "; did you mean A or B or C?"} with the first three of {@code near} (however found), or nothing when it is
     * empty.
     */
    public static String phrase(List<String> near) {
        return near.isEmpty()
                ? ""
                : "; did you mean " + String.join(" or ", near.subList(0, Math.min(3, near.size()))) + "?";
    }

    /**
     * The names whose letter pairs' cosine with {@code word}'s is above 0 and at least {@code least}, the most alike
     * first.
     */
    private static List<String> of(String word, Collection<String> names, double least) {
        Map<String, Integer> pairs = pairs(word.toLowerCase(Locale.ROOT));
        List<String> near = new ArrayList<>();
        List<Double> similarity = new ArrayList<>();
        for (String name : names) {
            Map<String, Integer> other = pairs(name.toLowerCase(Locale.ROOT));
            double dot = 0;
            for (Map.Entry<String, Integer> e : pairs.entrySet()) {
                Integer n = other.get(e.getKey());
                dot += n == null ? 0 : e.getValue() * n;
            }
            double c = dot == 0 ? 0 : dot / (norm(pairs) * norm(other));
            if (c > 0 && c >= least) {
                int at = 0;
                while (at < near.size() && similarity.get(at) > c) {
                    at++;
                }
                if (at < near.size() && similarity.get(at) == c) {
                    near.set(at, name); // of names as like it, picocli names the last
                } else {
                    near.add(at, name);
                    similarity.add(at, c);
                }
            }
        }
        return near;
    }

    private static Map<String, Integer> pairs(String s) {
        Map<String, Integer> m = new HashMap<>();
        for (int i = 0; i + 1 < s.length(); i++) {
            String pair = s.substring(i, i + 2);
            Integer n = m.get(pair);
            m.put(pair, n == null ? 1 : n + 1);
        }
        return m;
    }

    private static double norm(Map<String, Integer> v) {
        double sum = 0;
        for (int x : v.values()) {
            sum += (double) x * x;
        }
        return Math.sqrt(sum);
    }
}
