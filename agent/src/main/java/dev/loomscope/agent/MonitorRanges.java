package dev.loomscope.agent;

import dev.loomscope.recording.JdkFrames;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.LineNumberNode;
import org.objectweb.asm.tree.LookupSwitchInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TableSwitchInsnNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.TypeInsnNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * Which monitors a stack holds, read from its classes' bytecode instead of the JVM's lock records: a thread dump with
 * monitors stops every thread at a safepoint, a stack alone is a handshake with its one thread. A frame holds a monitor
 * when its method is {@code synchronized}, or when every call on its line runs between a {@code monitorenter} and its
 * {@code monitorexit} (a stack's frames below the top stand at a call; a line's calls outside the block as well as in
 * it leave it out, so that a monitor is never claimed where it may not be held; a frame whose line is not told, by the
 * call it made to the frame above it, the same way). Each class is read once, from the class loader that sees it; a
 * class whose bytes no loader gives (generated at run time) holds none.
 */
final class MonitorRanges {
    /** A monitor a frame holds: the frame, and the monitor's class ("" when the bytecode does not tell it). */
    record Held(StackTraceElement frame, String monitorClass) {}

    /**
     * One method's lines whose calls run holding a monitor, with the innermost monitor's class; and for a frame whose
     * line is not told (a class without its line table, as a JDK image stripped of debug information has), the same by
     * the methods it calls: each callee's name whose every call runs holding one, and {@code interfaceCalls}, the
     * monitor when every interface call does (a lambda's body is called through one, its own frame hidden), else null;
     * {@code whole}, a synchronized method's monitor, held wherever it calls.
     */
    private record Method(
            String name, Map<Integer, String> lines, Map<String, String> callees, String interfaceCalls, String whole) {
        boolean holdsAny() {
            return !lines.isEmpty() || !callees.isEmpty() || interfaceCalls != null || whole != null;
        }

        /** The monitor held where this method, its line not told, called the frame {@code above}; null: none. */
        String calling(StackTraceElement above) {
            if (whole != null) {
                return whole;
            }
            String byName = callees.get(above.getMethodName());
            return byName != null || !above.getMethodName().startsWith("lambda$") ? byName : interfaceCalls;
        }
    }

    /** Classes read at most: a bound on what the looks keep, far above the application classes a service blocks in. */
    static final int MAX_CLASSES = 20_000;

    private final Map<String, List<Method>> classes = new ConcurrentHashMap<>();

    /** Reads this class's own bytecode once, so that the classes reading takes are loaded before the looks begin. */
    void warm() {
        methods(MonitorRanges.class.getName(), MonitorRanges.class.getClassLoader());
    }

    /**
     * The monitor taken nearest the top of the stack by a frame not the JDK's, or by a JDK frame that called the
     * application's code holding it (a loader run inside {@code ConcurrentHashMap.computeIfAbsent}'s lock on its bin, a
     * class loaded under {@code ClassLoader.loadClass}'s lock); null when none. The JDK's monitors with only the JDK's
     * code above them are the JDK's to handle on virtual threads, and are left out.
     */
    Held heldBy(StackTraceElement[] stack, ClassLoader loader) {
        boolean applicationAbove = false;
        for (int k = 0; k < stack.length; k++) {
            StackTraceElement f = stack[k];
            boolean jdk = JdkFrames.isJdk(f.getClassName());
            boolean read = (!jdk || applicationAbove) && (f.getLineNumber() >= 0 || k > 0);
            applicationAbove |= !jdk;
            if (!read) {
                continue;
            }
            for (Method m : methods(f.getClassName(), loader)) {
                String monitor = !m.name().equals(f.getMethodName())
                        ? null
                        : f.getLineNumber() >= 0 ? m.lines().get(f.getLineNumber()) : m.calling(stack[k - 1]);
                if (monitor != null) {
                    return new Held(f, monitor);
                }
            }
        }
        return null;
    }

    private List<Method> methods(String className, ClassLoader loader) {
        List<Method> known = classes.get(className);
        if (known != null) {
            return known;
        }
        List<Method> read = read(className, loader);
        if (classes.size() < MAX_CLASSES) {
            classes.put(className, read);
        }
        return read;
    }

