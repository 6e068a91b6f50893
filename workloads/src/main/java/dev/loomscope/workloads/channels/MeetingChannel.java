package dev.loomscope.workloads.channels;

import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * A rendezvous where whoever arrives first waits for the other: it leaves a cell of its own in a shared slot and waits
 * until the partner has filled it (a receiver) or emptied it (a sender); the partner takes the cell, clears the slot,
 * moves the value and unparks the waiter. Neither side can run ahead of the other, unlike {@link ParkChannel}'s
 * one-slot buffer. Each message allocates its cell, the slot's entry and a boxed value, as the design "Limits of Loom's
 * performance" measured did. The waiter spins {@code spins} times, yields {@code yields} times, then parks. For one
 * sender and one receiver.
 */
public final class MeetingChannel implements LongChannel {
    /** What a receiver's cell holds until a sender fills it, and a sender's once a receiver took it. */
    private static final long NONE = Long.MIN_VALUE;

    private record Waiter(Thread thread, AtomicReference<Long> cell) {}

    private final AtomicReference<Waiter> slot = new AtomicReference<>();
    private final int spins;
    private final int yields;

    public MeetingChannel(int spins, int yields) {
        this.spins = spins;
        this.yields = yields;
    }

    @Override
    public void send(long value) throws InterruptedException {
        if (value == NONE) {
            throw new IllegalArgumentException("a meeting channel cannot send " + NONE);
        }
        meet(value);
    }

    @Override
    public long receive() throws InterruptedException {
        return meet(NONE);
    }

    /** Sends {@code value}, or receives when it is {@link #NONE}; returns what was received. */
    private long meet(long value) throws InterruptedException {
        boolean sending = value != NONE;
        AtomicReference<Long> mine = new AtomicReference<>(value);
        if (slot.compareAndSet(null, new Waiter(Thread.currentThread(), mine))) {
            int tries = 0;
            while ((mine.get() != NONE) == sending) {
                if (tries < spins) {
                    Thread.onSpinWait();
                } else if (tries < spins + yields) {
                    Thread.yield();
                } else {
                    LockSupport.park(this);
                    if (Thread.interrupted()) {
                        throw new InterruptedException();
                    }
                }
                tries++;
            }
            return mine.get();
        }
        // The partner is waiting (only it can have filled the slot): take its cell and free the slot for the next
        // message.
        Waiter other = slot.getAndSet(null);
        long received = other.cell().get();
        other.cell().set(value);
        LockSupport.unpark(other.thread());
        return received;
    }
}
