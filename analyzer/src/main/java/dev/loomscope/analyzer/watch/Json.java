package dev.loomscope.analyzer.watch;

import dev.loomscope.analyzer.render.JsonRenderer;
import java.util.Collection;
import java.util.Map;

/** One JSON object on one line, from maps, lists and values: what {@code watch --format json} prints. */
final class Json {
    private Json() {}

    static String of(Object v) {
        if (v instanceof Map<?, ?> m) {
            StringBuilder sb = new StringBuilder("{");
            m.forEach((k, x) -> sb.append(sb.length() > 1 ? "," : "")
                    .append(JsonRenderer.string(k.toString()))
                    .append(':')
                    .append(of(x)));
            return sb.append('}').toString();
        }
        if (v instanceof Collection<?> c) {
            StringBuilder sb = new StringBuilder("[");
            c.forEach(x -> sb.append(sb.length() > 1 ? "," : "").append(of(x)));
            return sb.append(']').toString();
        }
        return JsonRenderer.value(v);
    }
}
