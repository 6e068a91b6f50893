package dev.loomscope.recording;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The frame rules read a class name written with dots (a stack trace, JFR's API) or slashes (a constant pool) the same
 * way.
 */
class JdkFramesTest {
    @Test
    void eachRuleTakesDotsAndSlashesAlike() {
        for (String sep : new String[] {".", "/"}) {
            assertThat(JdkFrames.isJdk(String.join(sep, "java", "util", "HashMap")))
                    .isTrue();
            assertThat(JdkFrames.isJdk(String.join(sep, "com", "sun", "net", "httpserver", "HttpServer")))
                    .isTrue();
            assertThat(JdkFrames.isJdk(String.join(sep, "com", "sun", "jna", "Native")))
                    .as("JNA is a library, not the JDK")
                    .isFalse();
            assertThat(JdkFrames.isJdk(String.join(sep, "javalin", "Javalin")))
                    .as("a package that only begins like java")
                    .isFalse();
            assertThat(JdkFrames.isJdk(String.join(sep, "org", "h2", "Driver"))).isFalse();
            assertThat(JdkFrames.isVirtualThreadMachinery(
                            String.join(sep, "java", "lang", "VirtualThread$VThreadContinuation")))
                    .isTrue();
            assertThat(JdkFrames.isVirtualThreadMachinery(String.join(sep, "jdk", "internal", "vm", "Continuation")))
                    .isTrue();
            assertThat(JdkFrames.isVirtualThreadMachinery(String.join(sep, "java", "lang", "Thread")))
                    .isFalse();
            assertThat(JdkFrames.isSchedulerCode(String.join(sep, "java", "util", "concurrent", "ForkJoinPool")))
                    .isTrue();
            assertThat(JdkFrames.isSchedulerWorker(String.join(sep, "jdk", "internal", "misc", "CarrierThread")))
                    .isTrue();
            assertThat(JdkFrames.isSchedulerWorker(
                            String.join(sep, "java", "util", "concurrent", "ForkJoinWorkerThread")))
                    .isTrue();
            assertThat(JdkFrames.isSchedulerWorker(
                            String.join(sep, "java", "util", "concurrent", "ForkJoinWorkerThreadX")))
                    .isFalse();
            assertThat(JdkFrames.isSpin(String.join(sep, "java", "lang", "Thread"), "yield0"))
                    .isTrue();
            assertThat(JdkFrames.isSpin(String.join(sep, "java", "lang", "Thread"), "onSpinWait"))
                    .isTrue();
            assertThat(JdkFrames.isSpin(String.join(sep, "java", "lang", "Thread"), "sleep"))
                    .isFalse();
            assertThat(JdkFrames.isSpin(String.join(sep, "java", "lang", "ThreadX"), "yield"))
                    .isFalse();
        }
    }
}