    /**
     * The class's methods that hold monitors, from the first loader of {@code loader} and the system's that gives its
     * bytes.
     */
    private static List<Method> read(String className, ClassLoader loader) {
        String resource = className.replace('.', '/') + ".class";
        for (ClassLoader l : new ClassLoader[] {loader, ClassLoader.getSystemClassLoader()}) {
            if (l == null) {
                continue;
            }
            try (InputStream in = l.getResourceAsStream(resource)) {
                if (in != null) {
                    return of(in.readAllBytes());
                }
            } catch (IOException | RuntimeException | LinkageError unreadable) {
                // the next loader, or none: a class not read holds no monitor the looks can tell
            }
        }
        return List.of();
    }

    /** The methods of a class file that hold a monitor somewhere. */
    private static List<Method> of(byte[] classFile) {
        ClassNode c = new ClassNode();
        new ClassReader(classFile).accept(c, ClassReader.SKIP_FRAMES);
        String owner = Type.getObjectType(c.name).getClassName();
        return c.methods.stream()
                .map(m -> held(owner, m))
                .filter(Method::holdsAny)
                .toList();
    }

    /**
     * Where a method's every call runs holding a monitor, with the innermost one's class: by line, and by callee (its
     * name, and interface calls) for frames whose line is not told.
     */
    private static Method held(String owner, MethodNode m) {
        Map<Integer, String> lines = new HashMap<>();
        Map<String, String> callees = new HashMap<>();
        if ((m.access & Opcodes.ACC_SYNCHRONIZED) != 0) {
            String monitor = (m.access & Opcodes.ACC_STATIC) != 0 ? "java.lang.Class" : owner;
            for (AbstractInsnNode i : m.instructions) {
                if (i instanceof LineNumberNode n) {
                    lines.put(n.line, monitor);
                }
            }
            return new Method(m.name, lines, callees, null, monitor);
        }
        if (StreamSupport.stream(m.instructions.spliterator(), false)
                .noneMatch(i -> i.getOpcode() == Opcodes.MONITORENTER)) {
            return new Method(m.name, lines, callees, null, null);
        }
        Monitors[] at = monitorsAt(owner, m);
        Set<Integer> outside = new HashSet<>();
        Set<String> calledOutside = new HashSet<>();
        String interfaceCalls = null;
        boolean interfaceOutside = false;
        int line = -1;
        for (int k = 0; k < at.length; k++) {
            AbstractInsnNode i = m.instructions.get(k);
            if (i instanceof LineNumberNode n) {
                line = n.line;
            } else if ((i instanceof MethodInsnNode || i.getOpcode() == Opcodes.INVOKEDYNAMIC) && at[k] != null) {
                boolean in = at[k].depth > 0;
                if (line >= 0) {
                    if (in) {
                        lines.putIfAbsent(line, at[k].monitor);
                    } else {
                        outside.add(line);
                    }
                }
                if (i instanceof MethodInsnNode call) {
                    if (in) {
                        callees.putIfAbsent(call.name, at[k].monitor);
                    } else {
                        calledOutside.add(call.name);
                    }
                    if (call.getOpcode() == Opcodes.INVOKEINTERFACE) {
                        interfaceOutside |= !in;
                        interfaceCalls = in && interfaceCalls == null ? at[k].monitor : interfaceCalls;
                    }
                }
            }
        }
        lines.keySet().removeAll(outside);
        callees.keySet().removeAll(calledOutside);
        return new Method(m.name, lines, callees, interfaceOutside ? null : interfaceCalls, null);
    }

    /** The monitors held before an instruction: how many, and the innermost one's class; a persistent stack. */
    private record Monitors(int depth, String monitor, Monitors outer) {
        static final Monitors NONE = new Monitors(0, "", null);

        Monitors enter(String monitorClass) {
            return new Monitors(depth + 1, monitorClass, this);
        }

        Monitors exit() {
            return outer == null ? this : outer;
        }
    }

