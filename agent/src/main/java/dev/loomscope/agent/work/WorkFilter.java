package dev.loomscope.agent.work;

import dev.loomscope.options.AgentOptions;
import dev.loomscope.recording.JdkFrames;
import java.util.ArrayList;
import java.util.List;

/**
 * The methods {@code work=} names, in JFR's method-filter syntax: {@code com.example.Handler::handle} (one method,
 * every overload), {@code com.example.Handler} (every method the class declares) and {@code @jakarta.ws.rs.GET} (every
 * method annotated so), several joined by {@code ;}; and {@link #REQUESTS}, the servers' own request entries
 * ({@link RequestEntry}), the option's default.
 */
public final class WorkFilter {
    /**
     * The word that names every {@link RequestEntry}: the requests of the servers loomscope knows, counted with no
     * handler named.
     */
    public static final String REQUESTS = AgentOptions.REQUESTS;

    /**
     * One rule: a class's method (any method when {@code method} is null), the methods of the classes that implement
     * {@code internalClass} directly ({@code implementations}), or the methods annotated {@code annotationDescriptor};
     * {@code entry} when it is a server's request entry (its timing and its guard).
     */
    private record Rule(
            String internalClass,
            String method,
            String annotationDescriptor,
            boolean implementations,
            RequestEntry entry) {}

    /**
     * How one matched method is counted: its name, whether its calls are timed, whether a nested call with the same
     * first argument is left out.
     */
    record Match(String name, boolean timed, boolean oncePerArgument) {}

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
            if (e.equals(REQUESTS)) {
                for (RequestEntry r : RequestEntry.values()) {
                    rules.add(new Rule(r.internalClass(), r.method(), null, r.implementations(), r));
                }
                continue;
            }
            if (e.startsWith("@")) {
                rules.add(new Rule(null, null, "L" + e.substring(1).replace('.', '/') + ";", false, null));
                continue;
            }
            int sep = e.indexOf("::");
            String cls = sep < 0 ? e : e.substring(0, sep);
            String method = sep < 0 ? null : e.substring(sep + 2);
            if (cls.isEmpty()
                    || !cls.matches("[\\p{L}_$][\\p{L}\\p{N}_$.]*")
                    || method != null && !method.matches("[\\p{L}_$][\\p{L}\\p{N}_$]*")) {
                problems.add("'" + e + "' is not Class::method, Class, @Annotation or " + REQUESTS);
                continue;
            }
            if (JdkFrames.isJdk(cls)) {
                problems.add("'" + e
                        + "' is a JDK class, which the agent does not time (name the application's method that calls"
                        + " it)");
                continue;
            }
            rules.add(new Rule(cls.replace('.', '/'), method, null, false, null));
        }
        return new WorkFilter(List.copyOf(rules));
    }

    public boolean isEmpty() {
        return rules.isEmpty();
    }

    /** Whether the filter is the servers' request entries alone (the option's default): nothing the user named. */
    public boolean requestsOnly() {
        return !rules.isEmpty() && rules.stream().allMatch(r -> r.entry != null);
    }

    /**
     * Whether any method of the class may match, told by its name alone: an annotation or an interface may be any
     * class's.
     */
    boolean mayMatch(String internalClass) {
        return rules.stream()
                .anyMatch(r ->
                        r.annotationDescriptor != null || r.implementations || r.internalClass.equals(internalClass));
    }

    /** Whether any method of the class may match, told by its name and the interfaces it implements directly. */
    boolean mayMatch(String internalClass, List<String> interfaces) {
        return rules.stream()
                .anyMatch(r -> r.annotationDescriptor != null
                        || (r.implementations
                                ? interfaces.contains(r.internalClass)
                                : r.internalClass.equals(internalClass)));
    }

    /**
     * The outermost frame of {@code stack} (innermost first) a {@code Class::method} or {@code Class} rule names, or a
     * request entry's {@link RequestEntry#stackFrame}, as {@code Class::method}; null when none does (annotation rules
     * cannot be told from a stack frame).
     */
    public String unitOf(StackTraceElement[] stack) {
        for (int i = stack.length - 1; i >= 0; i--) {
            String internal = stack[i].getClassName().replace('.', '/');
            String frame = stack[i].getClassName() + "::" + stack[i].getMethodName();
            for (Rule r : rules) {
                if (r.entry != null
                        ? r.entry.stackFrame().equals(frame)
                        : r.annotationDescriptor == null
                                && r.internalClass.equals(internal)
                                && (r.method == null || r.method.equals(stack[i].getMethodName()))) {
                    return frame;
                }
            }
        }
        return null;
    }

    /**
     * How a method is counted, or null when no rule names it: {@code interfaces} are the ones its class implements
     * directly, {@code descriptor} its own (an implementation rule takes the interface's method only, with an object as
     * its first argument).
     */
    Match match(
            String internalClass,
            List<String> interfaces,
            String method,
            String descriptor,
            List<String> annotationDescriptors) {
        String name = internalClass.replace('/', '.') + "::" + method;
        for (Rule r : rules) {
            if (r.annotationDescriptor != null
                    ? annotationDescriptors.contains(r.annotationDescriptor)
                    : r.implementations
                            ? interfaces.contains(r.internalClass)
                                    && r.method.equals(method)
                                    && descriptor.startsWith("(L")
                            : r.internalClass.equals(internalClass) && (r.method == null || r.method.equals(method))) {
                return r.entry == null
                        ? new Match(name, true, false)
                        : new Match(name, r.entry.timed(), r.implementations);
            }
        }
        return null;
    }
}
