package dev.loomscope.load;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;

/**
 * One HTTP/1.x response read as its bytes arrive, whatever carries them (a blocking socket or the event loop's
 * channels): the status code, whether the connection stays open, and the body skipped whole (Content-Length, chunked,
 * or to the close; none after HEAD, 1xx, 204 and 304); interim responses (100 Continue, 103 Early Hints) passed over. A
 * line over 64 KiB is not HTTP.
 */
final class ResponseParser {
    private static final int MAX_LINE = 64 * 1024;
    private static final byte[] HTTP_1 = ascii("HTTP/1.");
    private static final byte[] CONTENT_LENGTH = ascii("content-length");
    private static final byte[] TRANSFER_ENCODING = ascii("transfer-encoding");
    private static final byte[] CONNECTION = ascii("connection");

    private enum State {
        STATUS,
        HEADER,
        BODY,
        CHUNK_SIZE,
        CHUNK,
        CHUNK_END,
        TRAILER,
        TO_CLOSE,
        DONE
    }

    private State state = State.DONE;
    private byte[] line = new byte[256];
    private int lineLength;
    private boolean head;
    private boolean any;
    private int code;
    private boolean keepAlive;
    private long length;
    private boolean chunked;
    private long remaining;

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    /** The peer answered something other than HTTP/1.x. */
    static final class NotHttp extends IOException {
        NotHttp(String first) {
            super("it answered "
                    + (first.length() > 40 ? first.substring(0, 40) + "..." : first).replaceAll("[^\\x20-\\x7e]", "?"));
        }
    }

    /**
     * The connection closed before a byte of the response came: a kept-alive one the server closed while it was idle.
     */
    static final class StaleConnection extends EOFException {
        StaleConnection() {
            super("the connection closed before the response");
        }
    }

    /** Expects the response to {@code sent}'s request (a HEAD request's has no body). */
    void start(Target sent) {
        this.head = sent.method().equals("HEAD");
        state = State.STATUS;
        lineLength = 0;
        any = false;
    }

    /** Whether no byte of the response has come yet. */
    boolean nothingYet() {
        return !any;
    }

    /** The final response's status code, once {@link #feed} said it is whole. */
    int code() {
        return code;
    }

    /** Whether the connection may carry the next request. */
    boolean keepAlive() {
        return keepAlive;
    }

    /**
     * Reads {@code in} (a heap buffer) from its position as far as the response goes; whether the response is whole.
     * What follows the response stays in {@code in}.
     */
    boolean feed(ByteBuffer in) throws IOException {
        any |= in.hasRemaining();
        while (state != State.DONE && in.hasRemaining()) {
            switch (state) {
                case BODY, CHUNK -> {
                    int n = (int) Math.min(remaining, in.remaining());
                    in.position(in.position() + n);
                    remaining -= n;
                    if (remaining == 0) {
                        state = state == State.BODY ? State.DONE : State.CHUNK_END;
                    }
                }
                case TO_CLOSE -> in.position(in.limit());
                default -> {
                    if (lineEnded(in)) {
                        onLine();
                        lineLength = 0;
                    }
                }
            }
        }
        return state == State.DONE;
    }

    /**
     * The connection closed: true when that ends the response (a body that lasts to the close); else what was cut
     * short, thrown.
     */
    boolean closed() throws IOException {
        if (state == State.TO_CLOSE) {
            state = State.DONE;
            return true;
        }
        if (!any) {
            throw new StaleConnection();
        }
        throw new EOFException(
                state == State.BODY || state == State.CHUNK
                        ? "the connection closed inside a response body"
                        : "the connection closed inside a response");
    }

    /** Takes the line's bytes from {@code in}'s array (not a byte a call: a response's bytes pass here one by one). */
    private boolean lineEnded(ByteBuffer in) throws NotHttp {
        byte[] a = in.array();
        int base = in.arrayOffset();
        int end = base + in.limit();
        for (int i = base + in.position(); i < end; i++) {
            byte b = a[i];
            if (b == '\n') {
                in.position(i + 1 - base);
                return true;
            }
            if (b != '\r') {
                if (lineLength == line.length) {
                    if (lineLength >= MAX_LINE) {
                        throw new NotHttp("a line over 64 KiB");
                    }
                    line = Arrays.copyOf(line, Math.min(MAX_LINE, 2 * lineLength));
                }
                line[lineLength++] = b;
            }
        }
        in.position(in.limit());
        return false;
    }

