package dev.loomscope.recording;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * This module's classes as a JDK 22+ JVM runs them from its multi-release jar: the build's output's
 * META-INF/versions/22 ahead of the common classes, in a class loader of their own (the tests' class path holds the
 * common classes only, JDK 21's), and calls into them by name.
 */
final class Versioned {
    private static ClassLoader loader;

    private Versioned() {}

    /** The class {@code c} as the JDK 22+ version of this module holds it (skips the test on JDK 21). */
    static synchronized Class<?> of(Class<?> c) throws Exception {
        assumeTrue(
                Runtime.version().feature() >= 22,
                "the versions/22 classes are JDK 22+'s; this JVM is " + Runtime.version());
        if (loader == null) {
            URL classes = ChunkBytes.class.getProtectionDomain().getCodeSource().getLocation();
            URL versioned = new URL(classes, "META-INF/versions/22/");
            assertThat(Path.of(versioned.toURI()).resolve("dev/loomscope/recording/ChunkBytes.class"))
                    .exists();
            loader = new URLClassLoader(new URL[] {versioned, classes}, ClassLoader.getPlatformClassLoader());
            assertThat(loader.loadClass(ChunkBytes.class.getName())).isNotSameAs(ChunkBytes.class);
        }
        return loader.loadClass(c.getName());
    }

    /**
     * Calls the method {@code name} of {@code on} (of class {@code c}) whose parameter types are {@code types}; what it
     * throws, thrown.
     */
    static Object call(Class<?> c, Object on, String name, Class<?>[] types, Object... args) throws Exception {
        Method m = c.getDeclaredMethod(name, types);
        m.setAccessible(true);
        try {
            return m.invoke(on, args);
        } catch (InvocationTargetException e) {
            throw e.getCause() instanceof Exception x ? x : new IllegalStateException(e.getCause());
        }
    }

    /** Calls the public method {@code name} of {@code on}, found by its name and the number of arguments. */
    static Object invoke(Object on, String name, Object... args) throws Exception {
        Method m = Arrays.stream(on.getClass().getMethods())
                .filter(x -> x.getName().equals(name) && x.getParameterCount() == args.length)
                .findFirst()
                .orElseThrow();
        m.setAccessible(true);
        return m.invoke(on, args);
    }
}
