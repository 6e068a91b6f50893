package dev.loomscope.options;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.jar.Attributes;
import java.util.jar.JarFile;

/**
 * The entry point of loomscope's runnable jars (the CLI's, the workloads'), compiled for Java 8 so that an older
 * {@code java} runs it far enough to say in one line what is wrong: loomscope needs JDK 21 or newer, and where the
 * loomscope launcher finds one. On JDK 21+ it hands over to the jar's own main class, which its manifest names
 * ({@code Loomscope-Main}, with {@code Loomscope-Name} the name its messages begin with).
 */
public final class Launch {
    static final int MIN_JDK = 21;

    private Launch() {}

    public static void main(String[] args) throws Throwable {
        Attributes manifest = manifest();
        String name = manifest == null || manifest.getValue("Loomscope-Name") == null
                ? "loomscope"
                : manifest.getValue("Loomscope-Name");
        int feature = feature(System.getProperty("java.specification.version", "0"));
        if (feature < MIN_JDK) {
            System.err.println(name + ": needs JDK " + MIN_JDK + " or newer, and this java is JDK " + feature + " ("
                    + System.getProperty("java.home") + ")" + elsewhere());
            System.exit(2);
        }
        if (manifest == null || manifest.getValue("Loomscope-Main") == null) {
            System.err.println(name
                    + ": this jar's manifest names no Loomscope-Main (a broken build: rebuild with ./mvnw -B package)");
            System.exit(3);
        }
        MethodHandle main = MethodHandles.lookup()
                .findStatic(
                        Class.forName(manifest.getValue("Loomscope-Main")),
                        "main",
                        MethodType.methodType(void.class, String[].class));
        main.invokeExact(args);
    }

    /** The {@code java} executable of this JVM's JDK: what a child JVM on the same JDK is started with. */
    public static String thisJava() {
        return new File(new File(System.getProperty("java.home"), "bin"), "java").getPath();
    }

    /**
     * The jar this class was loaded from, left open: the class loader opens it again for each class and resource not in
     * the class-data archive, and a second opening of a file already open shares its directory (7,000 entries in the
     * CLI's jar) instead of reading it again.
     */
    private static JarFile jar;

    /** Where {@code c} was loaded from: the jar, or a directory of classes. */
    public static File codeSource(Class<?> c) throws URISyntaxException {
        return new File(c.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    /**
     * The checkout {@code c}'s jar was built in: a module's {@code target/NAME.jar} sits three levels below it (classes
     * run from a directory give that directory's third parent).
     */
    public static File checkout(Class<?> c) throws URISyntaxException {
        return codeSource(c).getAbsoluteFile().getParentFile().getParentFile().getParentFile();
    }

    /** The main attributes of the jar this class was loaded from (opened once), or null (not from a jar). */
    public static Attributes manifest() {
        try {
            if (jar == null) {
                File file = codeSource(Launch.class);
                if (!file.isFile()) {
                    return null;
                }
                jar = new JarFile(file);
            }
            return jar.getManifest() == null ? null : jar.getManifest().getMainAttributes();
        } catch (Exception e) {
            return null;
        }
    }

    /** "1.8" is 8, "17" is 17. */
    static int feature(String specification) {
        String v = specification.startsWith("1.") ? specification.substring(2) : specification;
        try {
            return Integer.parseInt(v.split("\\.")[0]);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /**
     * Where the launcher's JDK search (find-jdk.sh beside this jar in a release, or .mvn/find-jdk.sh of the checkout it
     * was built in) finds a JDK 21+.
     */
    private static String elsewhere() {
        try {
            File file = codeSource(Launch.class);
            File script = new File(file.getParentFile(), "find-jdk.sh"); // a release's lib/, beside this jar
            if (!script.isFile()) {
                script = new File(checkout(Launch.class), ".mvn/find-jdk.sh");
            }
            if (!script.isFile()) {
                return ": install JDK " + MIN_JDK + "+ and run this jar with its java";
            }
            Process p = new ProcessBuilder(
                            "sh",
                            "-c",
                            ". \"$1\" && if loomscope_find_jdk; then echo \"$LOOMSCOPE_JAVA_HOME\"; else echo"
                                    + " \"?$LOOMSCOPE_JDK_ERROR\"; fi",
                            "sh",
                            script.getPath())
                    .redirectErrorStream(true)
                    .start();
            String line;
            try (BufferedReader r =
                    new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                line = r.readLine();
            }
            p.waitFor();
            if (line == null || line.startsWith("?")) {
                return ": " + (line == null ? "the loomscope launcher finds none" : line.substring(1));
            }
            return "; the loomscope launcher finds one at " + line + ": run " + line + "/bin/java -jar "
                    + file.getPath() + " (or ./loomscope study)";
        } catch (Exception e) {
            return ": install JDK " + MIN_JDK + "+ and run this jar with its java";
        }
    }
}
