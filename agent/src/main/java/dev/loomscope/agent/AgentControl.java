package dev.loomscope.agent;

import dev.loomscope.options.AgentOptions;
import java.lang.instrument.Instrumentation;
import java.lang.management.ManagementFactory;
import javax.management.MBeanServerFactory;
import javax.management.ObjectName;

/**
 * The agent over JMX, as {@code dev.loomscope:type=Agent} ({@code AgentOptions.CONTROL_BEAN}): what {@code watch} and
 * {@code attach PID threads} ask it (who owns the locks threads are parked on) without loading anything into the JVM,
 * which JDK 21+ warns of at every agent loaded at run time. The bean does not make the JVM's MBean server: a recording
 * of the agent's has made it by then (it sets JFR's repository through the DiagnosticCommand bean); where there is none
 * yet (the agent loaded only to be asked), a daemon thread looks once a second whether a JMX connection has made one,
 * registers the bean and ends.
 */
public final class AgentControl implements AgentControlMBean {
    private static final long POLL_MILLIS = 1000;
    private static boolean registering;

    private final Instrumentation inst;

    private AgentControl(Instrumentation inst) {
        this.inst = inst;
    }

    @Override
    public String lockOwners() throws Exception {
        return LockOwners.lines(inst);
    }

    /**
     * Registers the bean once the JVM has an MBean server: now if it has, else from a daemon thread that looks once a
     * second. Never fails: without it the tools load the agent to ask.
     */
    static synchronized void register(Instrumentation inst) {
        if (registering || inst == null) {
            return;
        }
        registering = true;
        try {
            if (registered(inst)) {
                return;
            }
            Thread.ofPlatform().name("loomscope-agent-jmx").daemon().start(() -> {
                try {
                    while (!registered(inst)) {
                        Thread.sleep(POLL_MILLIS);
                    }
                } catch (InterruptedException exiting) {
                    // the JVM is exiting
                }
            });
        } catch (Throwable t) {
            // no thread to spare: the tools load the agent to ask
        }
    }

    /** Whether the bean is registered (now, or before); false while the JVM has no MBean server. */
    private static boolean registered(Instrumentation inst) {
        try {
            if (MBeanServerFactory.findMBeanServer(null).isEmpty()) {
                return false;
            }
            var server = ManagementFactory.getPlatformMBeanServer();
            ObjectName name = new ObjectName(AgentOptions.CONTROL_BEAN);
            if (!server.isRegistered(name)) {
                server.registerMBean(new AgentControl(inst), name);
            }
            return true;
        } catch (Throwable t) {
            // registered meanwhile by another, or a JVM whose JMX refuses the bean (or has none: a runtime without
            // java.management): the
            // tools load the agent instead; nothing to look for again
            return true;
        }
    }
}
