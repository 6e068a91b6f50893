package dev.loomscope.flamegraphs.render;

import static dev.loomscope.flamegraphs.render.ProtoOut.bytesField;
import static dev.loomscope.flamegraphs.render.ProtoOut.fixed64Field;
import static dev.loomscope.flamegraphs.render.ProtoOut.packed;
import static dev.loomscope.flamegraphs.render.ProtoOut.stringField;
import static dev.loomscope.flamegraphs.render.ProtoOut.varintField;

import dev.loomscope.recording.RecordingSpan;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A {@link SampleGraph} as an OpenTelemetry profile: {@code ProfilesData} of opentelemetry-proto 1.10's
 * {@code profiles/v1development}, the message async-profiler 4.5's converter writes ({@code jfrconv -o otlp}) and an
 * OTLP collector takes. One profile; one sample per distinct stack and thread, its count the value; each sample's
 * attributes {@code thread.kind} ({@code virtual} or {@code platform}) and, for a virtual thread JFR recorded as such,
 * {@code thread.id} (its Java id, as OpenTelemetry's semantic conventions name a thread's id). The dictionary's tables
 * start with the zero entries the specification asks for. Not compressed: an OTLP exporter compresses on the wire.
 */
public final class OtlpWriter {
    // opentelemetry-proto 1.10, profiles/v1development/profiles.proto
    private static final int DATA_RESOURCE_PROFILES = 1;
    private static final int DATA_DICTIONARY = 2;
    private static final int DICTIONARY_MAPPING_TABLE = 1;
    private static final int DICTIONARY_LOCATION_TABLE = 2;
    private static final int DICTIONARY_FUNCTION_TABLE = 3;
    private static final int DICTIONARY_LINK_TABLE = 4;
    private static final int DICTIONARY_STRING_TABLE = 5;
    private static final int DICTIONARY_ATTRIBUTE_TABLE = 6;
    private static final int DICTIONARY_STACK_TABLE = 7;
    private static final int RESOURCE_PROFILES_SCOPE_PROFILES = 2;
    private static final int SCOPE_PROFILES_PROFILES = 2;
    private static final int PROFILE_SAMPLE_TYPE = 1;
    private static final int PROFILE_SAMPLES = 2;
    private static final int PROFILE_TIME_UNIX_NANO = 3;
    private static final int PROFILE_DURATION_NANO = 4;
    private static final int PROFILE_PERIOD_TYPE = 5;
    private static final int PROFILE_PERIOD = 6;
    private static final int VALUE_TYPE_TYPE = 1;
    private static final int VALUE_TYPE_UNIT = 2;
    private static final int SAMPLE_STACK_INDEX = 1;
    private static final int SAMPLE_ATTRIBUTE_INDICES = 2;
    private static final int SAMPLE_VALUES = 4;
    private static final int STACK_LOCATION_INDICES = 1;
    private static final int LOCATION_LINES = 3;
    private static final int LINE_FUNCTION_INDEX = 1;
    private static final int FUNCTION_NAME = 1;
    private static final int LINK_TRACE_ID = 1;
    private static final int LINK_SPAN_ID = 2;
    private static final int ATTRIBUTE_KEY = 1;
    private static final int ATTRIBUTE_VALUE = 2;
    private static final int ANY_VALUE_STRING = 1;
    private static final int ANY_VALUE_INT = 3;

    /** The attribute every sample carries: {@code virtual} or {@code platform}. */
    public static final String THREAD_KIND = "thread.kind";

    /** The attribute of a sample of a virtual thread JFR recorded: its Java thread id. */
    public static final String THREAD_ID = "thread.id";

    private final Map<String, Integer> strings = new HashMap<>();
    private final List<String> stringTable = new ArrayList<>();
    private final Map<String, Integer> functions = new HashMap<>(); // a function and its one location share the index
    private final Map<List<Integer>, Integer> stacks = new HashMap<>();
    private final Map<String, Integer> attributes = new HashMap<>();
    private final ByteArrayOutputStream functionTable = new ByteArrayOutputStream();
    private final ByteArrayOutputStream locationTable = new ByteArrayOutputStream();
    private final ByteArrayOutputStream stackTable = new ByteArrayOutputStream();
    private final ByteArrayOutputStream attributeTable = new ByteArrayOutputStream();

    private OtlpWriter() {
        string(""); // every table's entry 0 is the zero value
        bytesField(functionTable, DICTIONARY_FUNCTION_TABLE, new byte[0]);
        bytesField(locationTable, DICTIONARY_LOCATION_TABLE, new byte[0]);
        bytesField(stackTable, DICTIONARY_STACK_TABLE, new byte[0]);
        bytesField(attributeTable, DICTIONARY_ATTRIBUTE_TABLE, new byte[0]);
        functions.put("", 0);
        stacks.put(List.of(), 0);
    }

