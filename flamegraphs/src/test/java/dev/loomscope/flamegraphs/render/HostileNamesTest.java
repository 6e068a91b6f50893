package dev.loomscope.flamegraphs.render;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.loomscope.flamegraphs.testing.ChildJvm;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Names from a recording are data, never markup: a frame, a thread or a title holding {@code </script>}, an event
 * handler or a line separator renders as text in the flame graph page, checked in the page's text and, where Chromium
 * is installed, by loading the page in it.
 */
class HostileNamesTest {
    /**
     * Each payload, if it ran, would mark the page's body ({@code data-pwned}); the dumped DOM then holds the mark.
     * Without quotes: the converter escapes {@code '}, which would break them.
     */
    static final List<String> PAYLOADS = List.of(
            "x</script><img src=x onerror=document.body.dataset.pwned=1>",
            "</script><svg onload=document.body.dataset.pwned=2>",
            "<!--<script>document.body.dataset.pwned=3</script>",
            "a\u2028b\u2029c\\</SCRIPT><img src=x onerror=document.body.dataset.pwned=4>");

    /**
     * A page whose one stack holds {@code payload} as its thread and leaf frame names (one payload a page: names share
     * prefixes in its data).
     */
    static String page(String payload, boolean diff) {
        SampleGraph g = new SampleGraph();
        g.add(
                new String[] {"[thread " + payload + "]", "Main.run", payload},
                new byte[] {SampleGraph.CPP, SampleGraph.JIT_COMPILED, SampleGraph.JIT_COMPILED},
                3,
                false);
        FlameOptions o = FlameOptions.of(SampleKind.CPU).withTitle("<script>document.body.dataset.pwned=5</script>");
        var out = new ByteArrayOutputStream();
        if (diff) {
            FlameRenderer.diff(g, g, o, false, out);
        } else {
            FlameRenderer.render(g, o, false, out);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void hostileNamesStayInsideTheirStringsAndTheTitleIsText() {
        for (String payload : PAYLOADS) {
            String html = page(payload, false);
            // one script end per script block of the template, none from the data (the names' tags are inert text
            // inside strings)
            assertThat(html.toLowerCase(Locale.ROOT).split("</script", -1)).hasSize(3);
            assertThat(html)
                    .doesNotContain("<!--<script>")
                    .doesNotContain("\u2028")
                    .doesNotContain("\u2029")
                    .contains("<h1>&lt;script&gt;document.body.dataset.pwned=5&lt;/script&gt;</h1>");
        }
    }

    /**
     * A stack far deeper than any JVM records (an export can hold one) is drawn, cut at the renderer's depth and saying
     * so.
     */
    @Test
    void aStackOfTwoHundredThousandFramesIsDrawnCut() {
        SampleGraph g = new SampleGraph();
        String[] names = new String[200_000];
        byte[] types = new byte[names.length];
        for (int i = 0; i < names.length; i++) {
            names[i] = "f" + i;
            types[i] = SampleGraph.JIT_COMPILED;
        }
        g.add(names, types, 1, false);
        var out = new ByteArrayOutputStream();
        FlameRenderer.render(g, FlameOptions.of(SampleKind.CPU), true, out);
        String collapsed = out.toString(StandardCharsets.UTF_8).strip();
        assertThat(collapsed.split(";")).hasSize(SampleGraph.MAX_DEPTH + 1);
        assertThat(collapsed).endsWith("[" + (200_000 - SampleGraph.MAX_DEPTH) + " deeper frames left out] 1");
        var html = new ByteArrayOutputStream();
        FlameRenderer.render(g, FlameOptions.of(SampleKind.CPU), false, html);
        assertThat(html.toString(StandardCharsets.UTF_8)).contains("deeper frames left out");
    }

    @Test
    void noScriptRunsInChromium(@TempDir Path dir) throws Exception {
        Path chromium = Path.of("/usr/bin/chromium");
        assumeTrue(Files.isExecutable(chromium), "chromium is not installed (.ci/run installs it)");
        for (int i = 0; i < 2 * PAYLOADS.size(); i++) {
            boolean diff = i >= PAYLOADS.size();
            Path file = Files.writeString(
                    dir.resolve((diff ? "diff" : "flame") + i + ".html"),
                    page(PAYLOADS.get(i % PAYLOADS.size()), diff));
            ChildJvm.Result r = ChildJvm.exec(
                    List.of(
                            chromium.toString(),
                            "--headless",
                            "--no-sandbox",
                            "--disable-gpu",
                            "--user-data-dir=" + dir.resolve("p"),
                            "--virtual-time-budget=3000",
                            "--dump-dom",
                            file.toUri().toString()),
                    dir,
                    120);
            assertThat(r.stdout()).as("the page loaded").contains("<canvas id=\"canvas\"");
            assertThat(r.stdout()).as(file + ": a name ran as script").doesNotContain("data-pwned=\"");
        }
    }
}
