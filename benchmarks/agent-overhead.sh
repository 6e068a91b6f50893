#!/bin/sh
# Overhead of the loomscope agent on the echo workload: throughput with the agent (defaults, and
# profile=off) beside the same workload without it and, for scale, with only JFR's own default
# recording (-XX:StartFlightRecording:settings=default), in alternating JVMs (none, defaults,
# profile=off, jfr; none, ...) so that the machine's drift falls on all alike. Each JVM runs
# WARMUP warm-up + RUNS measured echo runs and reports its medians of run time and of the
# process's CPU time per run (the warm-up lets the JIT compile the agent's and JFR's code too,
# which takes about 12 s of echo with the agent here against 10 s without:
# steady state is what a long-running app sees). Each round gives, per configuration,
#   throughput(config) / throughput(none) = median time(none) / median time(config)
# from wall time and from CPU time. The summary is the median ratio over the rounds with a
# bootstrap 95% interval (2,000 resamples of the rounds, seeded): on a shared machine single
# rounds swing by 20% either way, and the interval says how far the median can be trusted.
# CLIENT ab drives the server with ApacheBench from outside the JVM (apache2-utils): then the JVM
# measured is the server alone, as an application under the agent would be, not the server plus
# the built-in load generator's 100 platform threads.
#
# usage: benchmarks/agent-overhead.sh [ROUNDS (10)] [THREADS (virtual)] [RUNS (10)] [WARMUP (20)] [CLIENT (builtin)]
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
rounds=${1:-10}
threads=${2:-virtual}
runs=${3:-10}
warmup=${4:-20}
client=${5:-builtin}

bench=agent-overhead
. "$root/benchmarks/setup.sh"
java="$LOOMSCOPE_JAVA_HOME/bin/java"
agent="$root/agent/target/loomscope-agent.jar"
workloads="$root/workloads/target/loomscope-workloads.jar"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# one JVM: "<median run ms> <median process CPU ms per run>", from
# "echo virtual: median 806.8 ms (min ..., max ...) over 5 runs, process CPU median 1210.4 ms"
one() {
    "$java" --enable-native-access=ALL-UNNAMED "$@" -jar "$workloads" echo --threads "$threads" --client "$client" --runs "$runs" --warmup "$warmup" 2>"$out/err" \
        | sed -n 's/^echo [a-z]*: median \([0-9.]*\) ms.*process CPU median \([0-9.]*\) ms.*/\1 \2/p'
}

echo "agent overhead on echo ($threads threads, $client client, n=10000 c=100, $warmup warm-up + $runs runs per JVM, $rounds rounds), JDK $LOOMSCOPE_JAVA_MAJOR, $(nproc) CPUs"
echo "throughput ratios config/none from the median run time (wall) and the median process CPU time per run (cpu)"
echo "round  none ms (cpu)      defaults/none wall cpu  profile=off/none wall cpu  jfr/none wall cpu"
ratios=""
r=1
while [ "$r" -le "$rounds" ]; do
    a=$(one)
    b=$(one "-javaagent:$agent=out=$out/rec")
    c=$(one "-javaagent:$agent=out=$out/rec,profile=off")
    d=$(one "-XX:StartFlightRecording:settings=default,filename=$out/rec/jfr.jfr")
    if [ -z "$a" ] || [ -z "$b" ] || [ -z "$c" ] || [ -z "$d" ]; then
        echo "agent-overhead: a run failed: $(cat "$out/err")" >&2
        exit 1
    fi
    line=$(echo "$r $a $b $c $d" | awk '{ printf "%5d  %6.1f (%6.1f)      %6.3f %6.3f            %6.3f %6.3f          %6.3f %6.3f",
        $1, $2, $3, $2 / $4, $3 / $5, $2 / $6, $3 / $7, $2 / $8, $3 / $9 }')
    echo "$line"
    ratios="$ratios$(echo "$a $b $c $d" | awk '{ print $1 / $3, $2 / $4, $1 / $5, $2 / $6, $1 / $7, $2 / $8 }')
"
    rm -rf "$out/rec"
    r=$((r + 1))
done
printf '%s' "$ratios" | awk '
    { for (k = 1; k <= 6; k++) v[k, NR] = $k }
    function median(x, n,   i, j, t) {
        for (i = 2; i <= n; i++) { t = x[i]; for (j = i - 1; j >= 1 && x[j] > t; j--) x[j + 1] = x[j]; x[j + 1] = t }
        return n % 2 ? x[(n + 1) / 2] : (x[n / 2] + x[n / 2 + 1]) / 2
    }
    # median over the rounds, and the 2.5% and 97.5% percentiles of the medians of 2,000 resamples
    function summary(k,   i, b, x, m) {
        for (i = 1; i <= NR; i++) x[i] = v[k, i]
        mid = median(x, NR)
        for (b = 1; b <= 2000; b++) { for (i = 1; i <= NR; i++) x[i] = v[k, 1 + int(rand() * NR)]; m[b] = median(x, NR) }
        median(m, 2000)
        return sprintf("%.3f [%.3f, %.3f]", mid, m[50], m[1951])
    }
    END {
        srand(1)
        print "median throughput ratio over the rounds [bootstrap 95% interval] (1.000 = no overhead):"
        printf "  agent, defaults:     wall %s, cpu %s\n", summary(1), summary(2)
        printf "  agent, profile=off:  wall %s, cpu %s\n", summary(3), summary(4)
        printf "  JFR default only:    wall %s, cpu %s\n", summary(5), summary(6)
    }'
