package dev.loomscope.agent;

import java.io.File;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.lang.instrument.Instrumentation;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.charset.StandardCharsets;

/**
 * The agent jar's entry points, compiled for Java 8: in a JVM older than 21 the agent cannot run (virtual threads, the
 * JFR events it records), and it must still never take the app down. There it says so in one line (and in the reply
 * file of {@code loomscope attach}) and the app runs on; on JDK 21+ it hands over to {@code LoomscopeAgent} and
 * {@code AgentHelp}.
 */
public final class AgentEntry {
    static final int MIN_JDK = 21;

    private AgentEntry() {}

    public static void premain(String args, Instrumentation inst) throws Throwable {
        if (supported(null)) {
            entry("dev.loomscope.agent.LoomscopeAgent", "premain").invokeExact(args, inst);
        }
    }

    public static void agentmain(String args, Instrumentation inst) throws Throwable {
        if (supported(replyFile(args))) {
            entry("dev.loomscope.agent.LoomscopeAgent", "agentmain").invokeExact(args, inst);
        }
    }

    /** {@code java -jar loomscope-agent.jar}: the options. */
    public static void main(String[] args) throws Throwable {
        if (!supported(null)) {
            System.exit(2);
        }
        MethodHandles.lookup()
                .findStatic(
                        Class.forName("dev.loomscope.agent.AgentHelp"),
                        "main",
                        MethodType.methodType(void.class, String[].class))
                .invokeExact(args);
    }

    private static MethodHandle entry(String cls, String method) throws ReflectiveOperationException {
        return MethodHandles.lookup()
                .findStatic(
                        Class.forName(cls),
                        method,
                        MethodType.methodType(void.class, String.class, Instrumentation.class));
    }

    /** True on JDK 21+; otherwise one line on stderr, and the answer in {@code reply} when attached by loomscope. */
    private static boolean supported(File reply) {
        String spec = System.getProperty("java.specification.version", "0");
        String v = spec.startsWith("1.") ? spec.substring(2) : spec;
        int feature;
        try {
            feature = Integer.parseInt(v.split("\\.")[0]);
        } catch (NumberFormatException e) {
            feature = 0;
        }
        if (feature >= MIN_JDK) {
            return true;
        }
        String line = "loomscope-agent: needs JDK " + MIN_JDK + " or newer, and this JVM is JDK " + feature + " ("
                + System.getProperty("java.home") + "); nothing is recorded, the app runs on";
        System.err.println(line);
        if (reply != null) {
            try (OutputStream out = new FileOutputStream(reply)) {
                out.write(("error\n" + line + "\n").getBytes(StandardCharsets.UTF_8));
            } catch (Exception e) {
                // the line on stderr stands
            }
        }
        return false;
    }

    /** The reply file named by {@code loomscope attach} (its argument leads with command= and reply=), or null. */
    private static File replyFile(String args) {
        if (args == null) {
            return null;
        }
        for (String token : args.split(",")) {
            String t = token.trim();
            if (t.startsWith("reply=")) {
                return new File(t.substring("reply=".length()));
            }
            if (!t.startsWith("command=")) {
                return null;
            }
        }
        return null;
    }
}
