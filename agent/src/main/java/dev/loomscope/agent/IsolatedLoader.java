package dev.loomscope.agent;

import java.io.IOException;
import java.io.InputStream;

/**
 * A class loader of the agent's own for one of its classes, whose unnamed module is the only code a JDK package is
 * exported or opened to ({@link NativeAccess}, {@link StallWatch}): the application, which shares the class path's
 * unnamed module with the agent, gains no access by it.
 */
final class IsolatedLoader extends ClassLoader {
    IsolatedLoader(String name) {
        super(name, null);
    }

    /** Defines the agent's class {@code name} from the agent's jar. */
    Class<?> define(String name) throws IOException {
        try (InputStream in = IsolatedLoader.class.getResourceAsStream("/" + name.replace('.', '/') + ".class")) {
            if (in == null) {
                throw new IOException(name + " is not in the agent's jar");
            }
            byte[] bytes = in.readAllBytes();
            return defineClass(name, bytes, 0, bytes.length);
        }
    }
}
