#!/bin/sh
# Overhead of the loomscope agent on the echo workload: throughput with the agent (defaults, and
# profile=off) beside the same workload without it, in alternating JVMs (A B C, A B C, ...) so
# that the machine's drift falls on all three alike. Each JVM runs WARMUP warm-up + RUNS measured
# echo runs and reports its median (the warm-up lets the JIT compile the agent's and JFR's code
# too: steady state is what a long-running app sees); each round gives the ratios
#   throughput(agent) / throughput(no agent) = median time(no agent) / median time(agent).
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

# median run time in ms of one JVM: "echo virtual: median 806.8 ms (min ..."
one() {
    "$java" --enable-native-access=ALL-UNNAMED "$@" -jar "$workloads" echo --threads "$threads" --runs "$runs" --warmup "$warmup" 2>"$out/err" \
        | sed -n 's/^echo [a-z]*: median \([0-9.]*\) ms.*/\1/p'
}

echo "agent overhead on echo ($threads threads, n=10000 c=100, $warmup warm-up + $runs runs per JVM, $rounds rounds), JDK $LOOMSCOPE_JAVA_MAJOR"
echo "round  none (ms)  defaults (ms)  profile=off (ms)  defaults/none  off/none (throughput ratios)"
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
    line=$(awk -v a="$a" -v b="$b" -v c="$c" -v r="$r" 'BEGIN { printf "%5d  %9.1f  %13.1f  %16.1f  %13.3f  %8.3f", r, a, b, c, a / b, a / c }')
    echo "$line"
    ratios="$ratios$line
"
    rm -rf "$out/rec"
    r=$((r + 1))
done
printf '%s' "$ratios" | awk '
    { d[NR] = $5; o[NR] = $6 }
    function median(x, n,   i, j, t) {
        for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (x[j] < x[i]) { t = x[i]; x[i] = x[j]; x[j] = t }
        return n % 2 ? x[(n + 1) / 2] : (x[n / 2] + x[n / 2 + 1]) / 2
    }
    END { printf "median throughput ratio: defaults %.3f, profile=off %.3f (1.000 = no overhead)\n", median(d, NR), median(o, NR) }'
