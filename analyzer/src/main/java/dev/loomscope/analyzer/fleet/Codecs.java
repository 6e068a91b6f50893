package dev.loomscope.analyzer.fleet;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * Parquet's page codecs without Hadoop's (which parquet-hadoop would load through Hadoop's classes) and without native
 * code: none, Snappy (what loomscope and Spark write; {@link Snappy}) and gzip (the JDK's). Another codec is named in a
 * one-line error.
 */
final class Codecs implements CompressionCodecFactory {
    static final Codecs INSTANCE = new Codecs();

    /** What an export is written with: Spark's default, so its files and ours are alike. */
    static final CompressionCodecName WRITTEN = CompressionCodecName.SNAPPY;

    /** Thrown for a page compressed with a codec loomscope does not read. */
    static final class UnsupportedCodecException extends IOException {
        UnsupportedCodecException(CompressionCodecName codec) {
            super("compressed with " + codec + ", which loomscope does not read (write it with snappy, gzip or none)");
        }
    }

    @Override
    public BytesInputCompressor getCompressor(CompressionCodecName codec) {
        return new BytesInputCompressor() {
            @Override
            public BytesInput compress(BytesInput bytes) throws IOException {
                byte[] in = bytes.toByteArray();
                return switch (codec) {
                    case UNCOMPRESSED -> BytesInput.from(in);
                    case SNAPPY -> BytesInput.from(Snappy.compress(in));
                    case GZIP -> {
                        ByteArrayOutputStream out = new ByteArrayOutputStream(in.length / 2 + 64);
                        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
                            gz.write(in);
                        }
                        yield BytesInput.from(out.toByteArray());
                    }
                    default -> throw new UnsupportedCodecException(codec);
                };
            }

            @Override
            public CompressionCodecName getCodecName() {
                return codec;
            }

            @Override
            public void release() {}
        };
    }

    @Override
    public BytesInputDecompressor getDecompressor(CompressionCodecName codec) {
        return new BytesInputDecompressor() {
            @Override
            public BytesInput decompress(BytesInput bytes, int uncompressedSize) throws IOException {
                return BytesInput.from(decompress(bytes.toByteArray(), uncompressedSize));
            }

            @Override
            public void decompress(ByteBuffer input, int compressedSize, ByteBuffer output, int decompressedSize)
                    throws IOException {
                byte[] in = new byte[compressedSize];
                input.duplicate().get(in);
                output.put(decompress(in, decompressedSize));
                output.flip();
            }

            private byte[] decompress(byte[] in, int size) throws IOException {
                return switch (codec) {
                    case UNCOMPRESSED -> in;
                    case SNAPPY -> {
                        byte[] out = new byte[size];
                        Snappy.uncompress(in, out);
                        yield out;
                    }
                    case GZIP -> {
                        try (InputStream gz = new GZIPInputStream(new ByteArrayInputStream(in))) {
                            yield gz.readNBytes(size);
                        }
                    }
                    default -> throw new UnsupportedCodecException(codec);
                };
            }

            @Override
            public void release() {}
        };
    }

    @Override
    public void release() {}
}
