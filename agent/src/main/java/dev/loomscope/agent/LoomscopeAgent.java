package dev.loomscope.agent;

import dev.loomscope.agent.log.AgentLog;
import dev.loomscope.agent.work.WorkTiming;
import dev.loomscope.options.AgentOptions;
import java.lang.instrument.Instrumentation;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

/**
 * Entry points: {@code -javaagent:loomscope-agent.jar=options} ({@link #premain}) and dynamic attach
 * ({@link #agentmain}, what {@code loomscope attach PID start|stop|dump|status} loads). Nothing here may take the host
 * application down: every failure becomes one line on stderr and the application runs on.
 *
 * <p>Attach protocol: the agent argument begins with {@code command=<start|stop|dump|status|locks>} and
 * {@code reply=<file>}; the agent writes its answer to that file (created by the attaching side, owner-only): a first
 * line {@code ok} or {@code error}, then what it has to say ({@code locks}: one line a thread parked on a lock another
 * thread owns, {@link LockOwnersAccess#lines}).
 */
public final class LoomscopeAgent {
    static final String COMMAND = "command=";
    static final String REPLY = "reply=";

    private static Session session;
    private static Instant started;
    private static boolean hookAdded;
    private static Instrumentation instrumentation; // the JVM's, for work= on JDK 21-24

    private LoomscopeAgent() {}

    /** How long the shutdown hook waits for a recording still starting when the application exits. */
    static final long START_WAIT_MILLIS = 20_000;

    /**
     * startup=background: the thread starting the recording. Read without the class's lock, which that thread holds
     * while it starts.
     */
    private static volatile Thread starting;

    public static void premain(String args, Instrumentation inst) {
        instrumentation = inst;
        AgentOptions o = options(args);
        if (o == null) {
            return;
        }
        if (o.string(AgentOptions.STARTUP).equals("before-main")) {
            Session.mainWaited = true;
            start(o);
            return;
        }
        // JFR takes 0.3-0.5 s to start: the application starts meanwhile. The thread is not a daemon,
        // so that an application whose main ends sooner still gets its recording.
        setState(AgentOptions.STARTING);
        Thread t = new Thread(() -> start(o), "loomscope-agent-start");
        starting = t;
        addShutdownHook();
        t.start();
    }

    public static void agentmain(String args, Instrumentation inst) {
        instrumentation = inst;
        String command = "start";
        Path reply = null;
        String options = args == null ? "" : args.strip();
        // the attach side puts command= and reply= first
        while (options.startsWith(COMMAND) || options.startsWith(REPLY)) {
            int comma = options.indexOf(',');
            String token = comma < 0 ? options : options.substring(0, comma);
            options = comma < 0 ? "" : options.substring(comma + 1).strip();
            if (token.startsWith(COMMAND)) {
                command = token.substring(COMMAND.length());
            } else {
                reply = Path.of(token.substring(REPLY.length()));
            }
        }
        if (reply == null) {
            start(options); // a plain dynamic attach (jcmd JVMTI.agent_load, VirtualMachine.loadAgent)
            return;
        }
        AgentLog.startCapture();
        boolean ok;
        String answer;
        try {
            Reply r = control(command, options);
            ok = r.ok();
            answer = r.text();
        } catch (Throwable t) {
            ok = false;
            answer = "failed: " + t;
        }
        String said = AgentLog.endCapture();
        try {
            Files.writeString(
                    reply,
                    (ok ? "ok\n" : "error\n") + said + (answer.isEmpty() ? "" : answer + "\n"),
                    StandardCharsets.UTF_8);
        } catch (Throwable t) {
            AgentLog.failure("cannot write the reply to " + reply, t);
        }
    }

    /** What an attach command answers. */
    record Reply(boolean ok, String text) {}

