package dev.loomscope.analyzer.watch;

import dev.loomscope.analyzer.threads.ParkOwners;
import dev.loomscope.options.BadDataException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Thread dumps of a local JVM with the owners of the {@code java.util.concurrent} locks its threads are parked on,
 * which JDK 21-25 dumps do not record: the loomscope agent is asked before and just after each dump (the look after one
 * dump is the look before the next), and the owners both looks agree on are written into it
 * ({@link ParkOwners#writeInto}). The agent is asked over JMX where it runs in the JVM
 * ({@link RunningJvm#agentLockOwners}: nothing loaded); else, given its jar, loaded to be asked ({@link AgentCall},
 * {@code command=locks}: the JVM may warn of an agent loaded at run time, once a load; the agent then answers over
 * JMX). {@link #off} says why a look found no owners.
 */
public final class LockOwnerLooks {
    /** Writes one dump. */
    public interface Dump {
        void write(Path file) throws IOException;
    }

    private final RunningJvm jvm;
    private final Path jar;
    /**
     * Whether the agent is asked at all: not where the JVM's dumps record the owners themselves (JDK 26+), nor where
     * not wanted.
     */
    private final boolean asking;

    private String off;
    /** The look just after the last dump, the look before the next; null when it found none. */
    private ParkOwners last;

    /**
     * Looks for the local {@code jvm} when {@code ask} (else its dumps are written as they are); {@code jar} the
     * agent's, to load it where it does not run in the JVM, or null to ask only an agent that runs there.
     */
    public LockOwnerLooks(RunningJvm jvm, Path jar, boolean ask) {
        this.jvm = jvm;
        this.jar = jar;
        this.asking = ask && jvm.feature() < 26;
    }

    /** Why the last look found no owners, or null when it did (or none was asked for). */
    public String off() {
        return off;
    }

    /**
     * Writes a dump to {@code file} between two looks; returns how many owners were written into it (0 when none were
     * known).
     */
    public int dump(Path file, Dump dump) throws IOException {
        if (!asking) {
            dump.write(file);
            return 0;
        }
        ParkOwners before = last != null ? last : look();
        dump.write(file);
        last = before == null ? null : look();
        return last == null ? 0 : before.sameIn(last).writeInto(file);
    }

    private ParkOwners look() throws IOException {
        try {
            String said = jvm.agentLockOwners();
            if (said != null) {
                off = null;
                return ParkOwners.parse(said.lines().toList(), jvm.name());
            }
            if (jar == null) {
                off = "the loomscope agent does not run in it (-javaagent:loomscope-agent.jar; 'loomscope attach "
                        + jvm.pid() + " threads' loads it to ask)";
                return null;
            }
            AgentCall reply = AgentCall.run(jvm.pid(), jar, "locks", List.of());
            if (reply.ok()) {
                off = null;
                return ParkOwners.parse(reply.lines(), jvm.name());
            }
            off = "the agent could not look: " + String.join("; ", reply.lines());
        } catch (BadDataException e) {
            off = e.getMessage();
        }
        return null;
    }
}
