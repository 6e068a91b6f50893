#!/bin/sh
# Overhead of the loomscope agent on the echo workload: throughput with the agent (defaults, and
# profile=off) beside the same workload without it, in alternating JVMs (A B C, A B C, ...) so
# that the machine's drift falls on all three alike. Each JVM runs WARMUP warm-up + RUNS measured
# echo runs and reports its medians of run time and of the process's CPU time per run (the
# warm-up lets the JIT compile the agent's and JFR's code too: steady state is what a long-running
# app sees); each round gives the ratios
#   throughput(agent) / throughput(no agent) = median time(no agent) / median time(agent),
# from wall time and from CPU time (on a saturated machine throughput follows CPU per request,
# which a noisy neighbour disturbs less than wall time).
# Prints every round and the median ratio of each configuration.
#
# usage: benchmarks/agent-overhead.sh [ROUNDS (10)] [THREADS (virtual)] [RUNS (5)] [WARMUP (3)]
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
rounds=${1:-10}
threads=${2:-virtual}
runs=${3:-5}
warmup=${4:-3}

. "$root/.mvn/find-jdk.sh"
if ! loomscope_find_jdk; then
    echo "agent-overhead: $LOOMSCOPE_JDK_ERROR" >&2
    exit 2
fi
java="$LOOMSCOPE_JAVA_HOME/bin/java"
"$root/loomscope" --version >/dev/null # builds the jars when they are missing or stale
agent="$root/agent/target/loomscope-agent.jar"
workloads="$root/workloads/target/loomscope-workloads.jar"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# one JVM: "<median run ms> <median process CPU ms per run>", from
# "echo virtual: median 806.8 ms (min ..., max ...) over 5 runs, process CPU median 1210.4 ms"
one() {
    "$java" --enable-native-access=ALL-UNNAMED "$@" -jar "$workloads" echo --threads "$threads" --runs "$runs" --warmup "$warmup" 2>"$out/err" \
        | sed -n 's/^echo [a-z]*: median \([0-9.]*\) ms.*process CPU median \([0-9.]*\) ms.*/\1 \2/p'
}

echo "agent overhead on echo ($threads threads, n=10000 c=100, $warmup warm-up + $runs runs per JVM, $rounds rounds), JDK $LOOMSCOPE_JAVA_MAJOR"
echo "throughput ratios agent/none from the median run time (wall) and from the median process CPU time per run (cpu)"
echo "round  none ms (cpu)      defaults ms (cpu)  profile=off ms (cpu)  defaults/none wall cpu  off/none wall cpu"
ratios=""
r=1
while [ "$r" -le "$rounds" ]; do
    a=$(one)
    b=$(one "-javaagent:$agent=out=$out/rec")
    c=$(one "-javaagent:$agent=out=$out/rec,profile=off")
    if [ -z "$a" ] || [ -z "$b" ] || [ -z "$c" ]; then
        echo "agent-overhead: a run failed: $(cat "$out/err")" >&2
        exit 1
    fi
    line=$(echo "$r $a $b $c" | awk '{ printf "%5d  %6.1f (%6.1f)  %6.1f (%6.1f)    %6.1f (%6.1f)      %6.3f %6.3f     %6.3f %6.3f", $1, $2, $3, $4, $5, $6, $7, $2 / $4, $3 / $5, $2 / $6, $3 / $7 }')
    echo "$line"
    ratios="$ratios$line
"
    rm -rf "$out/rec"
    r=$((r + 1))
done
printf '%s' "$ratios" | awk '
    { dw[NR] = $8; dc[NR] = $9; ow[NR] = $10; oc[NR] = $11 }
    function median(x, n,   i, j, t) {
        for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (x[j] < x[i]) { t = x[i]; x[i] = x[j]; x[j] = t }
        return n % 2 ? x[(n + 1) / 2] : (x[n / 2] + x[n / 2 + 1]) / 2
    }
    END { printf "median throughput ratio (1.000 = no overhead): defaults %.3f wall, %.3f cpu; profile=off %.3f wall, %.3f cpu\n",
          median(dw, NR), median(dc, NR), median(ow, NR), median(oc, NR) }'
