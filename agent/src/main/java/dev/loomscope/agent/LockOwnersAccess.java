package dev.loomscope.agent;

import java.lang.reflect.Method;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.locks.AbstractOwnableSynchronizer;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

/**
 * Defined by {@link LockOwners} in a class loader of its own ({@link IsolatedLoader}), the only code
 * {@code jdk.internal.vm} is exported and {@code java.util.concurrent.locks} opened to: walks the JDK's thread
 * containers (every thread a thread dump lists, virtual ones included) and names, for each thread parked on a lock one
 * thread owns (a {@code ReentrantLock}, a {@code ReentrantReadWriteLock}'s write lock, any
 * {@link AbstractOwnableSynchronizer}), the lock as a thread dump writes it and its owner. Not used from the agent's
 * own loader.
 */
public final class LockOwnersAccess {
    private LockOwnersAccess() {}

    /**
     * One line a parked thread: {@code TID LOCK OWNER-TID}, the lock as {@code class@identity-hash}, as the JDK's dumps
     * write it.
     */
    public static String lines() throws ReflectiveOperationException {
        Class<?> container = Class.forName("jdk.internal.vm.ThreadContainer");
        Method threads = container.getMethod("threads");
        Method children = container.getMethod("children");
        Method owner = AbstractOwnableSynchronizer.class.getDeclaredMethod("getExclusiveOwnerThread");
        owner.setAccessible(true);
        Deque<Object> todo = new ArrayDeque<>();
        todo.push(Class.forName("jdk.internal.vm.ThreadContainers")
                .getMethod("root")
                .invoke(null));
        Set<Long> seen = new HashSet<>();
        StringBuilder out = new StringBuilder();
        while (!todo.isEmpty()) {
            Object c = todo.pop();
            for (Object o : ((Stream<?>) threads.invoke(c)).toList()) {
                Thread t = (Thread) o;
                if (seen.add(t.threadId())
                        && LockSupport.getBlocker(t) instanceof AbstractOwnableSynchronizer lock
                        && owner.invoke(lock) instanceof Thread holder) {
                    out.append(t.threadId())
                            .append(' ')
                            .append(lock.getClass().getName())
                            .append('@')
                            .append(Integer.toHexString(System.identityHashCode(lock)))
                            .append(' ')
                            .append(holder.threadId())
                            .append('\n');
                }
            }
            ((Stream<?>) children.invoke(c)).forEach(todo::push);
        }
        return out.toString();
    }
}
