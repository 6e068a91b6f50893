package dev.loomscope.workloads.core;

/** A bad command line or a workload that cannot run as asked: one line, exit 2. */
public class BadArgumentException extends RuntimeException {
    public BadArgumentException(String message) {
        super(message);
    }
}