    private void onLine() throws IOException {
        switch (state) {
            case STATUS -> status();
            case HEADER -> {
                if (lineLength == 0) {
                    endOfHeaders();
                } else {
                    header();
                }
            }
            case CHUNK_SIZE -> {
                String size = new String(line, 0, lineLength, StandardCharsets.ISO_8859_1);
                int semicolon = size.indexOf(';');
                remaining = Long.parseLong((semicolon < 0 ? size : size.substring(0, semicolon)).strip(), 16);
                state = remaining > 0 ? State.CHUNK : State.TRAILER;
            }
            case CHUNK_END -> state = State.CHUNK_SIZE;
            case TRAILER -> state = lineLength == 0 ? State.DONE : State.TRAILER; // trailers: nothing wanted
            default -> throw new IllegalStateException("a line in state " + state);
        }
    }

    /**
     * HTTP/1.1 200 OK: read from the line's bytes, as every response's headers are (no string built for what is not
     * kept).
     */
    private void status() throws NotHttp {
        if (lineLength < 12 || !startsWith(0, HTTP_1) || !digits(9, 12)) {
            throw new NotHttp(new String(line, 0, lineLength, StandardCharsets.ISO_8859_1));
        }
        code = (line[9] - '0') * 100 + (line[10] - '0') * 10 + (line[11] - '0');
        keepAlive = line[7] == '1';
        length = -1;
        chunked = false;
        state = State.HEADER;
    }

    private void header() {
        int colon = 0;
        while (colon < lineLength && line[colon] != ':') {
            colon++;
        }
        if (colon == lineLength) {
            return;
        }
        int from = 0;
        int to = colon;
        while (from < to && (line[from] & 0xff) <= ' ') {
            from++;
        }
        while (to > from && (line[to - 1] & 0xff) <= ' ') {
            to--;
        }
        // only three headers matter: the others' values are not built
        boolean isLength = named(from, to, CONTENT_LENGTH);
        boolean isEncoding = !isLength && named(from, to, TRANSFER_ENCODING);
        long number = isLength ? number(colon + 1) : -1;
        if (number >= 0) {
            length = number; // read from the bytes: no string built at every response
            return;
        }
        if (isLength || isEncoding || named(from, to, CONNECTION)) {
            String value = new String(line, colon + 1, lineLength - colon - 1, StandardCharsets.ISO_8859_1).strip();
            if (isLength) {
                length = Long.parseLong(value);
            } else if (isEncoding) {
                chunked = value.toLowerCase(Locale.ROOT).contains("chunked");
            } else {
                keepAlive = value.equalsIgnoreCase("keep-alive") || (keepAlive && !value.equalsIgnoreCase("close"));
            }
        }
    }

    /**
     * Whether the line's bytes from {@code from} to {@code to} are {@code lower}, a header name in lower case, in any
     * case.
     */
    private boolean named(int from, int to, byte[] lower) {
        if (to - from != lower.length) {
            return false;
        }
        for (int i = 0; i < lower.length; i++) {
            byte b = line[from + i];
            if (b != lower[i] && !(lower[i] >= 'a' && lower[i] <= 'z' && b == lower[i] - ('a' - 'A'))) {
                return false;
            }
        }
        return true;
    }

    private boolean startsWith(int from, byte[] prefix) {
        return Arrays.equals(line, from, from + prefix.length, prefix, 0, prefix.length);
    }

    private void endOfHeaders() {
        if (code >= 100 && code < 200 && code != 101) {
            state = State.STATUS; // an interim response: the final one follows
        } else if (code == 204 || code == 304 || code == 101 || head) {
            state = State.DONE;
        } else if (chunked) {
            state = State.CHUNK_SIZE;
        } else if (length >= 0) {
            remaining = length;
            state = length == 0 ? State.DONE : State.BODY;
        } else {
            keepAlive = false; // the body ends with the connection
            state = State.TO_CLOSE;
        }
    }

    /**
     * The number the line's bytes from {@code from} spell (spaces around it), or -1 when they are not 1 to 18 digits.
     */
    private long number(int from) {
        int to = lineLength;
        while (from < to && (line[from] & 0xff) <= ' ') {
            from++;
        }
        while (to > from && (line[to - 1] & 0xff) <= ' ') {
            to--;
        }
        if (to == from || to - from > 18 || !digits(from, to)) {
            return -1;
        }
        long n = 0;
        for (int i = from; i < to; i++) {
            n = 10 * n + line[i] - '0';
        }
        return n;
    }

    /**
     * Whether the line's bytes from {@code from} to {@code to} are digits (a status code, read at every response: no
     * pattern compiled).
     */
    private boolean digits(int from, int to) {
        for (int i = from; i < to; i++) {
            if (line[i] < '0' || line[i] > '9') {
                return false;
            }
        }
        return true;
    }
}
