package dev.loomscope.workloads.echo;

import dev.loomscope.workloads.core.ThreadKind;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The thesis's echo server: HTTP/1.1 on loopback, one thread (platform or virtual) per connection; each response
 * carries a valid HTTP/1.1 header and echoes the request (head and body) as its body. Keep-alive as HTTP says: on by
 * default for 1.1, on request for 1.0 (what {@code ab -k} sends).
 */
public final class EchoServer implements AutoCloseable {
    static final int MAX_HEAD = 64 * 1024;

    private final ServerSocket socket;
    private final ThreadKind kind;
    private final Thread acceptor;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    public EchoServer(ThreadKind kind, int port, int backlog) throws IOException {
        this.kind = kind;
        this.socket = new ServerSocket(port, backlog, InetAddress.getLoopbackAddress());
        this.acceptor = Thread.ofPlatform().name("echo-acceptor").daemon(true).start(this::acceptLoop);
    }

    public int port() {
        return socket.getLocalPort();
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket s = socket.accept();
                open.add(s);
                kind.start("echo-handler", () -> serve(s));
            } catch (IOException e) {
                if (!closed) {
                    System.err.println("echo-server: accept failed: " + e.getMessage());
                }
            }
        }
    }

    private void serve(Socket s) {
        try (s;
                InputStream in = new BufferedInputStream(s.getInputStream());
                OutputStream out = s.getOutputStream()) {
            s.setTcpNoDelay(true);
            while (true) {
                byte[] head = readHead(in);
                if (head == null) {
                    return;
                }
                String text = new String(head, StandardCharsets.ISO_8859_1);
                int length = contentLength(text);
                byte[] body = in.readNBytes(length);
                boolean keepAlive = keepAlive(text);
                byte[] header = ("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: "
                                + (head.length + body.length) + "\r\nConnection: "
                                + (keepAlive ? "keep-alive" : "close") + "\r\n\r\n")
                        .getBytes(StandardCharsets.ISO_8859_1);
                out.write(header);
                out.write(head);
                out.write(body);
                out.flush();
                if (!keepAlive) {
                    return;
                }
            }
        } catch (IOException e) {
            // the client went away
        } finally {
            open.remove(s);
        }
    }

    /** The request head up to and including the blank line, or null at end of stream. */
    static byte[] readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream(256);
        int state = 0; // matched chars of \r\n\r\n
        int c;
        while ((c = in.read()) >= 0) {
            head.write(c);
            state = c == '\r' ? (state == 2 ? 3 : 1) : c == '\n' && (state == 1 || state == 3) ? state + 1 : 0;
            if (state == 4) {
                return head.toByteArray();
            }
            if (head.size() > MAX_HEAD) {
                throw new IOException("request head over " + MAX_HEAD + " bytes");
            }
        }
        return null;
    }

    static int contentLength(String head) {
        for (String line : head.split("\r\n")) {
            if (line.regionMatches(true, 0, "Content-Length:", 0, 15)) {
                return Integer.parseInt(line.substring(15).strip());
            }
        }
        return 0;
    }

    static boolean keepAlive(String head) {
        String first = head.substring(0, Math.max(0, head.indexOf("\r\n")));
        String connection = null;
        for (String line : head.split("\r\n")) {
            if (line.regionMatches(true, 0, "Connection:", 0, 11)) {
                connection = line.substring(11).strip().toLowerCase(Locale.ROOT);
            }
        }
        if (first.endsWith("HTTP/1.1")) {
            return !"close".equals(connection);
        }
        return "keep-alive".equals(connection);
    }

    @Override
    public void close() throws IOException {
        closed = true;
        socket.close();
        for (Socket s : open) {
            s.close();
        }
        try {
            acceptor.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
