package dev.loomscope.recording;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PushbackInputStream;
import java.util.Objects;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import java.util.zip.ZipException;

/**
 * A gzip file's content, member after member (RFC 1952), each member's CRC and length checked; what follows the last
 * member and is not one is counted ({@link #trailing}) rather than ignored, as the JDK's GZIPInputStream ignores it.
 */
final class GzipMembers extends InputStream {
    private static final int FHCRC = 2;
    private static final int FEXTRA = 4;
    private static final int FNAME = 8;
    private static final int FCOMMENT = 16;

    private final PushbackInputStream in;
    private final Inflater inflater = new Inflater(true);
    private final CRC32 crc = new CRC32();
    private final byte[] buf = new byte[1 << 16];
    private int given; // bytes of buf last given to the inflater
    private boolean inMember;
    private boolean ended;
    private int members;
    private long memberBytes;
    private long trailing;

    GzipMembers(InputStream in) {
        this.in = new PushbackInputStream(in, buf.length);
    }

    /** Bytes after the last member that do not begin another (known once the stream has ended). */
    long trailing() {
        return trailing;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        if (len == 0) {
            return 0;
        }
        while (!ended) {
            if (!inMember) {
                if (!header()) {
                    ended = true;
                    break;
                }
                inMember = true;
                inflater.reset();
                crc.reset();
                memberBytes = 0;
            }
            if (inflater.needsInput()) {
                given = in.read(buf);
                if (given < 0) {
                    throw new EOFException("the gzip stream ends inside member " + members);
                }
                inflater.setInput(buf, 0, given);
            }
            int n;
            try {
                n = inflater.inflate(b, off, len);
            } catch (DataFormatException e) {
                throw new ZipException("invalid deflate data in member " + members + ": " + e.getMessage());
            }
            if (n > 0) {
                crc.update(b, off, n);
                memberBytes += n;
                return n;
            }
            if (inflater.finished()) {
                int left = inflater.getRemaining();
                if (left > 0) {
                    in.unread(buf, given - left, left);
                }
                trailer();
                inMember = false;
            } else if (inflater.needsDictionary()) {
                throw new ZipException("member " + members + " asks for a preset dictionary, which gzip does not have");
            }
        }
        return -1;
    }

    /**
     * Reads a member's header; false at the end (nothing more, or bytes that are not a member: counted as trailing).
     */
    private boolean header() throws IOException {
        int id1 = in.read();
        if (id1 < 0 && members > 0) {
            return false;
        }
        int id2 = in.read();
        if (id1 != 0x1f || id2 != 0x8b) {
            if (members == 0) {
                throw new ZipException("not in gzip format");
            }
            trailing = (id1 < 0 ? 0 : 1) + (id2 < 0 ? 0 : 1) + in.transferTo(OutputStream.nullOutputStream());
            return false;
        }
        members++;
        if (in.read() != 8) {
            throw new ZipException("member " + members + " is not deflate-compressed");
        }
        int flags = in.read();
        skip(6); // time, extra flags, system
        if ((flags & FEXTRA) != 0) {
            skip(in.read() | in.read() << 8);
        }
        if ((flags & FNAME) != 0) {
            zeroTerminated();
        }
        if ((flags & FCOMMENT) != 0) {
            zeroTerminated();
        }
        if ((flags & FHCRC) != 0) {
            skip(2);
        }
        return true;
    }

    private void trailer() throws IOException {
        long expectedCrc = le32();
        long expectedSize = le32();
        if (expectedCrc != crc.getValue() || expectedSize != (memberBytes & 0xffffffffL)) {
            throw new ZipException("member " + members + "'s checksum or length does not match its data");
        }
    }

    private long le32() throws IOException {
        long v = 0;
        for (int i = 0; i < 4; i++) {
            int c = in.read();
            if (c < 0) {
                throw new EOFException("the gzip stream ends inside the trailer of member " + members);
            }
            v |= (long) c << (8 * i);
        }
        return v;
    }

    private void skip(int n) throws IOException {
        for (int i = 0; i < n; i++) {
            if (in.read() < 0) {
                throw new EOFException("the gzip stream ends inside the header of member " + members);
            }
        }
    }

    private void zeroTerminated() throws IOException {
        for (int c = in.read(); c != 0; c = in.read()) {
            if (c < 0) {
                throw new EOFException("the gzip stream ends inside the header of member " + members);
            }
        }
    }

    @Override
    public void close() throws IOException {
        inflater.end();
        in.close();
    }
}
