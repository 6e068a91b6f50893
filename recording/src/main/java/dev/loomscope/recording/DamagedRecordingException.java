package dev.loomscope.recording;

/**
 * The bytes of a chunk do not follow JFR's format: which chunk (1-based, and where it starts) and the byte offset in
 * the file where reading stopped. Thrown while reading, and later while a reducer resolves a constant-pool value of an
 * event.
 */
public final class DamagedRecordingException extends RuntimeException {
    public final long offset;

    public DamagedRecordingException(int chunk, long chunkStart, long offset, String what, Throwable cause) {
        super(
                "damaged at byte " + offset + " (chunk " + chunk + ", which starts at byte " + chunkStart + "): "
                        + what,
                cause);
        this.offset = offset;
    }
}
