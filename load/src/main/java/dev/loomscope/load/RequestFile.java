package dev.loomscope.load;

import dev.loomscope.options.BadDataException;
import dev.loomscope.options.UsageException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A request file: several requests in a weighted mix, in the form editors' HTTP clients read ({@code .http} files):
 * requests separated by lines that start with {@code ###} (which may say {@code weight=N}, default 1), each a request
 * line ({@code METHOD URL}, or a URL alone for a GET), its headers, a blank line and its body; lines starting with
 * {@code #} or {@code //} before a request line are comments. Every request goes to one scheme, host and port.
 *
 * <pre>
 * ### weight=3
 * GET http://localhost:{port}/items
 *
 * ### weight=1
 * POST http://localhost:{port}/orders
 * Content-Type: application/json
 *
 * {"item": 42}
 * </pre>
 */
public final class RequestFile {
    private static final Pattern WEIGHT = Pattern.compile("weight\\s*=\\s*(\\S+)");
    /** The most requests a file may hold: a mix, not a replay log. */
    static final int MOST = 1000;

    private RequestFile() {}

    /**
     * The mix in {@code file}, each URL passed through {@code url} ({@code {port}}); one-line errors name the file and
     * line.
     */
    public static Requests read(Path file, UnaryOperator<String> url) {
        return read(file, url, false);
    }

    /**
     * As {@link #read(Path, UnaryOperator)}; {@code insecure}: an https request accepts a certificate that does not
     * verify.
     */
    public static Requests read(Path file, UnaryOperator<String> url, boolean insecure) {
        Path abs = file.toAbsolutePath();
        List<String> lines = lines(abs);
        List<Target> targets = new ArrayList<>();
        List<Integer> weights = new ArrayList<>();
        int i = 0;
        while (i < lines.size()) {
            int weight = 1;
            if (lines.get(i).startsWith("###")) {
                weight = weight(abs, i, lines.get(i));
                i++;
            }
            while (i < lines.size()
                    && !lines.get(i).startsWith("###")
                    && (lines.get(i).isBlank()
                            || lines.get(i).startsWith("#")
                            || lines.get(i).startsWith("//"))) {
                i++;
            }
            if (i >= lines.size() || lines.get(i).startsWith("###")) {
                continue; // a separator without a request: nothing to send
            }
            int at = i;
            Parsed parsed = request(abs, lines, i, url, insecure);
            Target t = parsed.target();
            i = parsed.next();
            if (!targets.isEmpty()) {
                sameHost(abs, at, targets.get(0), t);
            }
            targets.add(t);
            weights.add(weight);
            if (targets.size() > MOST) {
                throw bad(abs, at, "more than " + MOST + " requests: a request file holds a mix, not a log to replay");
            }
        }
        if (targets.isEmpty()) {
            throw new BadDataException(
                    abs + ": no request in it (a request is a line METHOD URL; see 'loomscope load --help')");
        }
        return Requests.mix("requests " + abs.getFileName(), targets, weights, abs.toString());
    }

    /** A request read from line {@code at}, and the line after it. */
    private record Parsed(Target target, int next) {}

    /**
     * The request whose request line is line {@code at}: its headers to the first blank line, then its body to the next
     * separator.
     */
    private static Parsed request(Path abs, List<String> lines, int at, UnaryOperator<String> url, boolean insecure) {
        int i = at;
        String[] requestLine = lines.get(i++).strip().split("\\s+");
        String method = requestLine.length == 1 ? "GET" : requestLine[0];
        String u = requestLine.length == 1 ? requestLine[0] : requestLine[1];
        if (requestLine.length > 3 || requestLine.length == 3 && !requestLine[2].startsWith("HTTP/")) {
            throw bad(abs, at, "not a request line (METHOD URL, e.g. POST http://localhost:8080/orders)");
        }
        List<String> headers = new ArrayList<>();
        while (i < lines.size() && !lines.get(i).isBlank() && !lines.get(i).startsWith("###")) {
            headers.add(lines.get(i++).strip());
        }
        StringBuilder body = new StringBuilder();
        if (i < lines.size() && lines.get(i).isBlank()) {
            i++;
            List<String> text = new ArrayList<>();
            while (i < lines.size() && !lines.get(i).startsWith("###")) {
                text.add(lines.get(i++));
            }
            while (!text.isEmpty() && text.get(text.size() - 1).isBlank()) {
                text.remove(text.size() - 1);
            }
            body.append(String.join("\n", text));
        }
        try {
            return new Parsed(
                    Target.of(
                            url.apply(u),
                            method.toUpperCase(Locale.ROOT),
                            headers,
                            body.toString().getBytes(StandardCharsets.UTF_8),
                            insecure),
                    i);
        } catch (UsageException e) {
            throw bad(
                    abs,
                    at,
                    e.getMessage()
                            .replace("--method ", "method ")
                            .replace("--url ", "URL ")
                            .replace("--header ", "header "));
        }
    }

    /** The file's lines; bad input when it is missing, unreadable or larger than a mix of requests is. */
    private static List<String> lines(Path abs) {
        try {
            if (Files.size(abs) > 16L * 1024 * 1024) {
                throw new BadDataException(
                        abs + ": over 16 MiB: a request file holds a mix of requests, not a log to replay");
            }
            return Files.readAllLines(abs, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new BadDataException(
                    abs + ": no such file (give --request-file a request file: see 'loomscope load --help')");
        } catch (IOException e) {
            throw new BadDataException(abs + ": cannot read it (" + e.getMessage() + ")");
        }
    }

    /**
     * The weight a separator line ({@code ### weight=N}, line {@code i}) gives its request: 1 when it names none, 1 to
     * 1000.
     */
    private static int weight(Path abs, int i, String separator) {
        Matcher m = WEIGHT.matcher(separator);
        if (!m.find()) {
            return 1;
        }
        int weight;
        try {
            weight = Integer.parseInt(m.group(1));
        } catch (NumberFormatException e) {
            weight = 0;
        }
        if (weight < 1 || weight > 1000) {
            throw bad(abs, i, "weight=" + m.group(1) + " is not a whole number from 1 to 1000");
        }
        return weight;
    }

    /**
     * A request of line {@code at} that goes elsewhere than the file's first one is bad input: a file's requests share
     * one host.
     */
    private static void sameHost(Path abs, int at, Target first, Target t) {
        if (first.tls() != t.tls() || !first.host().equalsIgnoreCase(t.host()) || first.port() != t.port()) {
            throw bad(
                    abs,
                    at,
                    "goes to " + t.uri().getScheme() + "://" + t.host() + ":" + t.port()
                            + ", the file's first request to " + first.uri().getScheme() + "://" + first.host() + ":"
                            + first.port() + " (a file's requests share one host: give a file a host)");
        }
    }

    private static BadDataException bad(Path file, int line, String what) {
        return new BadDataException(file + ":" + (line + 1) + ": " + what);
    }
}
