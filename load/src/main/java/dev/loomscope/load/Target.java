package dev.loomscope.load;

import dev.loomscope.options.UsageException;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * One request the load client sends, over HTTP/1.1 or HTTPS: the URL's host, port and request target, the method, the
 * headers as given ({@code Name: value}) and the body (empty: none), and whether a certificate that does not verify is
 * accepted ({@code --insecure}).
 */
public record Target(
        URI uri,
        String host,
        int port,
        String path,
        boolean tls,
        String method,
        List<String> headers,
        byte[] body,
        boolean insecure) {
    /**
     * Methods a client may send again on a new connection when a kept-alive one was closed under it (RFC 9110 9.2.2).
     */
    private static final Set<String> IDEMPOTENT = Set.of("GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE");

    /** A GET of {@code url}; a one-line usage error when it is not an http(s) URL with a host. */
    public static Target of(String url) {
        return of(url, "GET", List.of(), new byte[0], false);
    }

    /**
     * {@code method} with {@code headers} and {@code body} to {@code url}; one-line usage errors name what is wrong.
     */
    public static Target of(String url, String method, List<String> headers, byte[] body, boolean insecure) {
        URI u;
        try {
            u = new URI(url);
        } catch (URISyntaxException e) {
            throw new UsageException(
                    "--url " + url + ": not a URL (" + e.getReason() + "; e.g. http://localhost:8080/io)");
        }
        String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new UsageException(
                    "--url " + url + ": not an http:// or https:// URL (e.g. http://localhost:8080/io)");
        }
        if (u.getHost() == null) {
            throw new UsageException("--url " + url + ": no host (e.g. http://localhost:8080/io)");
        }
        if (!method.matches("[A-Z]{1,20}")) {
            throw new UsageException("--method " + method + ": not an HTTP method (e.g. GET, POST, PUT; upper case)");
        }
        for (String h : headers) {
            int colon = h.indexOf(':');
            if (colon <= 0
                    || !h.substring(0, colon).matches("[!#$%&'*+.^_`|~0-9A-Za-z-]+")
                    || h.indexOf('\r') >= 0
                    || h.indexOf('\n') >= 0) {
                throw new UsageException("--header " + h + ": not a header (Name: value, as curl takes it)");
            }
            String name = h.substring(0, colon).strip();
            if (name.equalsIgnoreCase("Content-Length")
                    || name.equalsIgnoreCase("Transfer-Encoding")
                    || name.equalsIgnoreCase("Host")) {
                throw new UsageException("--header " + h + ": the client writes " + name + " itself");
            }
        }
        String path = u.getRawPath() == null || u.getRawPath().isEmpty() ? "/" : u.getRawPath();
        if (u.getRawQuery() != null) {
            path += "?" + u.getRawQuery();
        }
        boolean tls = scheme.equals("https");
        return new Target(
                u,
                u.getHost(),
                u.getPort() < 0 ? (tls ? 443 : 80) : u.getPort(),
                path,
                tls,
                method,
                List.copyOf(headers),
                body.clone(),
                insecure);
    }

    /** {@code GET /io}: what the runs of this target are called. */
    public String label() {
        return method + " " + path;
    }

    /**
     * Whether a request may be sent again on a new connection when the kept-alive one was closed before any response.
     */
    boolean idempotent() {
        return IDEMPOTENT.contains(method);
    }

    /**
     * The request's bytes: the request line, Host, the given headers, Content-Length where there is a body, the body.
     */
    byte[] requestBytes() {
        StringBuilder b = new StringBuilder(method)
                .append(' ')
                .append(path)
                .append(" HTTP/1.1\r\nHost: ")
                .append(hostHeader())
                .append("\r\n");
        boolean agent = false;
        boolean accept = false;
        for (String h : headers) {
            String name = h.substring(0, h.indexOf(':')).strip();
            agent |= name.equalsIgnoreCase("User-Agent");
            accept |= name.equalsIgnoreCase("Accept");
            b.append(h).append("\r\n");
        }
        if (!agent) {
            b.append("User-Agent: loomscope-load\r\n");
        }
        if (!accept) {
            b.append("Accept: */*\r\n");
        }
        if (body.length > 0 || !IDEMPOTENT.contains(method)) {
            b.append("Content-Length: ").append(body.length).append("\r\n");
        }
        byte[] head = b.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1);
        byte[] all = Arrays.copyOf(head, head.length + body.length);
        System.arraycopy(body, 0, all, head.length, body.length);
        return all;
    }

    /** The Host header's value. */
    String hostHeader() {
        String h = host.indexOf(':') >= 0 && !host.startsWith("[") ? "[" + host + "]" : host;
        return port == (tls ? 443 : 80) ? h : h + ":" + port;
    }

    /** Whether the service answers here within {@code timeoutMillis}, whatever the status. */
    public boolean answers(int timeoutMillis) {
        return problem(timeoutMillis) == null;
    }

    /**
     * Why one request here got no HTTP response within {@code timeoutMillis} ({@code connection refused}); null when
     * one came, whatever its status.
     */
    HttpConnection.Failure problem(int timeoutMillis) {
        try (HttpConnection c = new HttpConnection(this, timeoutMillis)) {
            c.exchange();
            return null;
        } catch (IOException | RuntimeException e) {
            return HttpConnection.Failure.of(e);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Target t
                && t.uri.equals(uri)
                && t.method.equals(method)
                && t.headers.equals(headers)
                && Arrays.equals(t.body, body)
                && t.insecure == insecure;
    }

    @Override
    public int hashCode() {
        return uri.hashCode() * 31 + method.hashCode();
    }

    @Override
    public String toString() {
        return label() + " " + uri;
    }
}
