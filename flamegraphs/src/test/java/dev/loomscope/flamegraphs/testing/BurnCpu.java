package dev.loomscope.flamegraphs.testing;

import dev.loomscope.flamegraphs.profiler.ProfilerLibrary;
import dev.loomscope.flamegraphs.profiler.ProfilerSettings;
import dev.loomscope.flamegraphs.profiler.ProfilerStarter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Fixture program: burns CPU in {@code burnCpu} on a platform thread and in {@code burnCpuVirtual} on a virtual thread.
 * With {@code profile OUT.jfr} it runs async-profiler (cpu) into OUT.jfr; with {@code plain} it only burns (run it
 * under -XX:StartFlightRecording for a JDK-only recording).
 */
public final class BurnCpu {
    static volatile double sink;

    public static void main(String[] args) throws Exception {
        long millis = Long.parseLong(args.length > 2 ? args[2] : "1500");
        if (args[0].equals("profile")) {
            var settings = new ProfilerSettings(List.of("cpu"), Duration.ofMillis(5), "vm", Path.of(args[1]));
            var start = ProfilerStarter.start((Path) null, settings);
            System.out.println("mode=" + start.mode());
            work(millis);
            System.out.println(ProfilerLibrary.load(null).execute("stop"));
        } else {
            work(millis);
        }
    }

    static void work(long millis) throws InterruptedException {
        Thread p = Thread.ofPlatform().name("burner-platform").start(() -> burnCpu(millis));
        Thread v = Thread.ofVirtual().name("burner-virtual").start(() -> burnCpuVirtual(millis));
        p.join();
        v.join();
    }

    static void burnCpu(long millis) {
        sink += spin(millis);
    }

    static void burnCpuVirtual(long millis) {
        sink += spin(millis);
    }

    static double spin(long millis) {
        long end = System.nanoTime() + millis * 1_000_000;
        double x = 0;
        while (System.nanoTime() < end) {
            for (int i = 0; i < 1000; i++) {
                x += Math.sqrt(x + i);
            }
        }
        return x;
    }
}