    static Reply control(String command, String options) throws Exception {
        switch (command) {
            case "start" -> {
                if (running() != null) {
                    return new Reply(false, "already recording (" + describe() + "); stop it first");
                }
                if (!start(options)) {
                    return new Reply(false, "not recording");
                }
                return new Reply(true, "recording (" + describe() + ")");
            }
            case "stop" -> {
                Session s = running();
                if (s == null) {
                    return new Reply(false, "not recording");
                }
                Session.Written w = s.finishAndReport(false);
                synchronized (LoomscopeAgent.class) {
                    session = null;
                }
                return w.jfr() == null
                        ? new Reply(false, "stopped, but nothing was written")
                        : new Reply(true, "stopped: " + w);
            }
            case "dump" -> {
                Session s = running();
                if (s == null) {
                    return new Reply(false, "not recording");
                }
                Session.Written w = s.snapshot();
                return new Reply(true, "snapshot: " + w + "; still recording");
            }
            case "locks" -> {
                registerControl(); // the next looks over JMX, where the JVM has an MBean server
                return new Reply(true, LockOwners.lines(instrumentation).stripTrailing());
            }
            case "status" -> {
                return running() == null
                        ? new Reply(true, "not recording")
                        : new Reply(true, "recording (" + describe() + ")");
            }
            default -> {
                return new Reply(false, "unknown command '" + command + "' (start, stop, dump, status or locks)");
            }
        }
    }

    private static synchronized Session running() {
        return session == null || session.isFinished() ? null : session;
    }

    private static synchronized String describe() {
        Duration age = Duration.between(started, Instant.now());
        return "for " + age.toSeconds() + " s into " + session.directory() + ", label " + session.label()
                + ", profiling " + session.mode()
                + (session.options().given().isEmpty()
                        ? ""
                        : ", options " + session.options().given());
    }

    /** The options, their warnings said; null when there is nothing to start (help, or options that cannot be read). */
    private static AgentOptions options(String args) {
        try {
            AgentOptions o = AgentOptions.parse(System.getenv("LOOMSCOPE_AGENT_OPTS"), args);
            o.warnings().forEach(AgentLog::warn);
            if (o.helpRequested()) {
                AgentLog.print(AgentOptions.helpText());
                return null; // help only: nothing starts, the application runs on
            }
            return o;
        } catch (Throwable t) {
            AgentLog.failure("not recording", t);
            return null;
        }
    }

    /** Starts a session unless one runs; returns whether one runs now. */
    static boolean start(String args) {
        AgentOptions o = options(args);
        return o == null ? running() != null : start(o);
    }

    /** The agent's JMX bean ({@link AgentControl}), where this runtime has JMX at all. */
    private static void registerControl() {
        try {
            AgentControl.register(instrumentation);
        } catch (Throwable noJmx) {
            // a runtime without java.management: the tools load the agent to ask
        }
    }

    private static void setState(String state) {
        try {
            System.setProperty(AgentOptions.STATE_PROPERTY, state);
        } catch (RuntimeException ignored) {
            // the application's properties refuse it: it only cannot wait for the recording
        }
    }

    private static synchronized void addShutdownHook() {
        if (!hookAdded) {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> finishQuietly(true), "loomscope-agent-shutdown"));
            hookAdded = true;
        }
    }

    private static synchronized boolean start(AgentOptions o) {
        try {
            if (session != null && !session.isFinished()) {
                AgentLog.warn("already recording in this JVM; options ignored");
                return true;
            }
            NativeAccess.enable(instrumentation);
            StallWatch.open(instrumentation);
            registerControl();
            Session s = Session.start(o);
            session = s;
            WorkTiming.install(o.work(), instrumentation);
            Libraries.install(instrumentation);
            started = Instant.now();
            addShutdownHook();
            long durationMillis = o.duration(AgentOptions.DURATION).toMillis();
            if (durationMillis > 0) {
                Thread.ofPlatform().name("loomscope-agent-duration").daemon().start(() -> {
                    try {
                        Thread.sleep(durationMillis);
                        s.finish(false);
                    } catch (InterruptedException ignored) {
                        // the JVM is exiting: the shutdown hook finishes
                    } catch (Throwable t) {
                        AgentLog.failure("could not finish the recording", t);
                    }
                });
            }
            setState(AgentOptions.RECORDING);
            return true;
        } catch (Throwable t) {
            AgentLog.failure("not recording", t);
            setState(AgentOptions.OFF);
            return false;
        }
    }

    private static void finishQuietly(boolean atExit) {
        try {
            Thread t = starting;
            if (t != null && t != Thread.currentThread()) {
                t.join(START_WAIT_MILLIS); // the application exited while the recording was starting
                if (t.isAlive()) {
                    AgentLog.warn("the application exited while the recording was still starting ("
                            + START_WAIT_MILLIS / 1000 + " s): nothing written");
                    return;
                }
            }
            Session s;
            synchronized (LoomscopeAgent.class) {
                s = session;
            }
            if (s != null) {
                s.finish(atExit);
            }
        } catch (Throwable t) {
            AgentLog.failure("could not finish the recording", t);
        }
    }
}
