#!/usr/bin/env bash
# What the agent's work= costs a call: a method called in a tight loop (step: a multiply and an add,
# about 1 ns, a hot method nobody should name) and a method that does about a microsecond of work (a
# small request), each called N times on one thread and on four, timed without the agent, with the
# agent without work=, and with work= naming the method; side by side in each round, the median of
# the rounds, on the JDK the launcher finds and, when LOOMSCOPE_JDK21 names one, on JDK 21 too.
# Prints ns a call and the factor over no agent, and the recording's size.
# usage: benchmarks/work-overhead.sh [ROUNDS (3)] [CALLS (50000000)]
set -eu

. "$(dirname "$0")/setup.sh"
rounds=${1:-3}
calls=${2:-50000000}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cat >"$out/WorkLoop.java" <<'JAVA'
public class WorkLoop {
    static volatile long sink;
    static long step(long i) { return i * 31 + 7; }
    static long request(long i) { long x = i; for (int k = 0; k < 2000; k++) x = (x * 6364136223846793005L + 1442695040888963407L) ^ (x >>> 29); return x; }
    public static void main(String[] a) throws Exception {
        String method = a[0];
        long n = Long.parseLong(a[1]);
        int threads = Integer.parseInt(a[2]);
        Thread[] ts = new Thread[threads];
        long t0 = System.nanoTime();
        for (int t = 0; t < threads; t++) {
            ts[t] = new Thread(() -> { long x = 0; for (long i = 0; i < n / threads; i++) x += method.equals("step") ? step(i) : request(i); sink = x; });
            ts[t].start();
        }
        for (Thread t : ts) t.join();
        System.out.println((System.nanoTime() - t0) / (double) n);
    }
}
JAVA
"$LOOMSCOPE_JAVA_HOME/bin/javac" --release 21 -d "$out" "$out/WorkLoop.java"
echo "$(nproc) cores, $(date -u +%Y-%m-%d), commit $(git -C "$root" rev-parse --short HEAD), $rounds rounds"
for java in "${loomscope_jdks[@]}"; do
    echo "$("$java" -version 2>&1 | head -n 1)"
    printf "  %-8s %-8s %12s %12s %12s %8s %10s\n" method threads "no agent" "agent" "work=" factor recording
    for method in step request; do
        n=$calls
        [ "$method" = request ] && n=$((calls / 500))
        for threads in 1 4; do
            for ((r = 1; r <= rounds; r++)); do
                "$java" -cp "$out" WorkLoop "$method" "$n" "$threads" >>"$out/none"
                "$java" -javaagent:"$agent"=out="$out/rec0",profile=off,flame=off,startup=before-main -cp "$out" WorkLoop "$method" "$n" "$threads" 2>/dev/null >>"$out/agent"
                rm -rf "$out/rec"
                "$java" -javaagent:"$agent"=out="$out/rec",profile=off,flame=off,startup=before-main,work=WorkLoop::"$method" -cp "$out" WorkLoop "$method" "$n" "$threads" 2>/dev/null >>"$out/work"
            done
            a=$(median <"$out/none"); b=$(median <"$out/agent"); c=$(median <"$out/work")
            size=$(du -k "$out"/rec/*.jfr | awk '{s += $1} END {print s " KB"}')
            printf "  %-8s %-8s %9.1f ns %9.1f ns %9.1f ns %7.1fx %10s\n" "$method" "$threads" "$a" "$b" "$c" "$(awk -v c="$c" -v a="$a" 'BEGIN {print c / a}')" "$size"
            rm -f "$out/none" "$out/agent" "$out/work"
        done
    done
done
