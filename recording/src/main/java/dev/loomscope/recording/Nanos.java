package dev.loomscope.recording;

/** The event's duration, in nanoseconds. */
record Nanos(long value) {}
