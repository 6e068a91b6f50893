package dev.loomscope.agent.work;

import dev.loomscope.recording.JdkFrames;
import java.util.ArrayList;
import java.util.List;

/**
 * The methods {@code work=} names, in JFR's method-filter syntax: {@code com.example.Handler::handle}
 * (one method, every overload), {@code com.example.Handler} (every method the class declares) and
 * {@code @jakarta.ws.rs.GET} (every method annotated so), several joined by {@code ;}.
 */
public final class WorkFilter {
    private record Rule(String internalClass, String method, String annotationDescriptor) {}

    private final List<Rule> rules;

    private WorkFilter(List<Rule> rules) {
        this.rules = rules;
    }

    /** The filter; an entry it cannot read is named in {@code problems}. */
    public static WorkFilter parse(String text, List<String> problems) {
        List<Rule> rules = new ArrayList<>();
        for (String entry : text.split(";")) {
            String e = entry.strip();
            if (e.isEmpty()) {
                continue;
            }
            if (e.startsWith("@")) {
                rules.add(new Rule(null, null, "L" + e.substring(1).replace('.', '/') + ";"));
                continue;
            }
            int sep = e.indexOf("::");
            String cls = sep < 0 ? e : e.substring(0, sep);
            String method = sep < 0 ? null : e.substring(sep + 2);
            if (cls.isEmpty() || !cls.matches("[\\p{L}_$][\\p{L}\\p{N}_$.]*") || method != null && !method.matches("[\\p{L}_$][\\p{L}\\p{N}_$]*")) {
                problems.add("'" + e + "' is not Class::method, Class or @Annotation");
                continue;
            }
            if (JdkFrames.isJdk(cls)) {
                problems.add("'" + e + "' is a JDK class, which the agent does not time (name the application's method that calls it)");
                continue;
            }
            rules.add(new Rule(cls.replace('.', '/'), method, null));
        }
        return new WorkFilter(List.copyOf(rules));
    }

    public boolean isEmpty() {
        return rules.isEmpty();
    }

    /** Whether any method of the class may match (annotation rules may match any class). */
    boolean mayMatch(String internalClass) {
        return rules.stream().anyMatch(r -> r.annotationDescriptor != null || r.internalClass.equals(internalClass));
    }

    /**
     * The outermost frame of {@code stack} (innermost first) a {@code Class::method} or {@code Class}
     * rule names, as {@code Class::method}; null when none does (annotation rules cannot be told from
     * a stack frame).
     */
    public String unitOf(StackTraceElement[] stack) {
        for (int i = stack.length - 1; i >= 0; i--) {
            String internal = stack[i].getClassName().replace('.', '/');
            for (Rule r : rules) {
                if (r.annotationDescriptor == null && r.internalClass.equals(internal) && (r.method == null || r.method.equals(stack[i].getMethodName()))) {
                    return stack[i].getClassName() + "::" + stack[i].getMethodName();
                }
            }
        }
        return null;
    }

    boolean matches(String internalClass, String method, List<String> annotationDescriptors) {
        for (Rule r : rules) {
            if (r.annotationDescriptor != null ? annotationDescriptors.contains(r.annotationDescriptor)
                    : r.internalClass.equals(internalClass) && (r.method == null || r.method.equals(method))) {
                return true;
            }
        }
        return false;
    }
}
