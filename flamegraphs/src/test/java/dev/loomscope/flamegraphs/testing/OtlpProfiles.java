package dev.loomscope.flamegraphs.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * An OTLP profile as OpenTelemetry's own classes read it: PyPI's opentelemetry-proto (generated from the same .proto
 * files as every OTLP receiver) parses the message, and a script resolves each sample's stack and attributes through
 * the dictionary as a receiver does. {@link #read} answers each sample as "kind|thread id or -|value|frames leaf
 * first", sorted, then the profile's header.
 */
public final class OtlpProfiles {
    private OtlpProfiles() {}

    private static final String READER = """
        import sys
        from opentelemetry.proto.profiles.v1development import profiles_pb2 as p
        d = p.ProfilesData.FromString(open(sys.argv[1], 'rb').read())
        t = d.dictionary
        s = t.string_table
        assert s[0] == '' and len(t.mapping_table) >= 1 and len(t.link_table) >= 1
        assert t.function_table[0].name_strindex == 0 and len(t.stack_table[0].location_indices) == 0
        prof = d.resource_profiles[0].scope_profiles[0].profiles[0]
        lines = []
        for smp in prof.samples:
            frames = [s[t.function_table[t.location_table[i].lines[0].function_index].name_strindex]
                      for i in t.stack_table[smp.stack_index].location_indices]
            attrs = {}
            for a in smp.attribute_indices:
                kv = t.attribute_table[a]
                v = kv.value
                attrs[s[kv.key_strindex]] = v.string_value if v.HasField('string_value') else v.int_value
            lines.append('%s|%s|%d|%s' % (attrs['thread.kind'], attrs.get('thread.id', '-'),
                                          sum(smp.values), ';'.join(frames)))
        for l in sorted(lines):
            print(l)
        print('type=%s unit=%s time=%d duration=%d period=%d' % (s[prof.sample_type.type_strindex],
              s[prof.sample_type.unit_strindex],
              prof.time_unix_nano, prof.duration_nano, prof.period))
        """;

    public static List<String> read(Path profile, Path dir) throws Exception {
        Path script = Files.writeString(dir.resolve("read.py"), READER);
        Process p;
        try {
            p = new ProcessBuilder("python3", script.toString(), profile.toString())
                    .redirectErrorStream(true)
                    .start();
        } catch (IOException noPython) {
            Assumptions.abort("no python3 here: " + noPython.getMessage());
            return null;
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        if (p.exitValue() != 0 && out.contains("No module named 'opentelemetry")) {
            if (System.getenv("CI") != null) {
                throw new AssertionError(
                        "CI: PyPI's opentelemetry-proto is not installed (.ci/run installs it): " + out);
            }
            Assumptions.abort("PyPI's opentelemetry-proto is not installed here (pip install opentelemetry-proto)");
        }
        assertThat(p.exitValue()).as(out).isZero();
        return out.lines().toList();
    }
}
