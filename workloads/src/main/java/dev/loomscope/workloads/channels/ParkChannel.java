package dev.loomscope.workloads.channels;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * A one-slot hand-off that waits by spinning {@code spins} times, yielding {@code yields} times, then parking. The slot
 * holds a boxed {@code Long} (as a generic channel would), except in {@link #primitive} mode, which is allocation-free:
 * a {@code long} and a full/empty flag.
 */
public final class ParkChannel implements LongChannel {
    private static final VarHandle ITEM;
    private static final VarHandle FULL;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            ITEM = l.findVarHandle(ParkChannel.class, "item", Object.class);
            FULL = l.findVarHandle(ParkChannel.class, "full", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final int spins;
    private final int yields;
    private final boolean primitive;

    @SuppressWarnings("unused") // through ITEM
    private volatile Object item;

    @SuppressWarnings("unused") // through FULL
    private volatile int full;

    private long value;
    private volatile Thread producer;
    private volatile Thread consumer;

    public ParkChannel(int spins, int yields, boolean primitive) {
        this.spins = spins;
        this.yields = yields;
        this.primitive = primitive;
    }

    @Override
    public void send(long v) throws InterruptedException {
        if (primitive) {
            int tries = 0;
            while ((int) FULL.getAcquire(this) != 0) {
                tries = backOff(tries, true);
            }
            value = v;
            FULL.setRelease(this, 1);
        } else {
            Long boxed = v;
            int tries = 0;
            while (ITEM.getAcquire(this) != null) {
                tries = backOff(tries, true);
            }
            ITEM.setRelease(this, boxed);
        }
        VarHandle.fullFence();
        LockSupport.unpark(consumer);
    }

    @Override
    public long receive() throws InterruptedException {
        long v;
        int tries = 0;
        if (primitive) {
            while ((int) FULL.getAcquire(this) == 0) {
                tries = backOff(tries, false);
            }
            v = value;
            FULL.setRelease(this, 0);
        } else {
            Object o;
            while ((o = ITEM.getAcquire(this)) == null) {
                tries = backOff(tries, false);
            }
            v = (Long) o;
            ITEM.setRelease(this, null);
        }
        VarHandle.fullFence();
        LockSupport.unpark(producer);
        return v;
    }

    /** One step of waiting: spin, then yield, then park (registered so the other side unparks us). */
    private int backOff(int tries, boolean sending) throws InterruptedException {
        if (tries < spins) {
            Thread.onSpinWait();
        } else if (tries < spins + yields) {
            Thread.yield();
        } else {
            if (sending) {
                producer = Thread.currentThread();
            } else {
                consumer = Thread.currentThread();
            }
            VarHandle.fullFence();
            if (stillWaiting(sending)) {
                LockSupport.park(this);
            }
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
        }
        return tries + 1;
    }

    private boolean stillWaiting(boolean sending) {
        boolean isFull = primitive ? (int) FULL.getAcquire(this) != 0 : ITEM.getAcquire(this) != null;
        return sending == isFull;
    }
}
