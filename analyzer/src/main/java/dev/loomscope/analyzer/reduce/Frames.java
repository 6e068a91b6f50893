package dev.loomscope.analyzer.reduce;

import java.util.ArrayList;
import java.util.List;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;

/** Stack frames as text, and which frame is the application's. */
public final class Frames {
    private Frames() {}

    public static String name(RecordedFrame f) {
        String s = f.getMethod().getType().getName() + "." + f.getMethod().getName();
        return f.getLineNumber() > 0 ? s + ":" + f.getLineNumber() : s;
    }

    static boolean isJdk(RecordedFrame f) {
        String t = f.getMethod().getType().getName();
        return t.startsWith("java.") || t.startsWith("jdk.") || t.startsWith("sun.") || t.startsWith("javax.");
    }

    /** The topmost frame outside the JDK (the code that pinned), or the top frame when all are JDK's. */
    public static String topApplicationFrame(RecordedStackTrace st) {
        if (st == null || st.getFrames().isEmpty()) {
            return "(no stack trace)";
        }
        for (RecordedFrame f : st.getFrames()) {
            if (!isJdk(f)) {
                return f.getMethod().getType().getName() + "." + f.getMethod().getName();
            }
        }
        RecordedFrame top = st.getFrames().get(0);
        return top.getMethod().getType().getName() + "." + top.getMethod().getName();
    }

    public static List<String> top(RecordedStackTrace st, int depth) {
        List<String> out = new ArrayList<>();
        if (st != null) {
            for (RecordedFrame f : st.getFrames()) {
                if (out.size() == depth) {
                    break;
                }
                out.add(name(f));
            }
        }
        return out;
    }
}
