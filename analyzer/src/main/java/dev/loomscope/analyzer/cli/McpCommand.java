package dev.loomscope.analyzer.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loomscope.options.UsageException;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code loomscope mcp}: loomscope's commands as the tools of a Model Context Protocol server on stdin and stdout
 * (JSON-RPC 2.0, a message a line), for coding agents. Each tool runs the command of its name with {@code --format
 * json} through {@link McpTools}, the narrow door (roots, allowed options, inert strings). Messages are bounded in
 * size; a tool call runs on a worker with a timeout and can be cancelled, while this thread goes on answering. Nothing
 * else is written to stdout: the commands' other output goes to stderr.
 */
@Command(
        name = "mcp",
        mixinStandardHelpOptions = true,
        description = {
            "Serves loomscope's commands as MCP tools on stdin/stdout (for coding agents).",
            "Tools: summary, pinning, gc, heap, ctxsw, rules, compare, threads, jmh, flame (flame --top) and flame-diff"
                    + " (flame --diff --top): their JSON, as --format json prints it. Each takes paths (files or"
                    + " directories under the roots) and options (the tool's own: formats, metrics, grouping; none that"
                    + " writes a file)."
        },
        footer = {
            "",
            "Configure a coding agent with the command: ./loomscope mcp --root DIR (or java -jar"
                    + " analyzer/target/loomscope.jar mcp)."
        })
public final class McpCommand implements Callable<Integer> {
    /** The protocol version answered when the client asks for none this server knows. */
    static final String PROTOCOL = "2025-06-18";

    static final List<String> PROTOCOLS = List.of("2024-11-05", "2025-03-26", "2025-06-18");
    /** The largest message read; a longer line is refused whole (-32600) and the next one read. */
    static final int MAX_MESSAGE_CHARS = 1 << 20;

    @Option(
            names = "--root",
            paramLabel = "DIR",
            description = "a directory whose files the tools may read (repeatable; default: the current directory);"
                    + " paths leading out of every root, links included, are refused")
    List<Path> rootOptions = new ArrayList<>();

    @Option(
            names = "--timeout",
            paramLabel = "DURATION",
            defaultValue = "300s",
            description = "how long a tool call may run before it is stopped with an error, such as 300s or 10m"
                    + " (default: ${DEFAULT-VALUE})")
    String timeoutText;

    private Duration timeout;

    private final ObjectMapper json = new ObjectMapper();
    private final Map<String, Future<?>> running = new ConcurrentHashMap<>();
    private McpTools tools;
    private PrintStream protocol;
    private ExecutorService workers;

    /**
     * The directories the tools may read (--root, else the current one), real paths; a usage error for one that is not
     * a directory.
     */
    private List<Path> roots() throws IOException {
        List<Path> roots = new ArrayList<>();
        for (Path r : rootOptions.isEmpty() ? List.of(Path.of("")) : rootOptions) {
            Path abs = r.toAbsolutePath();
            if (!Files.isDirectory(abs)) {
                throw new UsageException(
                        abs + ": --root is not a directory (name the directory whose recordings the tools may read)");
            }
            roots.add(abs.toRealPath());
        }
        return roots;
    }

    @Override
    public Integer call() throws Exception {
        timeout = CliCommand.duration("--timeout", timeoutText, Duration.ofMillis(1));
        tools = new McpTools(roots());
        protocol = System.out;
        System.setOut(System.err); // stdout carries the protocol alone
        workers = Executors.newFixedThreadPool(
                2, Thread.ofPlatform().name("loomscope-mcp-tool").daemon().factory());
        try (Reader in = new InputStreamReader(System.in, StandardCharsets.UTF_8)) {
            StringBuilder line = new StringBuilder();
            boolean tooLong = false;
            for (int c = in.read(); ; c = in.read()) {
                if (c == '\n' || c < 0) {
                    if (tooLong) {
                        send(error(null, -32600, "message over " + MAX_MESSAGE_CHARS + " characters: not read"));
                    } else if (!line.isEmpty() && !line.toString().isBlank()) {
                        JsonNode answer = answer(line.toString());
                        if (answer != null) {
                            send(answer);
                        }
                    }
                    line.setLength(0);
                    tooLong = false;
                    if (c < 0) {
                        break;
                    }
                } else if (line.length() < MAX_MESSAGE_CHARS) {
                    line.append((char) c);
                } else {
                    tooLong = true;
                    line.setLength(0);
                }
            }
        } finally {
            workers.shutdownNow();
        }
        return Errors.OK;
    }

