package dev.loomscope.recording.parse;

/** The event's duration, in nanoseconds. */
record Nanos(long value) {}
