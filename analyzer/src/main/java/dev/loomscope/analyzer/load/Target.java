package dev.loomscope.analyzer.load;

import dev.loomscope.analyzer.errors.UsageException;
import java.net.URI;
import java.net.URISyntaxException;

/** An HTTP/1.1 URL the load client requests: host, port, the request target, and a short label for its runs ({@code GET /io}). */
public record Target(URI uri, String host, int port, String path) {

    /** The target of {@code url}; a one-line usage error when it is not an http URL with a host. */
    public static Target of(String url) {
        URI u;
        try {
            u = new URI(url);
        } catch (URISyntaxException e) {
            throw new UsageException("--url " + url + ": not a URL (" + e.getReason() + "; e.g. http://localhost:8080/io)");
        }
        if (!"http".equalsIgnoreCase(u.getScheme())) {
            throw new UsageException("--url " + url + ": the load client speaks plain http:// only (put TLS in front of it yourself, or use --load-command)");
        }
        if (u.getHost() == null) {
            throw new UsageException("--url " + url + ": no host (e.g. http://localhost:8080/io)");
        }
        String path = u.getRawPath() == null || u.getRawPath().isEmpty() ? "/" : u.getRawPath();
        if (u.getRawQuery() != null) {
            path += "?" + u.getRawQuery();
        }
        return new Target(u, u.getHost(), u.getPort() < 0 ? 80 : u.getPort(), path);
    }

    /** {@code GET /io}: what the runs of this target are called. */
    public String label() {
        return "GET " + path;
    }

    /** The Host header's value. */
    String hostHeader() {
        return port == 80 ? host : host + ":" + port;
    }

    /** Whether the service answers a GET here within {@code timeoutMillis}, whatever the status. */
    public boolean answers(int timeoutMillis) {
        try (HttpConnection c = new HttpConnection(this, timeoutMillis)) {
            c.get();
            return true;
        } catch (java.io.IOException | RuntimeException notYet) {
            return false;
        }
    }
}
