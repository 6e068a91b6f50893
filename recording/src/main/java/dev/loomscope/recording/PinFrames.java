package dev.loomscope.recording;

import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Which frames of a pinned virtual thread's stack (innermost first) explain the pin: the agent's
 * trace prints them and {@code pinning} groups by them, so both name the same place.
 */
public final class PinFrames {
    /** Frames shown from the JDK call the first application frame made. */
    public static final int SHORT_FRAMES = 8;

    private PinFrames() {}

    /**
     * The frame that pinned, innermost first: a class initializer (the class being initialised), an
     * application's native method, or the application frame that called into native code (below a
     * downcall stub: an upcall pinned); else the innermost application frame (on JDK 21 the
     * blocking call made inside the synchronized code: JFR does not record which frame holds the
     * monitor, that one or a caller of it); else the top frame. -1 for no frames.
     */
    public static int culprit(List<Frame> frames) {
        for (int i = 0; i < frames.size(); i++) {
            Frame f = frames.get(i);
            if (f.methodName().equals("<clinit>") || f.type() == 3 && !f.isJdk()) {
                return i;
            }
            if (f.className().startsWith("jdk.internal.foreign.abi.DowncallStub")) {
                int caller = firstApplication(frames, i + 1);
                if (caller >= 0) {
                    return caller;
                }
            }
        }
        int app = firstApplication(frames, 0);
        return app >= 0 ? app : frames.isEmpty() ? -1 : 0;
    }

    /** The culprit frame's {@code class.method}, or "(no stack trace)". */
    public static String culpritMethod(List<Frame> frames) {
        int c = frames == null ? -1 : culprit(frames);
        return c < 0 ? "(no stack trace)" : frames.get(c).method();
    }

    /** Whether frame {@code i} is an application frame that called into native code (below a downcall stub). */
    public static boolean wentNative(List<Frame> frames, int i) {
        return i > 0 && !frames.get(i).isJdk() && firstApplication(frames, downcallAbove(frames, i)) == i;
    }

    private static int downcallAbove(List<Frame> frames, int i) {
        for (int j = i - 1; j >= 0; j--) {
            if (frames.get(j).className().startsWith("jdk.internal.foreign.abi.DowncallStub")) {
                return j + 1;
            }
            if (!frames.get(j).isJdk()) {
                return frames.size(); // an application frame between: not this one's downcall
            }
        }
        return frames.size();
    }

    /**
     * Where a short trace starts: one frame above the innermost application frame (the JDK call it
     * blocked in, as context), or the top when every frame is the JDK's.
     */
    public static int shortStart(List<Frame> frames) {
        int app = firstApplication(frames, 0);
        return app < 0 ? 0 : Math.max(0, app - 1);
    }

    /**
     * The frames a short trace shows: {@link #SHORT_FRAMES} from {@link #shortStart}, and below
     * them every frame that explains a pin (a class initializer, an application native method, a
     * call into native code) with the frames beside it, down to the culprit.
     */
    public static SortedSet<Integer> shortTrace(List<Frame> frames) {
        SortedSet<Integer> shown = new TreeSet<>();
        int first = shortStart(frames);
        for (int i = first; i < Math.min(first + SHORT_FRAMES, frames.size()); i++) {
            shown.add(i);
        }
        for (int i = 0; i < frames.size(); i++) {
            Frame f = frames.get(i);
            if (f.className().startsWith("jdk.internal.foreign.abi.DowncallStub")) {
                int caller = firstApplication(frames, i + 1);
                if (caller >= 0) {
                    shown.add(caller);
                }
            } else if (f.methodName().equals("<clinit>") || f.type() == 3 && !f.isJdk()) {
                for (int j = Math.max(first, i - 1); j <= Math.min(frames.size() - 1, i + 1); j++) {
                    shown.add(j);
                }
            }
        }
        return shown;
    }

    private static int firstApplication(List<Frame> frames, int from) {
        for (int i = from; i < frames.size(); i++) {
            if (!frames.get(i).isJdk()) {
                return i;
            }
        }
        return -1;
    }
}
