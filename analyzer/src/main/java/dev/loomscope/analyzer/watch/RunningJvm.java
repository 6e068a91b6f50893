package dev.loomscope.analyzer.watch;

import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.HotSpotDiagnosticMXBean.ThreadDumpFormat;
import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;
import dev.loomscope.options.AgentOptions;
import dev.loomscope.options.BadDataException;
import dev.loomscope.options.UsageException;
import dev.loomscope.recording.Said;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.RuntimeMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.Optional;
import javax.management.JMException;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * A running JVM over JMX, as {@code watch} and {@code attach PID threads} reach it: a local process by its id
 * (attached, its local management agent started: nothing else is loaded into it) or a JVM's remote JMX port
 * ({@code HOST:PORT}). Closing it disconnects and detaches; the management agent, once started, stays (the JDK cannot
 * stop it by attach), reachable by the same user on the same machine only.
 */
public final class RunningJvm implements AutoCloseable {
    private final VirtualMachine vm;
    private final JMXConnector connector;
    private final MBeanServerConnection mbeans;
    private final String name;
    private final long pid;
    /** How this process reaches a local JVM's files; null for a remote one. */
    private final ProcessView view;

    private Map<String, String> properties;

    private RunningJvm(VirtualMachine vm, JMXConnector connector, String name, long pid, ProcessView view)
            throws IOException {
        this.vm = vm;
        this.connector = connector;
        this.mbeans = connector.getMBeanServerConnection();
        this.name = name;
        this.pid = pid;
        this.view = view;
    }

    /** Connects to {@code target}: a process id, or {@code HOST:PORT} of a JVM's remote JMX agent. */
    public static RunningJvm open(String target) {
        if (target.matches("\\d{1,10}")) {
            long pid = Long.parseLong(target);
            if (pid == ProcessHandle.current().pid()) {
                throw new UsageException("process " + pid
                        + " is this loomscope itself (give the id of another JVM; 'loomscope attach list' shows them)");
            }
            if (ProcessHandle.of(pid).isEmpty()) {
                throw new BadDataException(
                        "no process " + pid + " ('loomscope attach list' shows the JVMs of this user)");
            }
            ProcessView view = ProcessView.of(pid);
            if (view.otherNetwork()) {
                // its management agent listens on its own 127.0.0.1: here that address is another machine's, if
                // anyone's
                throw new BadDataException("process " + pid
                        + " runs in another network namespace (a container), where its management agent cannot be"
                        + " reached from here: run loomscope inside it (the release archive extracted there), or start"
                        + " the JVM with -Dcom.sun.management.jmxremote.port=PORT and give HOST:PORT; 'loomscope"
                        + " attach " + pid
                        + " start|stop' reach it from here");
            }
            VirtualMachine vm = attach(view);
            try {
                String url = vm.startLocalManagementAgent();
                return new RunningJvm(
                        vm, JMXConnectorFactory.connect(new JMXServiceURL(url)), "process " + pid, pid, view);
            } catch (IOException | RuntimeException e) {
                detach(vm);
                throw new BadDataException("process " + pid + ": cannot reach its management agent: " + Said.by(e)
                        + " (the JVM must let it start: not -XX:+DisableAttachMechanism, not"
                        + " -Dcom.sun.management.jmxremote.local.only=false without a port)");
            }
        }
        if (target.matches("[^\\s:/]+:\\d{1,5}")) {
            try {
                JMXServiceURL url = new JMXServiceURL("service:jmx:rmi:///jndi/rmi://" + target + "/jmxrmi");
                return new RunningJvm(null, JMXConnectorFactory.connect(url), target, -1, null);
            } catch (IOException | RuntimeException e) {
                throw new BadDataException(target + ": cannot connect over JMX: " + Said.by(root(e))
                        + " (start the JVM with -Dcom.sun.management.jmxremote.port=PORT, or watch it by its process id"
                        + " on its machine)");
            }
        }
        throw new UsageException("'" + target
                + "' is neither a process id nor HOST:PORT ('loomscope attach list' shows the local JVMs)");
    }

    /** Attaches to the local process {@code view} sees (Attach API), or says in one line why it cannot. */
    public static VirtualMachine attach(ProcessView view) {
        long pid = view.pid();
        boolean listed = VirtualMachine.list().stream().anyMatch(d -> d.id().equals(Long.toString(pid)));
        String exe = executable(pid);
        if (!listed && exe != null && !exe.startsWith("java")) {
            // neither in the JVMs' list nor a java executable: attaching would only time out; its command line is none
            // of our business
            throw new BadDataException("process " + pid + " (" + exe
                    + ") is not a JVM this user can attach to ('loomscope attach list' shows them)");
        }
        if (view.otherUser() && !view.weAreRoot()) {
            // the JDK would only time out or say the socket is not ours: who it belongs to, and what reaches it
            throw new BadDataException("process " + pid + " runs as user " + view.user()
                    + ", and a JVM is attached to by its own user or root: run the same command as "
                    + (view.uid() == 0
                            ? "root (sudo loomscope ...)"
                            : view.user() + " (sudo -u " + view.user() + " loomscope ...) or as root"));
        }
        try {
            return VirtualMachine.attach(Long.toString(pid));
        } catch (AttachNotSupportedException | IOException e) {
            // the JDK's message may quote the process's whole command line, secrets and all: only its executable's name
            // is said
            String said = Said.by(e)
                    .replaceAll("pid: \\d+ cmd: '[^']*'", "process " + pid + (exe == null ? "" : " (" + exe + ")"));
            throw new BadDataException("process " + pid + ": cannot attach: " + said
                    + " (it must be a JVM of the same user, without -XX:+DisableAttachMechanism)");
        }
    }

