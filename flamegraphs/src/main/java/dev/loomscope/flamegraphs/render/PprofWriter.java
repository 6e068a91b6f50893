package dev.loomscope.flamegraphs.render;

import static dev.loomscope.flamegraphs.render.ProtoOut.bytesField;
import static dev.loomscope.flamegraphs.render.ProtoOut.packed;
import static dev.loomscope.flamegraphs.render.ProtoOut.varintField;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.zip.GZIPOutputStream;

/**
 * A {@link SampleGraph} as a pprof profile (profile.proto, gzip'd), what {@code go tool pprof}, Pyroscope and Grafana
 * read: one sample per distinct stack, its count as the value, and the label {@code thread_kind} ({@code virtual} or
 * {@code platform}); frames are functions by name, each with one location (no addresses: the frames come from a
 * recording, not a binary), leaf first as pprof orders them ({@link ProtoOut} writes the fields). A sample of a virtual
 * thread JFR recorded as such also carries the number label {@code virtual_thread_id}, the thread's Java id.
 */
public final class PprofWriter {
    // profile.proto's field numbers
    private static final int PROFILE_SAMPLE_TYPE = 1;
    private static final int PROFILE_SAMPLE = 2;
    private static final int PROFILE_LOCATION = 4;
    private static final int PROFILE_FUNCTION = 5;
    private static final int PROFILE_STRING_TABLE = 6;
    private static final int PROFILE_PERIOD_TYPE = 11;
    private static final int PROFILE_PERIOD = 12;
    private static final int PROFILE_DEFAULT_SAMPLE_TYPE = 14;
    private static final int VALUE_TYPE_TYPE = 1;
    private static final int VALUE_TYPE_UNIT = 2;
    private static final int SAMPLE_LOCATION_ID = 1;
    private static final int SAMPLE_VALUE = 2;
    private static final int SAMPLE_LABEL = 3;
    private static final int LABEL_KEY = 1;
    private static final int LABEL_STR = 2;
    private static final int LABEL_NUM = 3;
    private static final int LOCATION_ID = 1;
    private static final int LOCATION_LINE = 4;
    private static final int LINE_FUNCTION_ID = 1;
    private static final int FUNCTION_ID = 1;
    private static final int FUNCTION_NAME = 2;
    private static final int FUNCTION_SYSTEM_NAME = 3;

    /** The label every sample carries. */
    public static final String THREAD_KIND = "thread_kind";
    /** The thread kind label's values (OTLP's too). */
    public static final String VIRTUAL = "virtual";

    public static final String PLATFORM = "platform";

    /** The number label of a sample of a virtual thread JFR recorded (its Java thread id). */
    public static final String VIRTUAL_THREAD_ID = "virtual_thread_id";

    private final Map<String, Long> strings = new HashMap<>();
    private final ByteArrayOutputStream stringTable = new ByteArrayOutputStream();
    private final Map<String, Long> functions = new HashMap<>();
    private final ByteArrayOutputStream body = new ByteArrayOutputStream();

    private PprofWriter() {
        string(""); // pprof's string table starts with the empty string
    }

