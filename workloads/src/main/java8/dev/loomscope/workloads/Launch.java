package dev.loomscope.workloads;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.charset.StandardCharsets;

/**
 * The workloads jar's entry point, compiled for Java 8 so that an older {@code java} runs it far
 * enough to say in one line what is wrong: the workloads need JDK 21 or newer (virtual threads),
 * and where the loomscope launcher finds one. On JDK 21+ it hands over to {@code Main}.
 */
public final class Launch {
    static final int MIN_JDK = 21;

    private Launch() {}

    public static void main(String[] args) throws Throwable {
        int feature = feature(System.getProperty("java.specification.version", "0"));
        if (feature < MIN_JDK) {
            System.err.println("loomscope-workloads: needs JDK " + MIN_JDK + " or newer, and this java is JDK " + feature + " ("
                    + System.getProperty("java.home") + ")" + elsewhere());
            System.exit(2);
        }
        MethodHandle main = MethodHandles.lookup().findStatic(Class.forName("dev.loomscope.workloads.Main"), "main",
                MethodType.methodType(void.class, String[].class));
        main.invokeExact(args);
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

    /** Where the launcher's JDK search (.mvn/find-jdk.sh of the checkout this jar was built in) finds a JDK 21+. */
    private static String elsewhere() {
        try {
            File jar = new File(Launch.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            File script = new File(jar.getParentFile().getParentFile().getParentFile(), ".mvn/find-jdk.sh");
            if (!script.isFile()) {
                return ": install JDK " + MIN_JDK + "+ and run this jar with its java";
            }
            Process p = new ProcessBuilder("sh", "-c",
                    ". \"$1\" && if loomscope_find_jdk; then echo \"$LOOMSCOPE_JAVA_HOME\"; else echo \"?$LOOMSCOPE_JDK_ERROR\"; fi", "sh",
                    script.getPath()).redirectErrorStream(true).start();
            String line;
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                line = r.readLine();
            }
            p.waitFor();
            if (line == null || line.startsWith("?")) {
                return ": " + (line == null ? "the loomscope launcher finds none" : line.substring(1));
            }
            return "; the loomscope launcher finds one at " + line + ": run " + line + "/bin/java -jar " + jar.getPath() + " (or ./loomscope study)";
        } catch (Exception e) {
            return ": install JDK " + MIN_JDK + "+ and run this jar with its java";
        }
    }
}
