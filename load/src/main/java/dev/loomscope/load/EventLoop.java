package dev.loomscope.load;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The open loop's plain-HTTP connections on one thread, as wrk's event loop: non-blocking sockets on a selector, each
 * request written when it is due by the thread that also reads the responses, so that a request costs its writes and
 * reads rather than two thread wake-ups. A due request takes the connection free the longest, so that every connection
 * asked for is opened and used in turn (as a thread a connection did: a server sees as many as it was told); one whose
 * request failed rests as {@link OpenLoop#restNanos()} says. A request unanswered {@code timeout} after its send is a
 * timeout, and its connection is closed.
 *
 * <p>The selector waits in milliseconds: a wait under one is a park, and a response that comes in it is read when the
 * park ends, at most that wait (under a millisecond, and under the period between requests) late.
 */
final class EventLoop implements Runnable {
    private final OpenLoop load;
    private final Requests requests;
    /** Each target's request, direct: a write from a heap buffer copies it into a direct one of the JDK's first. */
    private final ByteBuffer[] bytes;

    private final long timeoutNanos;
    private final Selector selector;
    private final InetSocketAddress address;
    private final Connection[] connections;
    /** Free connections, the longest free first. */
    private final ArrayDeque<Connection> idle = new ArrayDeque<>();
    /** Connections whose request failed, in the order their rest ends. */
    private final ArrayDeque<Connection> resting = new ArrayDeque<>();
    /**
     * What a read brings (direct: the channel reads into it, no copy of the JDK's between) and the same bytes on the
     * heap, which the parser reads.
     */
    private final ByteBuffer in = ByteBuffer.allocateDirect(64 * 1024);

    private final ByteBuffer inHeap = ByteBuffer.allocate(in.capacity());
    private int busy;
    private long nextExpiry = Long.MAX_VALUE;
    private boolean sentAtStop;

    private static final class Connection {
        final int slot;
        final ResponseParser parser = new ResponseParser();
        SocketChannel channel;
        SelectionKey key;
        ByteBuffer out;
        Target target;
        boolean holding;
        boolean reused;
        boolean retried;
        long due;
        long sent;
        long free;
        long restUntil;

        Connection(int slot, long free) {
            this.slot = slot;
            this.free = free;
        }
    }

    EventLoop(OpenLoop load, Requests requests, byte[][] bytes, int connections, int timeoutMillis) {
        this.load = load;
        this.requests = requests;
        this.bytes = new ByteBuffer[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            this.bytes[i] = ByteBuffer.allocateDirect(bytes[i].length)
                    .put(bytes[i])
                    .flip()
                    .asReadOnlyBuffer();
        }
        this.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        this.address =
                new InetSocketAddress(requests.first().host(), requests.first().port());
        this.connections = new Connection[connections];
        long now = System.nanoTime();
        for (int i = 0; i < connections; i++) {
            this.connections[i] = new Connection(i, now);
            idle.addLast(this.connections[i]);
        }
        try {
            this.selector = Selector.open();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Ends a wait now: the load stopped. */
    void wakeup() {
        selector.wakeup();
    }

    @Override
    public void run() {
        try {
            loop();
        } catch (IOException | RuntimeException e) {
            // the selector itself failed: the requests held fail with it; those due later stay late, and the windows
            // say so
            for (Connection c : connections) {
                fail(c, e);
            }
        } finally {
            for (Connection c : connections) {
                closeChannel(c);
            }
            try {
                selector.close();
            } catch (IOException ignored) {
                // closing
            }
        }
    }

    private void loop() throws IOException {
        while (true) {
            long now = System.nanoTime();
            while (!resting.isEmpty() && resting.peekFirst().restUntil <= now) {
                Connection c = resting.pollFirst();
                c.free = c.restUntil;
                idle.addLast(c);
            }
            boolean stopped = load.stopped();
            if (!stopped || !sentAtStop) {
                // once more at the stop: those due before it that a free connection can take (no connection freed later
                // takes one)
                sendDue(now);
                sentAtStop = stopped;
            }
            if (stopped && busy == 0) {
                return; // every request sent has ended
            }
            if (busy > 0 && now >= nextExpiry) {
                expire(now);
            }
            long wait = waitNanos(now);
            if (wait <= 0) {
                selector.selectNow(this::ready);
            } else if (wait >= 1_000_000) {
                selector.select(this::ready, wait / 1_000_000);
            } else if (selector.selectNow(this::ready) == 0) {
                LockSupport.parkNanos(wait);
            }
        }
    }

    /** Sends every request due by {@code now} that a free connection can take. */
    private void sendDue(long now) {
        while (!idle.isEmpty()) {
            Connection c = idle.peekFirst();
            long index = load.take(c.slot, now);
            if (index < 0) {
                return;
            }
            idle.pollFirst();
            long due = load.dueAt(index);
            int which = load.target(index);
            c.holding = true;
            c.retried = false;
            c.due = due;
            c.target = requests.targets().get(which);
            c.out = bytes[which].duplicate();
            c.parser.start(c.target);
            c.sent = load.sent(due, c.free);
            busy++;
            nextExpiry = Math.min(nextExpiry, c.sent + timeoutNanos);
            try {
                if (c.channel == null) {
                    connect(c);
                } else {
                    c.reused = true;
                    write(c);
                }
            } catch (IOException | RuntimeException e) {
                fail(c, e);
            }
        }
    }

    /**
     * How long the loop may wait: until the next request is due (with a connection free for it), a rest ends or a
     * request times out.
     */
    private long waitNanos(long now) {
        long wait = busy > 0 ? nextExpiry - now : Long.MAX_VALUE;
        if (!load.stopped()) {
            if (!idle.isEmpty()) {
                wait = Math.min(wait, load.dueAt(load.taken()) - now);
            } else if (!resting.isEmpty()) {
                wait = Math.min(wait, resting.peekFirst().restUntil - now);
            }
        }
        return Math.min(wait, 100_000_000L);
    }

    private void connect(Connection c) throws IOException {
        c.reused = false;
        SocketChannel channel = SocketChannel.open();
        c.channel = channel;
        channel.configureBlocking(false);
        channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
        if (channel.connect(address)) {
            c.key = channel.register(selector, 0, c);
            write(c);
        } else {
            c.key = channel.register(selector, SelectionKey.OP_CONNECT, c);
        }
    }

    private void write(Connection c) throws IOException {
        c.channel.write(c.out);
        c.key.interestOps(c.out.hasRemaining() ? SelectionKey.OP_WRITE : SelectionKey.OP_READ);
    }

    private void ready(SelectionKey key) {
        Connection c = (Connection) key.attachment();
        if (!key.isValid() || c.key != key) {
            return;
        }
        try {
            if (key.isConnectable()) {
                c.channel.finishConnect();
                write(c);
            } else if (key.isWritable()) {
                write(c);
            } else if (key.isReadable()) {
                read(c);
            }
        } catch (IOException | RuntimeException e) {
            fail(c, e);
        }
    }

    private void read(Connection c) throws IOException {
        in.clear();
        int n = c.channel.read(in);
        if (n == 0) {
            return;
        }
        if (!c.holding) {
            closeChannel(c); // the server closed a connection kept alive while it was free
            return;
        }
        if (n < 0) {
            if (c.parser.nothingYet() && c.reused && !c.retried && c.target.idempotent()) {
                // the server closed the kept-alive connection as the request left: once on a new one, as HTTP clients
                // do for a GET
                closeChannel(c);
                c.retried = true;
                c.out.rewind();
                connect(c);
                return;
            }
            c.parser.closed(); // a response cut short throws
            closeChannel(c);
            ended(c);
            return;
        }
        inHeap.clear();
        inHeap.put(in.flip()).flip();
        if (c.parser.feed(inHeap)) {
            if (!c.parser.keepAlive() || inHeap.hasRemaining()) {
                closeChannel(c);
            }
            ended(c);
        }
    }

    private void ended(Connection c) {
        c.holding = false;
        busy--;
        c.free = load.answered(c.slot, c.due, c.sent, c.parser.code());
        idle.addLast(c);
    }

    /** The request {@code c} holds failed with {@code e} (when it holds one), and its connection is closed. */
    private void fail(Connection c, Throwable e) {
        closeChannel(c);
        if (c.holding) {
            c.holding = false;
            busy--;
            load.failed(c.slot, e);
            c.restUntil = System.nanoTime() + load.restNanos();
            resting.addLast(c);
        }
    }

    private void expire(long now) {
        nextExpiry = Long.MAX_VALUE;
        for (Connection c : connections) {
            if (c.holding && now - c.sent >= timeoutNanos) {
                fail(
                        c,
                        new SocketTimeoutException(
                                "no answer within " + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms"));
            } else if (c.holding) {
                nextExpiry = Math.min(nextExpiry, c.sent + timeoutNanos);
            }
        }
    }

    private static void closeChannel(Connection c) {
        if (c.channel != null) {
            try {
                c.channel.close();
            } catch (IOException ignored) {
                // closing a broken connection
            }
            c.channel = null;
            c.key = null;
        }
    }
}
