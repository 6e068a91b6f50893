package dev.loomscope.agent;

import dev.loomscope.agent.options.AgentOptions;
import java.lang.instrument.Instrumentation;

/**
 * Entry points: {@code -javaagent:loomscope-agent.jar=options} ({@link #premain}) and dynamic
 * attach ({@link #agentmain}). Nothing here may take the host application down: every failure
 * becomes one line on stderr and the application runs on.
 */
public final class LoomscopeAgent {
    private static Session session;

    private LoomscopeAgent() {}

    public static void premain(String args, Instrumentation inst) {
        start(args);
    }

    public static void agentmain(String args, Instrumentation inst) {
        start(args);
    }

    static synchronized void start(String args) {
        try {
            AgentOptions o = AgentOptions.parse(System.getenv("LOOMSCOPE_AGENT_OPTS"), args);
            if (o.helpRequested()) {
                System.err.print(AgentOptions.helpText());
            }
            o.warnings().forEach(AgentLog::warn);
            if (session != null) {
                AgentLog.warn("already recording in this JVM; options ignored");
                return;
            }
            Session s = Session.start(o);
            session = s;
            Thread hook = new Thread(() -> finishQuietly(true), "loomscope-agent-shutdown");
            Runtime.getRuntime().addShutdownHook(hook);
            long durationMillis = o.duration("duration").toMillis();
            if (durationMillis > 0) {
                Thread timer = new Thread(() -> {
                    try {
                        Thread.sleep(durationMillis);
                        finishQuietly(false);
                    } catch (InterruptedException ignored) {
                        // the JVM is exiting: the shutdown hook finishes
                    }
                }, "loomscope-agent-duration");
                timer.setDaemon(true);
                timer.start();
            }
        } catch (Throwable t) {
            AgentLog.failure("not recording", t);
        }
    }

    private static void finishQuietly(boolean atExit) {
        try {
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
