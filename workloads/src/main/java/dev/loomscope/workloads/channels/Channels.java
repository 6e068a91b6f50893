package dev.loomscope.workloads.channels;

import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Exchanger;
import java.util.concurrent.LinkedTransferQueue;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/** Every channel the experiments use, by the name the experiment gives it. */
public final class Channels {
    /** The rendezvous variants. */
    public static final List<String> VARIANTS = List.of(
            "park",
            "park-yield",
            "yield4-park",
            "spin1000-park",
            "spin10000-park",
            "meet-park",
            "meet-yield4-park",
            "meet-spin1000-park",
            "meet-spin10000-park",
            "spin-yield-park",
            "synchronous-queue",
            "exchanger",
            "varhandle");

    /** The Game of Life channel types (one value in flight per link and generation). */
    public static final List<String> GAME_OF_LIFE_TYPES =
            List.of("BlockingQueue", "BlockingTransfer", "LockedSingleValue", "OneToOneParking");

    private Channels() {}

    public static LongChannel create(String variant) {
        return switch (variant) {
            case "park" -> new ParkChannel(0, 0, false);
            case "park-yield" -> new ParkChannel(0, 1, false);
            // "Limits of Loom's performance": Thread.yield up to 4 times before parking; a busy loop of 1,000 or 10,000
            // turns first
            case "yield4-park" -> new ParkChannel(0, 4, false);
            case "spin1000-park" -> new ParkChannel(1_000, 0, false);
            case "spin10000-park" -> new ParkChannel(10_000, 0, false);
            case "meet-park" -> new MeetingChannel(0, 0);
            case "meet-yield4-park" -> new MeetingChannel(0, 4);
            case "meet-spin1000-park" -> new MeetingChannel(1_000, 0);
            case "meet-spin10000-park" -> new MeetingChannel(10_000, 0);
            case "spin-yield-park" -> new ParkChannel(100, 10, false);
            case "varhandle" -> new ParkChannel(100, 10, true);
            case "synchronous-queue" -> queue(new SynchronousQueue<>());
            case "exchanger" ->
                new LongChannel() {
                    final Exchanger<Long> x = new Exchanger<>();

                    @Override
                    public void send(long value) throws InterruptedException {
                        x.exchange(value);
                    }

                    @Override
                    public long receive() throws InterruptedException {
                        return x.exchange(null);
                    }
                };
            case "BlockingQueue" -> queue(new ArrayBlockingQueue<>(1));
            case "BlockingTransfer" -> queue(new LinkedTransferQueue<>());
            case "LockedSingleValue" -> new LockedSingleValue();
            case "OneToOneParking" -> new ParkChannel(0, 0, true);
            default -> throw new IllegalArgumentException(variant);
        };
    }

    private static LongChannel queue(BlockingQueue<Long> q) {
        return new LongChannel() {
            @Override
            public void send(long value) throws InterruptedException {
                q.put(value);
            }

            @Override
            public long receive() throws InterruptedException {
                return q.take();
            }
        };
    }

    /** One slot under a lock with two conditions. */
    static final class LockedSingleValue implements LongChannel {
        private final ReentrantLock lock = new ReentrantLock();
        private final Condition notEmpty = lock.newCondition();
        private final Condition notFull = lock.newCondition();
        private boolean full;
        private long value;

        @Override
        public void send(long v) throws InterruptedException {
            lock.lockInterruptibly();
            try {
                while (full) {
                    notFull.await();
                }
                value = v;
                full = true;
                notEmpty.signal();
            } finally {
                lock.unlock();
            }
        }

        @Override
        public long receive() throws InterruptedException {
            lock.lockInterruptibly();
            try {
                while (!full) {
                    notEmpty.await();
                }
                full = false;
                notFull.signal();
                return value;
            } finally {
                lock.unlock();
            }
        }
    }
}
