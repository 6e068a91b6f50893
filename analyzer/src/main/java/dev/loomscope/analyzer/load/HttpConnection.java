package dev.loomscope.analyzer.load;

import java.io.BufferedInputStream;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;

/**
 * One kept-alive HTTP/1.1 connection, plain or TLS (the JDK's), that sends its {@link Target}'s
 * request one at a time and reads each whole response (Content-Length, chunked, or to the close;
 * none after HEAD, 1xx, 204 and 304), discarding the body: what a load client needs and nothing
 * more, so that its own cost stays small and known.
 */
final class HttpConnection implements Closeable {
    private final Target target;
    private final int timeoutMillis;
    private final byte[] request;
    /** The request being sent: its method says whether a response has a body (HEAD) and whether it may be sent again. */
    private Target sending;
    private Socket socket;
    private InputStream in;
    private OutputStream out;

    HttpConnection(Target target, int timeoutMillis) {
        this.target = target;
        this.timeoutMillis = timeoutMillis;
        this.request = target.requestBytes();
        this.sending = target;
    }

    /**
     * Sends one request and reads its response; the status code. A timeout or a lost connection
     * throws, and the connection is closed (the next request opens a new one).
     */
    int exchange() throws IOException {
        return exchange(target, request);
    }

    /** Sends {@code t}'s request, whose bytes are {@code bytes}, on this connection (to the same host and port); its status code. */
    int exchange(Target t, byte[] bytes) throws IOException {
        sending = t;
        boolean reused = socket != null;
        try {
            return send(bytes);
        } catch (StaleConnection e) {
            if (!reused || !t.idempotent()) {
                throw e;
            }
            return send(bytes); // the server closed the kept-alive connection while it was idle: once on a new one, as HTTP clients do for a GET
        }
    }

    /** What went wrong, in a few words a user acts on: {@code connection refused}, {@code unknown host}, {@code not HTTP}, {@code TLS: ...}. */
    static String cause(Throwable e) {
        if (e instanceof java.net.UnknownHostException) {
            return "unknown host";
        }
        if (e instanceof java.net.ConnectException) {
            return "connection refused";
        }
        if (e instanceof java.net.SocketTimeoutException) {
            return "no answer within the request timeout";
        }
        if (e instanceof NotHttp) {
            return "not HTTP (" + e.getMessage() + ")";
        }
        if (e instanceof javax.net.ssl.SSLException) {
            String m = String.valueOf(e.getMessage());
            return "TLS failed (" + (m.length() > 120 ? m.substring(0, 120) + "..." : m) + (m.contains("certification path") || m.contains("PKIX")
                    ? "; a self-signed certificate needs --insecure" : "") + ")";
        }
        if (e instanceof StaleConnection || e instanceof EOFException) {
            return "connection closed";
        }
        if (e instanceof java.net.SocketException) {
            return "connection lost (" + e.getMessage() + ")";
        }
        return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : " (" + e.getMessage() + ")");
    }

    /** The peer answered something other than HTTP/1.x. */
    private static final class NotHttp extends IOException {
        NotHttp(String first) {
            super("it answered " + (first.length() > 40 ? first.substring(0, 40) + "..." : first).replaceAll("[^\\x20-\\x7e]", "?"));
        }
    }

    /** The connection closed before a byte of the response came. */
    private static final class StaleConnection extends EOFException {
        StaleConnection() {
            super("the connection closed before the response");
        }
    }

    private int send(byte[] request) throws IOException {
        try {
            if (socket == null) {
                Socket plain = new Socket();
                socket = plain;
                plain.setTcpNoDelay(true);
                plain.connect(new InetSocketAddress(target.host(), target.port()), timeoutMillis);
                plain.setSoTimeout(timeoutMillis);
                if (target.tls()) {
                    javax.net.ssl.SSLSocket tls = (javax.net.ssl.SSLSocket) Tls.factory(target.insecure()).createSocket(plain, target.host(), target.port(), true);
                    socket = tls;
                    tls.startHandshake();
                }
                in = new BufferedInputStream(socket.getInputStream(), 16 * 1024);
                out = socket.getOutputStream();
            }
            out.write(request);
            out.flush();
            return readResponse();
        } catch (IOException | RuntimeException e) {
            close();
            throw e;
        }
    }

    private int readResponse() throws IOException {
        int first = in.read();
        if (first < 0) {
            throw new StaleConnection();
        }
        String status = (char) first + line();
        // HTTP/1.1 200 OK
        if (!status.startsWith("HTTP/1.") || status.length() < 12 || !digits(status, 9, 12)) {
            throw new NotHttp(status);
        }
        int code = Integer.parseInt(status.substring(9, 12));
        boolean keepAlive = status.startsWith("HTTP/1.1");
        long length = -1;
        boolean chunked = false;
        for (String h = line(); !h.isEmpty(); h = line()) {
            int colon = h.indexOf(':');
            if (colon < 0) {
                continue;
            }
            String name = h.substring(0, colon).strip();
            String value = h.substring(colon + 1).strip();
            if (name.equalsIgnoreCase("Content-Length")) {
                length = Long.parseLong(value);
            } else if (name.equalsIgnoreCase("Transfer-Encoding")) {
                chunked = value.toLowerCase(java.util.Locale.ROOT).contains("chunked");
            } else if (name.equalsIgnoreCase("Connection")) {
                keepAlive = value.equalsIgnoreCase("keep-alive") || (keepAlive && !value.equalsIgnoreCase("close"));
            }
        }
        if (code >= 100 && code < 200 && code != 101) {
            return readResponse(); // an interim response (100 Continue, 103 Early Hints): the final one follows
        }
        if (code == 204 || code == 304 || code == 101 || sending.method().equals("HEAD")) {
            length = 0;
        }
        if (!skipBody(chunked, length)) {
            keepAlive = false;
        }
        if (!keepAlive) {
            close();
        }
        return code;
    }

    /** Reads past a response's body: chunked, of a length, or to the connection's close; whether the connection still serves. */
    private boolean skipBody(boolean chunked, long length) throws IOException {
        if (chunked) {
            for (long size = Long.parseLong(chunkSize(line()), 16); size > 0; size = Long.parseLong(chunkSize(line()), 16)) {
                skip(size);
                line();
            }
            for (String trailer = line(); !trailer.isEmpty(); trailer = line()) {
                // trailers: nothing wanted
            }
            return true;
        }
        if (length >= 0) {
            skip(length);
            return true;
        }
        in.transferTo(OutputStream.nullOutputStream()); // the body ends with the connection
        return false;
    }

    /** Whether {@code s}'s characters from {@code from} to {@code to} are digits (a status code, read at every response: no pattern compiled). */
    private static boolean digits(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    private static String chunkSize(String line) {
        int semicolon = line.indexOf(';');
        return (semicolon < 0 ? line : line.substring(0, semicolon)).strip();
    }

    private void skip(long n) throws IOException {
        while (n > 0) {
            long skipped = in.skip(n);
            if (skipped <= 0) {
                if (in.read() < 0) {
                    throw new EOFException("the connection closed inside a response body");
                }
                skipped = 1;
            }
            n -= skipped;
        }
    }

    private String line() throws IOException {
        StringBuilder b = new StringBuilder();
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0) {
                throw new EOFException("the connection closed inside a response");
            }
            if (c != '\r') {
                b.append((char) c);
            }
            if (b.length() > 64 * 1024) {
                throw new NotHttp("a line over 64 KiB");
            }
        }
        return b.toString();
    }

    @Override
    public void close() {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing a broken connection
            }
            socket = null;
        }
    }
}
