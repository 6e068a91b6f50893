package dev.loomscope.workloads.channels;

/** A one-producer, one-consumer hand-off of longs. */
public interface LongChannel {
    void send(long value) throws InterruptedException;

    long receive() throws InterruptedException;
}