    /**
     * Writes {@code graph} to {@code out}, gzip'd; {@code sampleType} names what a sample counts (cpu, wall, alloc,
     * lock), {@code intervalNanos} the sampling period where known (0: none). {@code include} and {@code exclude} (or
     * null) keep and drop stacks as the HTML graph does: a frame's whole name matching.
     */
    public static void write(
            SampleGraph graph,
            String sampleType,
            long intervalNanos,
            Pattern include,
            Pattern exclude,
            OutputStream out)
            throws IOException {
        PprofWriter w = new PprofWriter();
        w.message(PROFILE_SAMPLE_TYPE, valueType(w.string(sampleType), w.string("count")));
        long kindKey = w.string(THREAD_KIND);
        long virtual = w.string(VIRTUAL);
        long platform = w.string(PLATFORM);
        long threadIdKey = w.string(VIRTUAL_THREAD_ID);
        graph.forEach((names, types, isVirtual, virtualThreadId, samples) -> {
            if (!kept(names, include, exclude)) {
                return;
            }
            ByteArrayOutputStream sample = new ByteArrayOutputStream();
            long[] ids = new long[names.length];
            for (int i = 0; i < names.length; i++) {
                ids[names.length - 1 - i] = w.function(names[i]); // leaf first
            }
            packed(sample, SAMPLE_LOCATION_ID, ids);
            packed(sample, SAMPLE_VALUE, new long[] {samples});
            ByteArrayOutputStream label = new ByteArrayOutputStream();
            varintField(label, LABEL_KEY, kindKey);
            varintField(label, LABEL_STR, isVirtual ? virtual : platform);
            bytesField(sample, SAMPLE_LABEL, label.toByteArray());
            if (virtualThreadId >= 0) {
                ByteArrayOutputStream id = new ByteArrayOutputStream();
                varintField(id, LABEL_KEY, threadIdKey);
                varintField(id, LABEL_NUM, virtualThreadId);
                bytesField(sample, SAMPLE_LABEL, id.toByteArray());
            }
            w.message(PROFILE_SAMPLE, sample.toByteArray());
        });
        if (intervalNanos > 0) {
            w.message(PROFILE_PERIOD_TYPE, valueType(w.string(sampleType), w.string("nanoseconds")));
            varintField(w.body, PROFILE_PERIOD, intervalNanos);
        }
        varintField(w.body, PROFILE_DEFAULT_SAMPLE_TYPE, w.string(sampleType));
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            w.body.writeTo(gz);
            w.stringTable.writeTo(gz);
        }
    }

    /** Whether a stack stays: no frame matches {@code exclude}, and one matches {@code include} when given. */
    static boolean kept(String[] names, Pattern include, Pattern exclude) {
        boolean included = include == null;
        for (String n : names) {
            if (exclude != null && exclude.matcher(n).matches()) {
                return false;
            }
            included |= include != null && include.matcher(n).matches();
        }
        return included;
    }

    /** The id of the function (and of its one location, the same number) named {@code name}, written the first time. */
    private long function(String name) {
        return functions.computeIfAbsent(name, k -> {
            long fid = functions.size() + 1L;
            long nameIndex = string(name);
            ByteArrayOutputStream f = new ByteArrayOutputStream();
            varintField(f, FUNCTION_ID, fid);
            varintField(f, FUNCTION_NAME, nameIndex);
            varintField(f, FUNCTION_SYSTEM_NAME, nameIndex);
            message(PROFILE_FUNCTION, f.toByteArray());
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            varintField(line, LINE_FUNCTION_ID, fid);
            ByteArrayOutputStream loc = new ByteArrayOutputStream();
            varintField(loc, LOCATION_ID, fid);
            bytesField(loc, LOCATION_LINE, line.toByteArray());
            message(PROFILE_LOCATION, loc.toByteArray());
            return fid;
        });
    }

    /** The index of {@code s} in the string table, added the first time. */
    private long string(String s) {
        return strings.computeIfAbsent(s, k -> {
            bytesField(stringTable, PROFILE_STRING_TABLE, s.getBytes(StandardCharsets.UTF_8));
            return (long) strings.size();
        });
    }

    private void message(int field, byte[] bytes) {
        bytesField(body, field, bytes);
    }

    private static byte[] valueType(long type, long unit) {
        ByteArrayOutputStream v = new ByteArrayOutputStream();
        varintField(v, VALUE_TYPE_TYPE, type);
        varintField(v, VALUE_TYPE_UNIT, unit);
        return v.toByteArray();
    }

    /** The sample types pprof names the kinds by. */
    public static String sampleType(SampleKind kind) {
        return kind.name().toLowerCase(Locale.ROOT);
    }
}
