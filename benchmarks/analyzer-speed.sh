#!/bin/sh
# Speed of `loomscope summary` on a large recording, beside the JDK's own `jfr summary` and
# `jfr view gc-pauses` (same JDK, same file), alternating, ROUNDS times each. The CLI runs with
# -Xmx512m: finishing is the proof that its heap stays under 512 MB. Prints seconds, MB/s and
# peak RSS per tool (RSS counts the file pages the readers map; GNU time is needed for it).
#
# usage: benchmarks/analyzer-speed.sh [RECORDING.jfr] [ROUNDS (3)]
# Without a recording it makes one of about 1.2 GB: the sleep workload (100,000 tasks of 21 ms,
# 330 runs, about 2.5 minutes) under the agent, whose default settings record every sleep.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
bench=analyzer-speed
. "$root/benchmarks/setup.sh"
jdk="$LOOMSCOPE_JAVA_HOME"

file=${1:-}
rounds=${2:-3}
if [ -z "$file" ]; then
    dir=$(mktemp -d)
    echo "analyzer-speed: recording the sleep workload into $dir (about 2.5 minutes)" >&2
    "$jdk/bin/java" --enable-native-access=ALL-UNNAMED \
        "-javaagent:$root/agent/target/loomscope-agent.jar=out=$dir,label=big,threads=virtual,flame=off,trace-pinned=off" \
        -jar "$root/workloads/target/loomscope-workloads.jar" sleep --threads virtual --tasks 100000 --sleep-ms 21 --runs 330 --warmup 0 >/dev/null 2>&1
    file=$(ls "$dir"/*.jfr)
fi
mb=$(( $(wc -c <"$file") / 1000000 ))
echo "file: $file ($mb MB), JDK $LOOMSCOPE_JAVA_MAJOR, $(nproc) cores"

timed() { # label command...: prints "label seconds MB/s rss-MB"
    label=$1
    shift
    if [ -x /usr/bin/time ]; then
        /usr/bin/time -f "%e %M" -o "$tmp" "$@" >/dev/null 2>&1
        awk -v l="$label" -v mb="$mb" '{ printf "%-24s %7.2f s  %7.0f MB/s  %6.0f MB RSS\n", l, $1, mb / $1, $2 / 1024 }' "$tmp"
    else
        start=$(date +%s.%N)
        "$@" >/dev/null 2>&1
        awk -v l="$label" -v mb="$mb" -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%-24s %7.2f s  %7.0f MB/s\n", l, e - s, mb / (e - s) }'
    fi
}
tmp=$(mktemp)
r=1
while [ "$r" -le "$rounds" ]; do
    echo "round $r"
    LOOMSCOPE_JAVA_OPTS=-Xmx512m timed "loomscope summary" "$root/loomscope" summary "$file"
    timed "jfr summary" "$jdk/bin/jfr" summary "$file"
    timed "jfr view gc-pauses" "$jdk/bin/jfr" view gc-pauses "$file"
    r=$((r + 1))
done
rm -f "$tmp"
