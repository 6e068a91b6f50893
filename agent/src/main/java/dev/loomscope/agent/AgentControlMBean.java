package dev.loomscope.agent;

/** What the agent answers over JMX ({@link AgentControl}). */
public interface AgentControlMBean {
    /**
     * One line a thread parked on a lock another thread owns: {@code TID LOCK OWNER-TID}
     * ({@link LockOwnersAccess#lines}).
     */
    String lockOwners() throws Exception;
}
