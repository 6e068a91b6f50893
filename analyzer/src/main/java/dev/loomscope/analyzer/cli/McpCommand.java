package dev.loomscope.analyzer.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/**
 * {@code loomscope mcp}: loomscope's commands as the tools of a Model Context Protocol server on
 * stdin and stdout (JSON-RPC 2.0, a message a line), for coding agents. Each tool runs the command
 * of its name with {@code --format json} and returns what it prints; the command's one-line error
 * is the tool's error. Nothing else is written to stdout: the commands' other output goes to stderr.
 */
@Command(name = "mcp", mixinStandardHelpOptions = true,
        description = {"Serves loomscope's commands as MCP tools on stdin/stdout (for coding agents).",
            "Tools: summary, pinning, gc, heap, ctxsw, rules, compare, threads, jmh, flame (flame --top) and flame-diff (flame --diff --top):"
                    + " their JSON, as --format json prints it. Each takes paths (recordings, dumps or JMH results) and options (as on the"
                    + " command line)."},
        footer = {"", "Configure a coding agent with the command: ./loomscope mcp (or java -jar analyzer/target/loomscope.jar mcp)."})
public final class McpCommand implements Callable<Integer> {
    /** The protocol version answered when the client asks for none this server knows. */
    static final String PROTOCOL = "2025-06-18";
    static final List<String> PROTOCOLS = List.of("2024-11-05", "2025-03-26", "2025-06-18");
    /** The commands offered as tools, each with what it answers. */
    static final List<String[]> TOOLS = List.of(
            new String[] {"summary", "What is in these recordings: span, JVM, GC, thread kind, event counts and the key figures"},
            new String[] {"pinning", "Where virtual threads pinned, why and how long, and what each recording can show of pins"},
            new String[] {"gc", "GC pauses per collector and cause: count, p50, p90, p99, max, total, share of time"},
            new String[] {"heap", "Heap before and after each collection, committed, allocation and heap fill rates, over time"},
            new String[] {"ctxsw", "The process's context switches beside the machine's, per second and over time"},
            new String[] {"rules", "JDK Mission Control's automated analysis and loomscope's rules"},
            new String[] {"compare", "Groups of recordings (platform vs virtual threads by default) metric by metric, with verdicts"},
            new String[] {"threads", "What is stuck in JSON thread dumps: deadlocks and carrier starvation"},
            new String[] {"jmh", "JMH results (-rf json) with context switches per operation and verdicts"},
            new String[] {"flame", "The frames of recordings' CPU profile with the most samples, self and total shares (options: --event wall,"
                    + " --top N, ...)"},
            new String[] {"flame-diff", "Two profiles, BASE then NEW: the frames whose share of the samples changed most (options as flame's)"});
    /** Frames a flame tool lists unless its options say --top. */
    static final String FLAME_TOP = "30";

    private final ObjectMapper json = new ObjectMapper();

    @Override
    public Integer call() throws Exception {
        PrintStream protocol = System.out;
        System.setOut(System.err); // stdout carries the protocol alone
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            if (line.isBlank()) {
                continue;
            }
            JsonNode answer = answer(line);
            if (answer != null) {
                protocol.println(json.writeValueAsString(answer));
                protocol.flush();
            }
        }
        return Errors.OK;
    }

    /** The response to one message, or null for a notification. */
    JsonNode answer(String line) {
        JsonNode request;
        try {
            request = json.readTree(line);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return error(null, -32700, "not JSON: " + e.getOriginalMessage());
        }
        JsonNode id = request.get("id");
        String method = request.path("method").asText("");
        if (id == null || id.isNull()) {
            return null; // notifications/initialized and the like want no answer
        }
        ObjectNode result = json.createObjectNode();
        switch (method) {
            case "initialize" -> {
                String asked = request.path("params").path("protocolVersion").asText(PROTOCOL);
                result.put("protocolVersion", PROTOCOLS.contains(asked) ? asked : PROTOCOL);
                result.putObject("capabilities").putObject("tools").put("listChanged", false);
                result.putObject("serverInfo").put("name", "loomscope").put("version", version());
            }
            case "ping" -> { }
            case "tools/list" -> {
                ArrayNode tools = result.putArray("tools");
                for (String[] t : TOOLS) {
                    ObjectNode tool = tools.addObject().put("name", t[0]).put("description", t[1]);
                    ObjectNode schema = tool.putObject("inputSchema").put("type", "object");
                    ObjectNode props = schema.putObject("properties");
                    props.putObject("paths").put("type", "array").put("description", "files, globs or directories, as the command takes them")
                            .putObject("items").put("type", "string");
                    props.putObject("options").put("type", "array").put("description", "further options, e.g. [\"--metric\", \"run time\"]")
                            .putObject("items").put("type", "string");
                    schema.putArray("required").add("paths");
                }
            }
            case "tools/call" -> {
                return response(id, call(request.path("params")));
            }
            default -> {
                return error(id, -32601, "no method " + method);
            }
        }
        return response(id, result);
    }

    /** Runs the tool's command; its JSON (or its one-line error) as the tool's text content. */
    private ObjectNode call(JsonNode params) {
        String name = params.path("name").asText("");
        ObjectNode result = json.createObjectNode();
        if (TOOLS.stream().noneMatch(t -> t[0].equals(name))) {
            return text(result, "no tool " + name + " (tools/list names them)", true);
        }
        List<String> args = new ArrayList<>(name.equals("flame-diff") ? List.of("flame", "--diff") : List.of(name));
        JsonNode arguments = params.path("arguments");
        arguments.path("paths").forEach(p -> args.add(p.asText()));
        arguments.path("options").forEach(o -> args.add(o.asText()));
        if (arguments.path("paths").isEmpty()) {
            return text(result, name + ": give paths (the files the command reads)", true);
        }
        if (name.startsWith("flame") && args.stream().noneMatch(a -> a.equals("--top") || a.startsWith("--top="))) {
            args.addAll(List.of("--top", FLAME_TOP));
        }
        args.addAll(List.of("--format", "json"));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args.toArray(String[]::new), new PrintWriter(out, true), new PrintWriter(err, true));
        // exit 1 is a check that found something (a pin, a deadlock): the output is still the answer
        if (code > Errors.CHECK_FAILED) {
            return text(result, err.toString().strip(), true);
        }
        return text(result, out.toString(), false);
    }

    private ObjectNode text(ObjectNode result, String text, boolean isError) {
        result.putArray("content").addObject().put("type", "text").put("text", text);
        result.put("isError", isError);
        return result;
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