    /**
     * The monitors held before each instruction, along the method's control flow and into its exception handlers; null
     * where unreached.
     */
    private static Monitors[] monitorsAt(String owner, MethodNode m) {
        int n = m.instructions.size();
        Monitors[] at = new Monitors[n];
        ArrayDeque<Integer> work = new ArrayDeque<>();
        at[0] = Monitors.NONE;
        work.add(0);
        while (!work.isEmpty()) {
            int k = work.poll();
            AbstractInsnNode i = m.instructions.get(k);
            Monitors before = at[k];
            for (TryCatchBlockNode t : m.tryCatchBlocks) {
                if (m.instructions.indexOf(t.start) <= k && k < m.instructions.indexOf(t.end)) {
                    reach(at, work, m.instructions.indexOf(t.handler), before);
                }
            }
            Monitors after = switch (i.getOpcode()) {
                case Opcodes.MONITORENTER -> before.enter(monitorClass(owner, m, i));
                case Opcodes.MONITOREXIT -> before.exit();
                default -> before;
            };
            for (LabelNode target : targets(i)) {
                reach(at, work, m.instructions.indexOf(target), after);
            }
            if (fallsThrough(i) && k + 1 < n) {
                reach(at, work, k + 1, after);
            }
        }
        return at;
    }

    private static void reach(Monitors[] at, ArrayDeque<Integer> work, int k, Monitors state) {
        if (at[k] == null) {
            at[k] = state; // the first path in decides: javac's and kotlinc's monitors are balanced on every path
            work.add(k);
        }
    }

    private static List<LabelNode> targets(AbstractInsnNode i) {
        if (i instanceof JumpInsnNode j) {
            return List.of(j.label);
        }
        if (i instanceof TableSwitchInsnNode s) {
            return Stream.concat(s.labels.stream(), Stream.of(s.dflt)).toList();
        }
        if (i instanceof LookupSwitchInsnNode s) {
            return Stream.concat(s.labels.stream(), Stream.of(s.dflt)).toList();
        }
        return List.of();
    }

    private static boolean fallsThrough(AbstractInsnNode i) {
        int op = i.getOpcode();
        return op != Opcodes.GOTO
                && op != Opcodes.ATHROW
                && !(op >= Opcodes.IRETURN && op <= Opcodes.RETURN)
                && !(i instanceof TableSwitchInsnNode)
                && !(i instanceof LookupSwitchInsnNode);
    }

    /**
     * The class of the object a {@code monitorenter} takes, from the instruction that put it on the stack (javac: the
     * expression, {@code dup}, {@code astore}, {@code monitorenter}): a field's type, a class literal, {@code this}, a
     * call's result, a cast; "" when the bytecode does not tell (a local variable without a debug table).
     */
    private static String monitorClass(String owner, MethodNode m, AbstractInsnNode enter) {
        AbstractInsnNode i = enter.getPrevious();
        while (i != null && (i.getOpcode() < 0 || i.getOpcode() == Opcodes.DUP || i.getOpcode() == Opcodes.ASTORE)) {
            i = i.getPrevious();
        }
        if (i instanceof FieldInsnNode f) {
            return Type.getType(f.desc).getClassName();
        }
        if (i instanceof LdcInsnNode l && l.cst instanceof Type) {
            return "java.lang.Class";
        }
        if (i instanceof MethodInsnNode c) {
            return Type.getReturnType(c.desc).getClassName();
        }
        if (i instanceof TypeInsnNode t && t.getOpcode() != Opcodes.ANEWARRAY) {
            return Type.getObjectType(t.desc).getClassName();
        }
        if (i instanceof VarInsnNode v && v.getOpcode() == Opcodes.ALOAD) {
            if (v.var == 0 && (m.access & Opcodes.ACC_STATIC) == 0) {
                return owner;
            }
            if (m.localVariables != null) {
                for (var local : m.localVariables) {
                    if (local.index == v.var
                            && m.instructions.indexOf(local.start) <= m.instructions.indexOf(v)
                            && m.instructions.indexOf(v) < m.instructions.indexOf(local.end)) {
                        return Type.getType(local.desc).getClassName();
                    }
                }
            }
        }
        return "";
    }
}
