package dev.loomscope.agent;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/** Writes JFR settings ({@code "event#setting" -> value}) as a .jfc file, for async-profiler's jfrsync. */
final class JfcWriter {
    private JfcWriter() {}

    static void write(Map<String, String> settings, Path file) throws IOException {
        Map<String, Map<String, String>> byEvent = new TreeMap<>();
        settings.forEach((key, value) -> {
            int hash = key.indexOf('#');
            if (hash > 0) {
                byEvent.computeIfAbsent(key.substring(0, hash), k -> new TreeMap<>()).put(key.substring(hash + 1), value);
            }
        });
        StringBuilder sb = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        sb.append("<configuration version=\"2.0\" label=\"loomscope\" description=\"written by the loomscope agent\">\n");
        byEvent.forEach((event, values) -> {
            sb.append("  <event name=\"").append(xml(event)).append("\">\n");
            values.forEach((name, value) -> sb.append("    <setting name=\"").append(xml(name)).append("\">")
                    .append(xml(value)).append("</setting>\n"));
            sb.append("  </event>\n");
        });
        sb.append("</configuration>\n");
        Files.writeString(file, sb.toString());
    }

    private static String xml(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