    /**
     * The name of a process's executable ({@code java}), from the JDK's process info or else /proc; null when neither
     * tells.
     */
    private static String executable(long pid) {
        Optional<String> command = ProcessHandle.of(pid).flatMap(h -> h.info().command());
        if (command.isPresent()) {
            return Path.of(command.get()).getFileName().toString();
        }
        try {
            return Files.readString(Path.of("/proc", Long.toString(pid), "comm"))
                    .strip();
        } catch (IOException | RuntimeException unknown) {
            return null;
        }
    }

    /**
     * The innermost cause: what JMX's layers of naming and RMI exceptions wrap (a refused connection, an unknown host).
     */
    private static Throwable root(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t;
    }

    public MBeanServerConnection mbeans() {
        return mbeans;
    }

    /** "process 1234" or "HOST:PORT". */
    public String name() {
        return name;
    }

    /** Whether the JVM runs on this machine, so files it writes (thread dumps) can be read here. */
    public boolean local() {
        return vm != null;
    }

    /** The JVM's process id, or -1 for a remote one. */
    public long pid() {
        return pid;
    }

    /**
     * A path the JVM names (its JFR repository), as this process reaches it: under /proc/PID/root for a JVM in a
     * container.
     */
    public Path here(String there) {
        return view == null ? Path.of(there) : view.here(there);
    }

    /** The JVM's system properties, fetched once. */
    public Map<String, String> properties() throws IOException {
        if (properties == null) {
            properties = ManagementFactory.newPlatformMXBeanProxy(
                            mbeans, ManagementFactory.RUNTIME_MXBEAN_NAME, RuntimeMXBean.class)
                    .getSystemProperties();
        }
        return properties;
    }

    /** The JVM's feature version (21, 25), or 0 when it cannot be told. */
    public int feature() {
        try {
            return feature(properties().getOrDefault("java.specification.version", ""));
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /**
     * Refuses a JVM that says it runs a JDK older than 21 ("process 1234: runs Java 17; {@code what} need(s) JDK 21 or
     * newer"); one that cannot tell is let through: what follows then says what failed.
     */
    public void refuseBefore21(String what) {
        refuseBefore21(name, feature(), what);
    }

    /**
     * As {@link #refuseBefore21(String)}, for the JVM {@code name} ("process 1234") of {@code feature} (0: unknown).
     */
    public static void refuseBefore21(String name, int feature, String what) {
        if (feature > 0 && feature < 21) {
            throw new BadDataException(name + ": runs Java " + feature + "; " + what + " JDK 21 or newer");
        }
    }

    /** The feature version a {@code java.specification.version} names ("1.8": 8, "21": 21), or 0 when it names none. */
    public static int feature(String specVersion) {
        String feature = specVersion.replaceFirst("^1\\.", "").replaceFirst("\\..*$", "");
        return feature.matches("\\d{1,9}") ? Integer.parseInt(feature) : 0;
    }

    /**
     * Who owns the locks threads are parked on, as the loomscope agent's JMX bean in the JVM answers ({@code TID LOCK
     * OWNER-TID} lines); null when no agent's bean is there (the agent does not run in it, or has not seen an MBean
     * server yet: it looks once a second).
     */
    public String agentLockOwners() throws IOException {
        try {
            ObjectName bean = new ObjectName(AgentOptions.CONTROL_BEAN);
            return mbeans.isRegistered(bean) ? (String) mbeans.invoke(bean, "lockOwners", null, null) : null;
        } catch (JMException e) {
            throw new BadDataException(name + ": the loomscope agent could not say who owns the locks: "
                    + Said.by(e.getCause() != null ? e.getCause() : e));
        }
    }

    /**
     * Has the JVM write a thread dump of all its threads, virtual ones too, to {@code file} (on its machine); throws
     * what the JVM said when it cannot (JDK 21-25 cannot write a thread name with a control character as JSON).
     */
    public void dumpThreads(Path file, ThreadDumpFormat format) throws IOException {
        HotSpotDiagnosticMXBean diagnostic = ManagementFactory.newPlatformMXBeanProxy(
                mbeans, "com.sun.management:type=HotSpotDiagnostic", HotSpotDiagnosticMXBean.class);
        // another user's JVM, or one in a container, writes where it can and names the file as it sees it
        try (ProcessView.Exchange exchange =
                view == null ? null : view.exchange(properties().getOrDefault("java.io.tmpdir", "/tmp"))) {
            if (exchange == null) {
                diagnostic.dumpThreads(file.toString(), format);
                return;
            }
            String name = file.getFileName().toString();
            diagnostic.dumpThreads(exchange.there(name), format);
            // copied, not moved: the dump is then this user's, not the JVM's user's
            try (InputStream in = exchange.open(name)) {
                Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    @Override
    public void close() {
        try {
            connector.close();
        } catch (IOException | RuntimeException e) {
            // the JVM went away: nothing left to close
        }
        if (vm != null) {
            detach(vm);
        }
    }

    private static void detach(VirtualMachine vm) {
        try {
            vm.detach();
        } catch (IOException e) {
            // the JVM went away
        }
    }
}
