package dev.loomscope.recording;

/**
 * A frame as the JVM wrote it: the class's internal name ({@code java/lang/Thread}, hidden classes as written), method,
 * line (0 and below: unknown), frame type (-1: unknown; 3 native, 5 kernel in async-profiler's chunks). A stack's
 * frames are one list per distinct stack of a chunk, so a sample feature may key its caches on the list's identity.
 */
public record RawFrame(String internalClassName, String methodName, int line, int type) {}
