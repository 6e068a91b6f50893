#!/usr/bin/env bash
# The thesis's echo series (../shared/SEED-FIGURES.md, source 1): the echo workload's server on
# platform and on virtual threads, one JVM a kind as the thesis ran one server a kind, driven by
# ApacheBench (ab -c 100) from another process, REQUESTS a run and RUNS runs after 5 warm-up runs,
# each JVM under the agent (heap after each GC); then `loomscope compare` of the two kinds: the run
# time's median and its spread (the ratio of the interquartile ranges, the thesis's boxes), the heap.
# usage: benchmarks/echo-series.sh [REQUESTS:RUNS ...] (default 1000:100 1000:1000 10000:100 10000:500 100000:100: the thesis's series, 75 minutes on 2 cores)
# The recordings stay in ECHO_SERIES_OUT when it is set (for docs/results.md), else in a temporary directory.
set -eu

. "$(dirname "$0")/setup.sh"
command -v ab >/dev/null || { echo "$bench: ab (ApacheBench) is needed (apt-get install apache2-utils)" >&2; exit 2; }
if [ $# -eq 0 ]; then
    set -- 1000:100 1000:1000 10000:100 10000:500 100000:100
fi
if [ -n "${ECHO_SERIES_OUT:-}" ]; then
    out=$ECHO_SERIES_OUT
    mkdir -p "$out"
else
    out=$(mktemp -d)
    trap 'rm -rf "$out"' EXIT
fi
echo "$(nproc) cores, $(date -u +%Y-%m-%d), commit $(git -C "$root" rev-parse --short HEAD), $("$LOOMSCOPE_JAVA_HOME/bin/java" -version 2>&1 | head -n 1)"
for series in "$@"; do
    requests=${series%%:*}
    runs=${series##*:}
    case "$requests$runs" in *[!0-9]*|"") echo "$bench: '$series' is not REQUESTS:RUNS (e.g. 10000:100)" >&2; exit 2 ;; esac
    dir="$out/$requests-x-$runs"
    for kind in platform virtual; do
        start=$(date +%s)
        "$LOOMSCOPE_JAVA_HOME/bin/java" \
            "-javaagent:$root/agent/target/loomscope-agent.jar=out=$dir/$kind,label=echo-$requests-$kind,threads=$kind,profile=off,flame=off,trace-pinned=off" \
            -jar "$root/workloads/target/loomscope-workloads.jar" echo --threads "$kind" --client ab --n "$requests" --c 100 \
            --runs "$runs" --warmup 5 >"$dir-$kind.log" 2>&1 \
            || { echo "$bench: the $kind echo server failed ($series): $(tail -n 3 "$dir-$kind.log")" >&2; exit 1; }
        echo "$requests requests x $runs runs, $kind: $(($(date +%s) - start)) s"
    done
    "$root/loomscope" compare "$dir" --metric "run time" --metric "heap after gc max"
done