    private void send(JsonNode message) {
        try {
            String text = json.writeValueAsString(message);
            synchronized (this) {
                protocol.println(text);
                protocol.flush();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Each tool with its description and input schema: paths under the roots, and the options it takes. */
    private static void toolList(ArrayNode list) {
        for (McpTools.Tool t : McpTools.TOOLS) {
            ObjectNode tool = list.addObject().put("name", t.name()).put("description", t.description());
            ObjectNode schema = tool.putObject("inputSchema").put("type", "object");
            ObjectNode props = schema.putObject("properties");
            props.putObject("paths")
                    .put("type", "array")
                    .put("description", "files or directories under the server's roots")
                    .putObject("items")
                    .put("type", "string");
            props.putObject("options")
                    .put("type", "array")
                    .put(
                            "description",
                            "the tool's options, e.g. [\"--metric\", \"run time\"]: "
                                    + (McpTools.OPTIONS.get(t.name()).isEmpty()
                                            ? "none"
                                            : String.join(
                                                    ", ",
                                                    McpTools.OPTIONS.get(t.name()).stream()
                                                            .sorted()
                                                            .toList())))
                    .putObject("items")
                    .put("type", "string");
            schema.putArray("required").add("paths");
        }
    }

    /** The response to one line (a message or a batch of them), or null when none is due. */
    JsonNode answer(String line) {
        JsonNode message;
        try {
            message = json.readTree(line);
        } catch (IOException e) {
            return error(
                    null,
                    -32700,
                    "not JSON: "
                            + McpTools.inert(e.getMessage().lines().findFirst().orElse("")));
        }
        if (message.isArray()) {
            if (message.isEmpty()) {
                return error(null, -32600, "an empty batch");
            }
            ArrayNode answers = json.createArrayNode();
            for (JsonNode m : message) {
                JsonNode a = answerOne(m);
                if (a != null) {
                    answers.add(a);
                }
            }
            return answers.isEmpty() ? null : answers;
        }
        return answerOne(message);
    }

    private JsonNode answerOne(JsonNode request) {
        if (!request.isObject()) {
            return error(null, -32600, "a request is a JSON object");
        }
        JsonNode id = request.get("id");
        JsonNode method = request.get("method");
        if (id != null && !id.isNull() && !id.isTextual() && !id.isNumber() || method == null || !method.isTextual()) {
            return error(
                    id != null && (id.isTextual() || id.isNumber()) ? id : null,
                    -32600,
                    "a request has a method (a string) and an id (a string or a number)");
        }
        if (id == null || id.isNull()) {
            if (method.asText().equals("notifications/cancelled")) {
                Future<?> f =
                        running.remove(request.path("params").path("requestId").asText());
                if (f != null) {
                    f.cancel(true); // the cancelled request gets no answer
                }
            }
            return null; // notifications want no answer
        }
        ObjectNode result = json.createObjectNode();
        switch (method.asText()) {
            case "initialize" -> {
                String asked = request.path("params").path("protocolVersion").asText(PROTOCOL);
                result.put("protocolVersion", PROTOCOLS.contains(asked) ? asked : PROTOCOL);
                result.putObject("capabilities").putObject("tools").put("listChanged", false);
                result.putObject("serverInfo").put("name", "loomscope").put("version", version());
            }
            case "ping" -> {}
            case "tools/list" -> toolList(result.putArray("tools"));
            case "tools/call" -> {
                call(id, request.path("params"));
                return null; // answered when the tool is done
            }
            default -> {
                return error(id, -32601, "no method " + McpTools.inert(method.asText()));
            }
        }
        return response(id, result);
    }

    /**
     * Starts a tool call on a worker; its answer is sent when it ends, fails, times out or is cancelled (then none).
     */
    private void call(JsonNode id, JsonNode params) {
        String tool = params.path("name").asText("");
        List<String> args;
        try {
            args = tools.commandLine(tool, params.path("arguments"));
        } catch (McpTools.Refused r) {
            send(response(id, tools.result(r.getMessage(), true)));
            return;
        }
        String key = id.asText();
        CompletableFuture<ObjectNode> done = new CompletableFuture<>();
        Future<?> work = workers.submit(() -> {
            try {
                done.complete(tools.run(args));
            } catch (Throwable t) {
                done.completeExceptionally(t);
            }
        });
        running.put(key, work);
        done.orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS).whenComplete((result, failure) -> {
            if (running.remove(key) == null) {
                return; // cancelled by the client: no answer
            }
            if (failure instanceof TimeoutException) {
                work.cancel(true);
                send(response(
                        id,
                        tools.result(
                                "loomscope " + tool + ": stopped after " + timeout.toSeconds()
                                        + " s (the server's --timeout)",
                                true)));
            } else if (failure != null) {
                send(response(
                        id,
                        tools.result(
                                "loomscope " + tool + ": internal error: " + McpTools.inert(String.valueOf(failure)),
                                true)));
            } else {
                send(response(id, result));
            }
        });
    }

    private ObjectNode response(JsonNode id, JsonNode result) {
        ObjectNode r = json.createObjectNode().put("jsonrpc", "2.0");
        r.set("id", id);
        r.set("result", result);
        return r;
    }

    private ObjectNode error(JsonNode id, int code, String message) {
        ObjectNode r = json.createObjectNode().put("jsonrpc", "2.0");
        r.set("id", id);
        r.putObject("error").put("code", code).put("message", message);
        return r;
    }

    private static String version() {
        String v = McpCommand.class.getPackage().getImplementationVersion();
        return v == null ? "dev" : v;
    }
}
