package dev.loomscope.flamegraphs.render;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Protocol buffers' wire format, the few encodings the profile writers ({@link PprofWriter}, {@link OtlpWriter}) need:
 * varints, length-delimited fields, packed varints, fixed64. Written by hand because the formats are small and fixed,
 * which keeps a protobuf runtime out of the CLI.
 */
final class ProtoOut {
    private ProtoOut() {}

    static void varintField(ByteArrayOutputStream out, int field, long value) {
        varint(out, (long) field << 3); // wire type 0
        varint(out, value);
    }

    static void fixed64Field(ByteArrayOutputStream out, int field, long value) {
        varint(out, (long) field << 3 | 1); // wire type 1: 64 bits, little-endian
        for (int i = 0; i < 8; i++) {
            out.write((int) (value >>> (8 * i)));
        }
    }

    static void bytesField(ByteArrayOutputStream out, int field, byte[] bytes) {
        varint(out, (long) field << 3 | 2); // wire type 2: length-delimited
        varint(out, bytes.length);
        out.writeBytes(bytes);
    }

    static void stringField(ByteArrayOutputStream out, int field, String s) {
        bytesField(out, field, s.getBytes(StandardCharsets.UTF_8));
    }

    static void packed(ByteArrayOutputStream out, int field, long[] values) {
        ByteArrayOutputStream p = new ByteArrayOutputStream();
        for (long v : values) {
            varint(p, v);
        }
        bytesField(out, field, p.toByteArray());
    }

    static void varint(ByteArrayOutputStream out, long v) {
        while ((v & ~0x7FL) != 0) {
            out.write((int) (v & 0x7F) | 0x80);
            v >>>= 7;
        }
        out.write((int) v);
    }
}
