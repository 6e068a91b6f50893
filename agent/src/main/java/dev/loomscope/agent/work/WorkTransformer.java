package dev.loomscope.agent.work;

import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import org.objectweb.asm.AnnotationVisitor;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.commons.AdviceAdapter;

/**
 * The timing of the {@code work=} methods: each named method calls {@link Work#begin} as it starts and {@link Work#end}
 * as it returns or throws itself (a call that ends by an exception from a method it called is not timed); a request
 * entry passed on from handler to handler calls {@link Work#beginOnce} and {@link Work#endOnce} with its request,
 * counted once. Only classes whose loader sees the agent's {@link Work} are changed, so an instrumented class can never
 * fail to find it; a class that cannot be changed is left as it was.
 */
public final class WorkTransformer implements ClassFileTransformer {
    private static final String WORK = Type.getInternalName(Work.class);
    private final WorkFilter filter;
    private final Map<ClassLoader, Boolean> sees = new WeakHashMap<>();

    public WorkTransformer(WorkFilter filter) {
        this.filter = filter;
    }

    @Override
    public byte[] transform(
            Module module,
            ClassLoader loader,
            String className,
            Class<?> redefined,
            ProtectionDomain domain,
            byte[] bytes) {
        if (className == null
                || loader == null
                || !filter.mayMatch(className)
                || className.startsWith("dev/loomscope/agent/")) {
            return null;
        }
        try {
            ClassReader reader = new ClassReader(bytes);
            List<String> interfaces = List.of(reader.getInterfaces());
            // the header first: only a class the filter may change asks its loader for the agent's classes
            if (!filter.mayMatch(className, interfaces) || !seesWork(loader)) {
                return null;
            }
            ClassWriter writer = new ClassWriter(reader, ClassWriter.COMPUTE_MAXS);
            boolean[] changed = new boolean[1];
            reader.accept(
                    new ClassVisitor(Opcodes.ASM9, writer) {
                        @Override
                        public MethodVisitor visitMethod(
                                int access, String name, String descriptor, String signature, String[] exceptions) {
                            MethodVisitor mv = super.visitMethod(access, name, descriptor, signature, exceptions);
                            if ((access
                                                    & (Opcodes.ACC_ABSTRACT
                                                            | Opcodes.ACC_NATIVE
                                                            | Opcodes.ACC_BRIDGE
                                                            | Opcodes.ACC_SYNTHETIC))
                                            != 0
                                    || name.equals("<init>")
                                    || name.equals("<clinit>")) {
                                return mv;
                            }
                            return new Timed(mv, access, name, descriptor, className, interfaces, changed);
                        }
                    },
                    ClassReader.EXPAND_FRAMES);
            return changed[0] ? writer.toByteArray() : null;
        } catch (Throwable t) {
            return null; // left as it was: the application runs on
        }
    }

    /**
     * Whether {@code loader} resolves the agent's own {@link Work} (not none, not another copy): asked once a loader.
     */
    private boolean seesWork(ClassLoader loader) {
        synchronized (sees) {
            Boolean known = sees.get(loader);
            if (known != null) {
                return known;
            }
        }
        boolean same;
        try {
            same = Class.forName(Work.class.getName(), false, loader) == Work.class;
        } catch (ClassNotFoundException | LinkageError notVisible) {
            same = false;
        }
        synchronized (sees) {
            sees.put(loader, same);
        }
        return same;
    }

    /** One method: counted when the filter names it (decided at its code, after its annotations). */
    private final class Timed extends AdviceAdapter {
        private final String owner;
        private final String name;
        private final String descriptor;
        private final List<String> interfaces;
        private final boolean[] changed;
        private final List<String> annotations = new ArrayList<>();
        private WorkFilter.Match match;
        private int call;
        private int id;

        Timed(
                MethodVisitor mv,
                int access,
                String name,
                String descriptor,
                String owner,
                List<String> interfaces,
                boolean[] changed) {
            super(Opcodes.ASM9, mv, access, name, descriptor);
            this.owner = owner;
            this.name = name;
            this.descriptor = descriptor;
            this.interfaces = interfaces;
            this.changed = changed;
        }

        @Override
        public AnnotationVisitor visitAnnotation(String descriptor, boolean visible) {
            annotations.add(descriptor);
            return super.visitAnnotation(descriptor, visible);
        }

        @Override
        protected void onMethodEnter() {
            match = filter.match(owner, interfaces, name, descriptor, annotations);
            if (match == null) {
                return;
            }
            changed[0] = true;
            id = WorkWindows.idOf(match.name(), match.timed());
            call = newLocal(Type.LONG_TYPE);
            push(id);
            if (match.oncePerArgument()) {
                loadArg(0);
                visitMethodInsn(INVOKESTATIC, WORK, "beginOnce", "(ILjava/lang/Object;)J", false);
            } else {
                visitMethodInsn(INVOKESTATIC, WORK, "begin", "(I)J", false);
            }
            storeLocal(call);
        }

        @Override
        protected void onMethodExit(int opcode) {
            if (match == null) {
                return;
            }
            loadLocal(call);
            push(id);
            if (match.oncePerArgument()) {
                loadArg(0);
                visitMethodInsn(INVOKESTATIC, WORK, "endOnce", "(JILjava/lang/Object;)V", false);
            } else {
                visitMethodInsn(INVOKESTATIC, WORK, "end", "(JI)V", false);
            }
        }
    }
}
