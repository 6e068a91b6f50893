package dev.loomscope.analyzer.reduce;

import dev.loomscope.recording.Frame;
import java.util.ArrayList;
import java.util.List;

/** Stack frames as text, and which frame is the application's. */
public final class Frames {
    private Frames() {}

    /** The topmost frame outside the JDK (the code that pinned), or the top frame when all are JDK's. */
    public static String topApplicationFrame(List<Frame> frames) {
        if (frames == null || frames.isEmpty()) {
            return "(no stack trace)";
        }
        for (Frame f : frames) {
            if (!f.isJdk()) {
                return f.method();
            }
        }
        return frames.get(0).method();
    }

    public static List<String> top(List<Frame> frames, int depth) {
        List<String> out = new ArrayList<>();
        if (frames != null) {
            for (Frame f : frames) {
                if (out.size() == depth) {
                    break;
                }
                out.add(f.text());
            }
        }
        return out;
    }
}
