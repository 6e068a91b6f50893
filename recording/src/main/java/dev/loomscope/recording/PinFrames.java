package dev.loomscope.recording;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Which frames of a pinned virtual thread's stack (innermost first) explain the pin: the agent's trace prints them and
 * {@code pinning} groups by them, so both name the same place.
 */
public final class PinFrames {
    /** Frames shown from the JDK call the first application frame made. */
    public static final int SHORT_FRAMES = 8;

    private static final int NATIVE = Frame.type("Native");

    private PinFrames() {}

    /**
     * The frame that pinned, innermost first: a class initializer (the class being initialised), an application's
     * native method, or the application frame that called into native code (below a downcall stub: an upcall pinned);
     * else the innermost application frame (on JDK 21 the blocking call made inside the synchronized code: JFR does not
     * record which frame holds the monitor, that one or a caller of it); else the top frame. -1 for no frames.
     */
    public static int culprit(List<Frame> frames) {
        for (int i = 0; i < frames.size(); i++) {
            Frame f = frames.get(i);
            if (pinsHere(f)) {
                return i;
            }
            if (isDowncall(f)) {
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
            if (isDowncall(frames.get(j))) {
                return j + 1;
            }
            if (!frames.get(j).isJdk()) {
                return frames.size(); // an application frame between: not this one's downcall
            }
        }
        return frames.size();
    }

    /**
     * Where a short trace starts: one frame above the innermost application frame (the JDK call it blocked in, as
     * context), or the top when every frame is the JDK's.
     */
    public static int shortStart(List<Frame> frames) {
        int app = firstApplication(frames, 0);
        return app < 0 ? 0 : Math.max(0, app - 1);
    }

    /** {@link #shortTrace(List, int)} of {@link #SHORT_FRAMES}. */
    public static SortedSet<Integer> shortTrace(List<Frame> frames) {
        return shortTrace(frames, SHORT_FRAMES);
    }

    /**
     * The frames a short trace shows: {@code depth} from {@link #shortStart}, and below them every frame that explains
     * a pin (a class initializer, an application native method, a call into native code) with the frames beside it,
     * down to the culprit.
     */
    public static SortedSet<Integer> shortTrace(List<Frame> frames, int depth) {
        SortedSet<Integer> shown = new TreeSet<>();
        int first = shortStart(frames);
        for (int i = first; i < Math.min(first + depth, frames.size()); i++) {
            shown.add(i);
        }
        for (int i = 0; i < frames.size(); i++) {
            Frame f = frames.get(i);
            if (isDowncall(f)) {
                int caller = firstApplication(frames, i + 1);
                if (caller >= 0) {
                    shown.add(caller);
                }
            } else if (pinsHere(f)) {
                for (int j = Math.max(first, i - 1); j <= Math.min(frames.size() - 1, i + 1); j++) {
                    shown.add(j);
                }
            }
        }
        return shown;
    }

    /** The line that stands for frames left out of a trace. */
    public static final String GAP = "...";

    /**
     * The {@code shown} frames (in order) as lines: each frame's text, marked {@code (native)} or {@code (called into
     * native code)}; {@link #GAP} where frames are left out between them, and after the last when the stack goes on
     * ({@code cut}: it was recorded cut short).
     */
    public static List<String> lines(List<Frame> frames, Collection<Integer> shown, boolean cut) {
        List<String> lines = new ArrayList<>();
        int last = -1;
        for (int i : shown) {
            if (last >= 0 && i > last + 1) {
                lines.add(GAP);
            }
            Frame f = frames.get(i);
            lines.add(f.text()
                    + (f.type() == NATIVE ? " (native)" : wentNative(frames, i) ? " (called into native code)" : ""));
            last = i;
        }
        if (last < frames.size() - 1 || cut) {
            lines.add(GAP);
        }
        return lines;
    }

    /** What keeps a virtual thread on its carrier, by what its pinned stack shows (or the JDK 24+ reason says). */
    public enum Cause {
        /** A monitor held or entered ({@code synchronized}): pins on JDK 21-23 only. */
        MONITOR,
        /** An application's native frame or a call into native code (JNI, an FFM downcall or upcall): every JDK. */
        NATIVE,
        /** A class initializer on the stack: every JDK. */
        CLASS_INIT;

        /**
         * The cause of a pin with {@code frames} (innermost first; null or empty when not recorded) and the JDK's
         * {@code reasons} (JDK 24+'s pinnedReason, none before): a class initializer first, then native code, else a
         * monitor.
         */
        public static Cause of(List<Frame> frames, Collection<String> reasons) {
            List<Frame> stack = frames == null ? List.of() : frames;
            if (stack.stream().anyMatch(f -> f.methodName().equals("<clinit>"))
                    || reasons.stream().anyMatch(r -> r.contains("<clinit>") || r.contains("lass init"))) {
                return CLASS_INIT;
            }
            for (int i = 0; i < stack.size(); i++) {
                if (pinsHere(stack.get(i)) || wentNative(stack, i)) {
                    return NATIVE; // a class initializer was ruled out above: the frame is native
                }
            }
            return reasons.stream().anyMatch(r -> r.toLowerCase(Locale.ROOT).contains("native")) ? NATIVE : MONITOR;
        }
    }

    /** A frame that pins by being on the stack: a class initializer, an application's native method. */
    private static boolean pinsHere(Frame f) {
        return f.methodName().equals("<clinit>") || f.type() == NATIVE && !f.isJdk();
    }

    /** An FFM downcall's stub: the application frame below it called into native code. */
    private static boolean isDowncall(Frame f) {
        return f.className().startsWith("jdk.internal.foreign.abi.DowncallStub");
    }

    /** The index of the first application frame (not the JDK's) from {@code from}, innermost first; -1 when none. */
    public static int firstApplication(List<Frame> frames, int from) {
        for (int i = from; i < frames.size(); i++) {
            if (!frames.get(i).isJdk()) {
                return i;
            }
        }
        return -1;
    }
}
