#!/usr/bin/env bash
# The CPU 'loomscope watch' takes beside a busy application, by the watcher's JVM options: the
# launcher's own (C1 alone) against others given as arguments, e.g. C2's tiers:
#   benchmarks/watch-cpu.sh 2 -XX:TieredStopAtLevel=4
#
# Design: each round, for each set of options in turn, starts the virtual-thread echo workload
# (the built-in client, unpaced, busy on every core), then 12 s later a watcher through the
# launcher with LOOMSCOPE_JAVA_OPTS set to those options, and reads the two processes' CPU time
# from /proc over two windows of the watcher's life: 10-50 s (its first minute, when the JIT
# compiles) and 120-160 s (running on). The figure is the watcher's CPU over the application's in
# the same window: on a shared machine both slow together, their ratio much less.
#
# usage: benchmarks/watch-cpu.sh [ROUNDS (1)] [JVM OPTIONS ...]
set -euo pipefail

rounds=${1:-1}
shift || true
variants=("" "$@")

. "$(dirname "$0")/setup.sh"
app=""
watcher=""
cleanup() {
    for p in $watcher $app; do
        kill "$p" 2>/dev/null || true
    done
}
trap cleanup EXIT

own="(the launcher's: C1 alone)"

# Prints "WATCHER_TICKS APP_TICKS" over the next $1 seconds.
window() {
    local a0 w0
    a0=$(loomscope_cpu_ticks "$app")
    w0=$(loomscope_cpu_ticks "$watcher")
    sleep "$1"
    if ! kill -0 "$app" 2>/dev/null || ! kill -0 "$watcher" 2>/dev/null; then
        echo "watch-cpu: the echo server or its watcher ended before the window did" >&2
        exit 1
    fi
    echo "$(($(loomscope_cpu_ticks "$watcher") - w0)) $(($(loomscope_cpu_ticks "$app") - a0))"
}

share() { awk -v w="$1" -v a="$2" 'BEGIN { printf "%.2f%%", 100 * w / a }'; }

echo "watch-cpu: the watcher's CPU over the echo workload's (virtual threads, built-in client), JDK $LOOMSCOPE_JAVA_MAJOR, $(nproc) CPUs"
printf '%-6s %-32s %-18s %-18s\n' round "watcher's JVM options" "10-50 s" "120-160 s"
for ((r = 1; r <= rounds; r++)); do
    for v in "${variants[@]}"; do
        "$java" -jar "$workloads" echo --threads virtual --runs 100000 --warmup 0 >/dev/null 2>&1 &
        app=$!
        sleep 12
        LOOMSCOPE_JAVA_OPTS="$v" "$root/loomscope" watch "$app" --format json >/dev/null 2>&1 &
        watcher=$!
        sleep 10
        read -r w1 a1 <<<"$(window 40)"
        sleep 70
        read -r w2 a2 <<<"$(window 40)"
        kill "$watcher" "$app"
        wait "$watcher" "$app" 2>/dev/null || true
        watcher=""
        app=""
        printf '%-6s %-32s %-18s %-18s\n' "$r" "${v:-$own}" "$(share "$w1" "$a1")" "$(share "$w2" "$a2")"
    done
done
