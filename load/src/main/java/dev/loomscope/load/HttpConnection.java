package dev.loomscope.load;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.channels.UnresolvedAddressException;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocket;

/**
 * One kept-alive HTTP/1.1 connection on a blocking socket, plain or TLS (the JDK's), that sends its {@link Target}'s
 * request one at a time and reads each whole response ({@link ResponseParser}), discarding the body: what a load client
 * needs and nothing more, so that its own cost stays small and known.
 */
final class HttpConnection implements Closeable {
    private final Target target;
    private final int timeoutMillis;
    private final byte[] request;
    /**
     * The request being sent: its method says whether a response has a body (HEAD) and whether it may be sent again.
     */
    private Target sending;

    private Socket socket;
    private InputStream in;
    private OutputStream out;
    private final ResponseParser parser = new ResponseParser();
    /** What was read and not yet parsed, from its position to its limit. */
    private final ByteBuffer buffer = ByteBuffer.allocate(16 * 1024).limit(0);

    HttpConnection(Target target, int timeoutMillis) {
        this.target = target;
        this.timeoutMillis = timeoutMillis;
        this.request = target.requestBytes();
        this.sending = target;
    }

    /**
     * Sends one request and reads its response; the status code. A timeout or a lost connection throws, and the
     * connection is closed (the next request opens a new one).
     */
    int exchange() throws IOException {
        return exchange(target, request);
    }

    /**
     * Sends {@code t}'s request, whose bytes are {@code bytes}, on this connection (to the same host and port); its
     * status code.
     */
    int exchange(Target t, byte[] bytes) throws IOException {
        sending = t;
        boolean reused = socket != null;
        try {
            return send(bytes);
        } catch (ResponseParser.StaleConnection e) {
            if (!reused || !t.idempotent()) {
                throw e;
            }
            // the server closed the kept-alive connection while it was idle: once on a new one, as HTTP clients do for
            // a GET
            return send(bytes);
        }
    }

    /**
     * What went wrong with a request, in a few words a user acts on ({@code connection refused}, {@code unknown host},
     * {@code not HTTP}, {@code TLS: ...}), and whether it was only slow: no answer within the request timeout, a
     * service that is there.
     */
    record Failure(String words, boolean timedOut) {
        static Failure of(Throwable e) {
            return new Failure(cause(e), e instanceof SocketTimeoutException);
        }
    }

    /** {@link Failure#words()} of {@code e}. */
    static String cause(Throwable e) {
        if (e instanceof UnknownHostException || e instanceof UnresolvedAddressException) {
            return "unknown host";
        }
        if (e instanceof ConnectException) {
            return "connection refused";
        }
        if (e instanceof SocketTimeoutException) {
            return "no answer within the request timeout";
        }
        if (e instanceof ResponseParser.NotHttp) {
            return "not HTTP (" + e.getMessage() + ")";
        }
        if (e instanceof SSLException) {
            String m = String.valueOf(e.getMessage());
            return "TLS failed (" + (m.length() > 120 ? m.substring(0, 120) + "..." : m)
                    + (m.contains("certification path") || m.contains("PKIX")
                            ? "; a self-signed certificate needs --insecure"
                            : "")
                    + ")";
        }
        if (e instanceof ResponseParser.StaleConnection || e instanceof EOFException) {
            return "connection closed";
        }
        if (e instanceof SocketException) {
            return "connection lost (" + e.getMessage() + ")";
        }
        return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : " (" + e.getMessage() + ")");
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
                    SSLSocket tls = (SSLSocket)
                            Tls.factory(target.insecure()).createSocket(plain, target.host(), target.port(), true);
                    socket = tls;
                    tls.startHandshake();
                }
                in = socket.getInputStream();
                buffer.limit(0);
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
        parser.start(sending);
        while (!parser.feed(buffer)) {
            int n = in.read(buffer.array(), 0, buffer.capacity());
            if (n < 0) {
                parser.closed();
                break;
            }
            buffer.position(0).limit(n);
        }
        if (!parser.keepAlive()) {
            close();
        }
        return parser.code();
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
