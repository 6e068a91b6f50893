#!/usr/bin/env bash
# A fleet's export on this machine: N study-sized recordings (default 1,000) exported by
# `loomscope export` and by the Spark job (loomscope-spark.jar on Spark's local mode with every core:
# through $SPARK_HOME/bin/spark-submit when SPARK_HOME is set, else on Spark's jars from the Maven
# build's classpath), one after the other; then `loomscope compare` from the export and from the
# recordings. Prints seconds, recordings/s, MB/s and peak RSS (GNU time) of each, and checks that
# the two exports agree (their verdicts).
#
# usage: [SPARK_HOME=DIR] benchmarks/fleet-export.sh [N (1000)] [RECORDINGS_DIR]
# Without RECORDINGS_DIR it runs `loomscope study --quick` once for its recordings (about a
# minute). The N inputs are hard links to those recordings, in turn: the same bytes read N times,
# from the page cache after the first, as a fleet's recordings are read from a local disk.
set -eu

. "$(dirname "$0")/setup.sh"
jdk="$LOOMSCOPE_JAVA_HOME"
n=${1:-1000}
src=${2:-}
[ -x /usr/bin/time ] || { echo "$bench: GNU time (/usr/bin/time) is needed for the peak RSS (apt-get install time)" >&2; exit 2; }
work=$(mktemp -d)
if [ -z "$src" ]; then
    echo "$bench: running loomscope study --quick for its recordings" >&2
    "$root/loomscope" study --quick -o "$work/study" >/dev/null 2>&1
    src="$work/study/recordings"
fi
set -- $(find "$src" -name '*.jfr' | sort)
[ $# -gt 0 ] || { echo "$bench: $src: no .jfr files" >&2; exit 2; }
mkdir -p "$work/fleet"
i=0
while [ $i -lt "$n" ]; do
    for f in "$@"; do
        [ $i -lt "$n" ] || break
        ln "$f" "$work/fleet/r$i-$(basename "$f")" 2>/dev/null || cp "$f" "$work/fleet/r$i-$(basename "$f")"
        i=$((i + 1))
    done
done
mb=$(find "$work/fleet" -name "*.jfr" -printf "%s\n" | awk "{ s += \$1 } END { printf \"%d\", s / 1000000 }")
echo "$n recordings, $mb MB (hard links to $# study recordings: the bytes read), JDK $LOOMSCOPE_JAVA_MAJOR, $(nproc) cores, $(date -u +%Y-%m-%d)"

opens="--add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.lang.invoke=ALL-UNNAMED --add-opens=java.base/java.nio=ALL-UNNAMED
 --add-opens=java.base/sun.nio.ch=ALL-UNNAMED --add-opens=java.base/java.util=ALL-UNNAMED --add-opens=java.base/java.util.concurrent=ALL-UNNAMED
 --add-opens=java.base/java.net=ALL-UNNAMED --add-opens=java.base/java.io=ALL-UNNAMED --add-opens=java.base/sun.util.calendar=ALL-UNNAMED
 --add-opens=java.base/sun.security.action=ALL-UNNAMED --add-opens=java.base/jdk.internal.ref=ALL-UNNAMED --enable-native-access=ALL-UNNAMED"

timed() { # label command...
    label=$1; shift
    /usr/bin/time -f "%e %M" -o "$work/time" "$@" >"$work/$label.out" 2>"$work/$label.err" || { echo "$label failed:"; tail -5 "$work/$label.err"; exit 1; }
    read -r secs rss <"$work/time"
    awk -v l="$label" -v s="$secs" -v r="$rss" -v n="$n" -v mb="$mb" \
        'BEGIN { printf "%-26s %7.1f s  %7.1f recordings/s  %6.1f MB/s  peak RSS %5.0f MB\n", l, s, n / s, mb / s, r / 1024 }'
}
timed "loomscope export" "$root/loomscope" export "$work/fleet" --to "$work/cli"
tail -1 "$work/loomscope export.out" 2>/dev/null || true
spark="spark job (local[$(nproc)])"
if [ -n "${SPARK_HOME:-}" ]; then
    timed "$spark" env JAVA_HOME="$jdk" "$SPARK_HOME/bin/spark-submit" --master "local[$(nproc)]" --driver-memory 4g --conf spark.ui.enabled=false \
        --class dev.loomscope.spark.FleetJob "$root/spark/target/loomscope-spark.jar" "$work/fleet/*.jfr" "$work/spark"
else
    cp=$(mktemp)
    (cd "$root" && ./mvnw -B -q -o dependency:build-classpath -pl spark -Dmdep.includeScope=provided -Dmdep.outputFile="$cp" >/dev/null 2>&1) \
        || (cd "$root" && ./mvnw -B -q dependency:build-classpath -pl spark -Dmdep.includeScope=provided -Dmdep.outputFile="$cp" >/dev/null)
    timed "$spark" "$jdk/bin/java" $opens -Xmx4g "-Dspark.master=local[$(nproc)]" -Dspark.ui.enabled=false \
        -cp "$root/spark/target/loomscope-spark.jar:$(cat "$cp")" dev.loomscope.spark.FleetJob "$work/fleet/*.jfr" "$work/spark"
fi
timed "compare the export" "$root/loomscope" compare "$work/cli"
timed "compare the recordings" "$root/loomscope" compare "$work/fleet"
verdicts() { sed -n '/^Verdicts/,/^$/p' "$1" | sed 's/^  //' | grep ' vs ' | sort; }
verdicts "$work/compare the export.out" >"$work/cli.verdicts"
verdicts "$work/compare the recordings.out" >"$work/recordings.verdicts"
grep ' vs ' "$work/$spark.out" | sort >"$work/spark.verdicts"
if cmp -s "$work/cli.verdicts" "$work/spark.verdicts" && cmp -s "$work/cli.verdicts" "$work/recordings.verdicts"; then
    echo "verdicts: the same from the recordings, the export and the Spark job ($(wc -l <"$work/cli.verdicts") lines)"
else
    echo "verdicts differ:"; diff "$work/cli.verdicts" "$work/spark.verdicts"; diff "$work/cli.verdicts" "$work/recordings.verdicts" || true
fi
rm -rf "$work"
