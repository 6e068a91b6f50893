#!/bin/sh
# Reproduces the background presentation's JMH tables on this machine:
#   1. Game of Life, padding 25, thread per cell, BlockingQueue channels, virtual vs platform,
#      with context switches per operation (-prof ctxsw, and perfnorm when perf can count them);
#   2. ThreadsBenchmark: 10,000 tasks sleeping 200 ms on a cached pool, a platform thread per task
#      and a virtual thread per task (average time per batch).
# Then reports them with `loomscope jmh` (Markdown on stdout, charts in OUT/report/index.html).
#
# usage: workloads/run-benchmarks.sh [--quick] [OUT]    (OUT defaults to ./loomscope-jmh)
# About 5 minutes on 2 cores (3 forks each); --quick: 1 fork, about 2 minutes.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
forks=3
if [ "${1:-}" = "--quick" ]; then
    forks=1
    shift
fi
out=${1:-loomscope-jmh}
forks_text="$forks forks"
[ "$forks" = 1 ] && forks_text="1 fork"
mkdir -p "$out"

. "$root/.mvn/find-jdk.sh"
if ! loomscope_find_jdk; then
    echo "run-benchmarks: $LOOMSCOPE_JDK_ERROR" >&2
    exit 2
fi
java="$LOOMSCOPE_JAVA_HOME/bin/java"
# JMH 1.37 uses sun.misc.Unsafe: JDK 24+ warns about it on every run unless allowed
unsafe=""
if [ "$LOOMSCOPE_JAVA_MAJOR" -ge 24 ]; then
    unsafe="--sun-misc-unsafe-memory-access=allow"
fi
"$root/loomscope" --version >/dev/null # builds the jars when they are missing or stale
jar="$root/workloads/target/benchmarks.jar"

# perfnorm needs perf counting kernel events: root, or kernel.perf_event_paranoid <= 1. Without
# that perf counts user mode only and reports context-switches:u = 0, so leave it out.
profilers="-prof ctxsw"
if command -v perf >/dev/null 2>&1 \
        && perf stat -x, -e context-switches true 2>&1 | grep -q '^[0-9][0-9]*,,context-switches' \
        && { [ "$(id -u)" = 0 ] || [ "$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo 2)" -le 1 ]; }; then
    profilers="$profilers -prof perfnorm:events=context-switches,cpu-migrations"
else
    echo "run-benchmarks: perf cannot count kernel context switches here (needs root or kernel.perf_event_paranoid <= 1); ctxsw only" >&2
fi

echo "run-benchmarks: Game of Life, padding 25 ($forks_text)" >&2
# shellcheck disable=SC2086
"$java" $unsafe -jar "$jar" GameOfLifeBenchmark -p padding=25 -p threadPerCell=true -p channelType=BlockingQueue \
    -f "$forks" -wi 2 -w 2 -i 3 -r 2 $profilers -rf json -rff "$out/gameoflife.json" >"$out/gameoflife.txt"

echo "run-benchmarks: ThreadsBenchmark, 10,000 tasks of 200 ms ($forks_text)" >&2
# shellcheck disable=SC2086
"$java" $unsafe -jar "$jar" ThreadsBenchmark -p tasks=10000 -p sleepMs=200 -bm avgt \
    -f "$forks" -wi 1 -w 5 -i 3 -r 5 -prof ctxsw -rf json -rff "$out/threads.json" >"$out/threads.txt"

"$root/loomscope" jmh "$out/gameoflife.json" "$out/threads.json" --format md --html "$out/report"
