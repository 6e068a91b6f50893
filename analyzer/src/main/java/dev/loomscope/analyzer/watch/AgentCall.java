package dev.loomscope.analyzer.watch;

import com.sun.tools.attach.AgentInitializationException;
import com.sun.tools.attach.AgentLoadException;
import com.sun.tools.attach.VirtualMachine;
import dev.loomscope.options.BadDataException;
import dev.loomscope.recording.TempFiles;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;

/**
 * One command to the loomscope agent in a running JVM: the agent jar loaded through the Attach API with
 * {@code command=...,reply=FILE} (the agent's attach protocol), its reply read back: whether it did it, and what it
 * said. Loading the jar of an agent the JVM already runs calls it again; in a JVM without it, the JDK may print its
 * warning about agents loaded at run time.
 *
 * @param ok whether the agent did what was asked
 * @param lines what it said after its first line
 * @param view how this process reached the JVM (its user, its namespaces)
 */
public record AgentCall(boolean ok, List<String> lines, ProcessView view) {

    private static final String REPLY = "attach.reply";

    private static List<String> replyLines(ProcessView.Exchange exchange) throws IOException {
        try (var in = new BufferedReader(new InputStreamReader(exchange.open(REPLY), StandardCharsets.UTF_8))) {
            return in.lines().toList();
        }
    }

    /**
     * Loads {@code jar} into process {@code pid} with {@code command} and its {@code options}; a JVM that cannot take
     * it is a BadDataException.
     */
    public static AgentCall run(long pid, Path jar, String command, List<String> options) throws IOException {
        if (!Files.isRegularFile(jar)) {
            throw new BadDataException(jar + ": missing (build it with ./mvnw -B package, or give --agent)");
        }
        ProcessView view = ProcessView.of(pid);
        VirtualMachine vm = RunningJvm.attach(view);
        ProcessView.Exchange exchange = null;
        Path reply = null;
        try {
            Properties props = vm.getSystemProperties();
            RunningJvm.refuseBefore21(
                    "process " + pid,
                    RunningJvm.feature(props.getProperty("java.specification.version", "")),
                    "the agent needs");
            // another user's JVM, or one in a container: the reply in a directory of ours it can write, the jar where
            // it can read it
            String tmpdir = props.getProperty("java.io.tmpdir", "/tmp");
            exchange = view.exchange(tmpdir);
            reply = exchange == null
                    ? TempFiles.create("loomscope-attach-", ".reply")
                    : exchange.here().resolve(REPLY);
            String replyThere = exchange == null ? reply.toString() : exchange.there(REPLY);
            String args = "command=" + command + ",reply=" + replyThere
                    + (options.isEmpty() ? "" : "," + String.join(",", options));
            try {
                vm.loadAgent(view.readable(jar, tmpdir), args);
            } catch (AgentLoadException | AgentInitializationException e) {
                throw new BadDataException("process " + pid + ": the agent did not load: " + e.getMessage()
                        + " (if the JVM runs with -XX:-EnableDynamicAgentLoading, start it with -javaagent instead)");
            }
            List<String> lines = exchange == null
                    ? Files.readAllLines(reply, StandardCharsets.UTF_8)
                    : Files.exists(reply, LinkOption.NOFOLLOW_LINKS) ? replyLines(exchange) : List.of();
            if (lines.isEmpty()) {
                throw new BadDataException("process " + pid
                        + ": the agent gave no answer (see the JVM's stderr for loomscope-agent lines)");
            }
            return new AgentCall(lines.get(0).equals("ok"), List.copyOf(lines.subList(1, lines.size())), view);
        } finally {
            vm.detach();
            if (exchange != null) {
                exchange.close();
            } else if (reply != null) {
                TempFiles.delete(reply);
            }
        }
    }
}
