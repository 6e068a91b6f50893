package dev.loomscope.load;

import java.time.Duration;
import java.util.List;

/**
 * A {@link LoadSpec} for the tests, each saying only what it sets: one target, a 10 s request timeout, 10 connections,
 * no warm-up beyond a second, one window of a second, no ramp, no objective, thread kind "test".
 */
public final class Spec {
    private final String url;
    private List<Double> rates = List.of();
    private int connections = 10;
    private Duration warmupMin = Duration.ZERO;
    private Duration warmupMax = Duration.ofSeconds(1);
    private int windows = 1;
    private Duration window = Duration.ofSeconds(1);
    private Duration ramp = Duration.ZERO;
    private String threadKind = "test";
    private long appPid;
    private Slo slo;

    private Spec(String url) {
        this.url = url;
    }

    /** The load of {@code url}'s one request. */
    public static Spec of(String url) {
        return new Spec(url);
    }

    public Spec rate(double rate) {
        rates = List.of(rate);
        return this;
    }

    public Spec connections(int n) {
        connections = n;
        return this;
    }

    /** A warm-up of at least {@code min}, until steady, and at most {@code max}. */
    public Spec warmup(Duration min, Duration max) {
        warmupMin = min;
        warmupMax = max;
        return this;
    }

    /** {@code n} measured windows of {@code each}. */
    public Spec windows(int n, Duration each) {
        windows = n;
        window = each;
        return this;
    }

    public Spec ramp(Duration d) {
        ramp = d;
        return this;
    }

    public Spec threadKind(String kind) {
        threadKind = kind;
        return this;
    }

    /** The service whose CPU and context switches each window counts. */
    public Spec appPid(long pid) {
        appPid = pid;
        return this;
    }

    /** A capacity search for {@code objective} ({@code p99=800ms}) in place of the rates. */
    public Spec search(String objective) {
        slo = Slo.parse(objective);
        return this;
    }

    public LoadSpec build() {
        return new LoadSpec(
                List.of(Requests.of(Target.of(url))),
                slo == null ? rates : List.of(),
                connections,
                Duration.ofSeconds(10),
                warmupMin,
                warmupMax,
                windows,
                window,
                ramp,
                threadKind,
                appPid,
                slo,
                slo != null);
    }
}