    /**
     * Writes {@code graph} to {@code out}: {@code sampleType} names what a sample counts (cpu, wall, alloc, lock),
     * {@code intervalNanos} the sampling period where known (0: none), {@code span} the time the recordings cover
     * (empty: not said). {@code include} and {@code exclude} (or null) keep and drop stacks as the HTML graph does.
     */
    public static void write(
            SampleGraph graph,
            String sampleType,
            long intervalNanos,
            RecordingSpan span,
            Pattern include,
            Pattern exclude,
            OutputStream out)
            throws IOException {
        OtlpWriter w = new OtlpWriter();
        ByteArrayOutputStream profile = new ByteArrayOutputStream();
        bytesField(profile, PROFILE_SAMPLE_TYPE, w.valueType(sampleType, "count"));
        int kindKey = w.string(THREAD_KIND);
        int idKey = w.string(THREAD_ID);
        graph.forEach((names, types, virtual, virtualThreadId, samples) -> {
            if (!PprofWriter.kept(names, include, exclude)) {
                return;
            }
            Integer[] locations = new Integer[names.length];
            for (int i = 0; i < names.length; i++) {
                locations[names.length - 1 - i] = w.function(names[i]); // leaf first, as pprof orders them
            }
            ByteArrayOutputStream sample = new ByteArrayOutputStream();
            varintField(sample, SAMPLE_STACK_INDEX, w.stack(Arrays.asList(locations)));
            long kind = w.attribute(kindKey, virtual ? PprofWriter.VIRTUAL : PprofWriter.PLATFORM);
            packed(
                    sample,
                    SAMPLE_ATTRIBUTE_INDICES,
                    virtualThreadId >= 0 ? new long[] {kind, w.attribute(idKey, virtualThreadId)} : new long[] {kind});
            packed(sample, SAMPLE_VALUES, new long[] {samples});
            bytesField(profile, PROFILE_SAMPLES, sample.toByteArray());
        });
        if (!span.isEmpty()) {
            long start = span.first().getEpochSecond() * 1_000_000_000L
                    + span.first().getNano();
            long end =
                    span.last().getEpochSecond() * 1_000_000_000L + span.last().getNano();
            fixed64Field(profile, PROFILE_TIME_UNIX_NANO, start);
            varintField(profile, PROFILE_DURATION_NANO, end - start);
        }
        if (intervalNanos > 0) {
            bytesField(profile, PROFILE_PERIOD_TYPE, w.valueType(sampleType, "nanoseconds"));
            varintField(profile, PROFILE_PERIOD, intervalNanos);
        }
        ByteArrayOutputStream scope = new ByteArrayOutputStream();
        bytesField(scope, SCOPE_PROFILES_PROFILES, profile.toByteArray());
        ByteArrayOutputStream resource = new ByteArrayOutputStream();
        bytesField(resource, RESOURCE_PROFILES_SCOPE_PROFILES, scope.toByteArray());
        ByteArrayOutputStream data = new ByteArrayOutputStream();
        bytesField(data, DATA_RESOURCE_PROFILES, resource.toByteArray());
        bytesField(data, DATA_DICTIONARY, w.dictionary());
        data.writeTo(out);
    }

    private byte[] dictionary() {
        ByteArrayOutputStream d = new ByteArrayOutputStream();
        bytesField(d, DICTIONARY_MAPPING_TABLE, new byte[0]);
        d.writeBytes(locationTable.toByteArray());
        d.writeBytes(functionTable.toByteArray());
        ByteArrayOutputStream link = new ByteArrayOutputStream();
        bytesField(link, LINK_TRACE_ID, new byte[16]);
        bytesField(link, LINK_SPAN_ID, new byte[8]);
        bytesField(d, DICTIONARY_LINK_TABLE, link.toByteArray());
        for (String s : stringTable) {
            stringField(d, DICTIONARY_STRING_TABLE, s);
        }
        d.writeBytes(attributeTable.toByteArray());
        d.writeBytes(stackTable.toByteArray());
        return d.toByteArray();
    }

    private byte[] valueType(String type, String unit) {
        ByteArrayOutputStream v = new ByteArrayOutputStream();
        varintField(v, VALUE_TYPE_TYPE, string(type));
        varintField(v, VALUE_TYPE_UNIT, string(unit));
        return v.toByteArray();
    }

    /**
     * The index of the function named {@code name}, and of its one location (one line, no address), added the first
     * time.
     */
    private int function(String name) {
        return functions.computeIfAbsent(name, k -> {
            int index = functions.size();
            ByteArrayOutputStream f = new ByteArrayOutputStream();
            varintField(f, FUNCTION_NAME, string(name));
            bytesField(functionTable, DICTIONARY_FUNCTION_TABLE, f.toByteArray());
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            varintField(line, LINE_FUNCTION_INDEX, index);
            ByteArrayOutputStream location = new ByteArrayOutputStream();
            bytesField(location, LOCATION_LINES, line.toByteArray());
            bytesField(locationTable, DICTIONARY_LOCATION_TABLE, location.toByteArray());
            return index;
        });
    }

    private int stack(List<Integer> locations) {
        return stacks.computeIfAbsent(locations, k -> {
            ByteArrayOutputStream s = new ByteArrayOutputStream();
            packed(
                    s,
                    STACK_LOCATION_INDICES,
                    locations.stream().mapToLong(Integer::longValue).toArray());
            bytesField(stackTable, DICTIONARY_STACK_TABLE, s.toByteArray());
            return stacks.size();
        });
    }

    private int attribute(int key, String value) {
        return attribute(key, "s" + value, ANY_VALUE_STRING, value, 0);
    }

    private int attribute(int key, long value) {
        return attribute(key, "i" + value, ANY_VALUE_INT, null, value);
    }

    private int attribute(int key, String id, int valueField, String text, long number) {
        return attributes.computeIfAbsent(key + ":" + id, k -> {
            ByteArrayOutputStream any = new ByteArrayOutputStream();
            if (text != null) {
                stringField(any, valueField, text);
            } else {
                varintField(any, valueField, number);
            }
            ByteArrayOutputStream kv = new ByteArrayOutputStream();
            varintField(kv, ATTRIBUTE_KEY, key);
            bytesField(kv, ATTRIBUTE_VALUE, any.toByteArray());
            bytesField(attributeTable, DICTIONARY_ATTRIBUTE_TABLE, kv.toByteArray());
            return attributes.size() + 1; // entry 0 is the empty attribute
        });
    }

    private int string(String s) {
        return strings.computeIfAbsent(s, k -> {
            stringTable.add(k);
            return stringTable.size() - 1;
        });
    }
}
