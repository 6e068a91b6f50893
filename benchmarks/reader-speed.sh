#!/usr/bin/env bash
# The JFR parsers a JVM tool can use, one pass each over the same large recording (JMH,
# benchmarks/reader): loomscope's reader, the JDK's (jdk.jfr.consumer streaming), JMC's
# (JfrLoaderToolkit) and async-profiler's (one.jfr.JfrReader); every event each decodes (pass=all)
# and one type's (pass=one, jdk.ObjectAllocationSample). Single-shot passes, 1 warm-up + 3 measured,
# one fork each with a 16 GB heap, first on one CPU (-XX:ActiveProcessorCount=1) then on all
# (JMC's: one pass, on all CPUs).
# Prints JMH's table (ms a pass) and, per pass, the events handed on, the heap's peak and the threads.
#
# usage: benchmarks/reader-speed.sh [RECORDING.jfr] [PARSERS (loomscope jdk jmc asyncProfiler)]
# Without a recording it makes the one analyzer-speed.sh reads (about 1.2 GB, 2-3 minutes).
set -eu

. "$(dirname "$0")/setup.sh"
file=$(loomscope_recording "${1:-}")
parsers=${2:-"loomscope jdk jmc asyncProfiler"}
(cd "$root" && ./mvnw -B -q -DskipTests -Dspotless.check.skip=true -pl recording -am install \
    && ./mvnw -B -q -Dspotless.check.skip=true -f benchmarks/reader/pom.xml package) >&2
jar="$root/benchmarks/reader/target/reader-benchmarks.jar"
echo "file: $file ($(( $(wc -c <"$file") / 1000000 )) MB), JDK $LOOMSCOPE_JAVA_MAJOR, $(nproc) cores, $(date -u +%Y-%m-%d)"
# JMC's parser holds every event and takes minutes a pass on such a file: one pass, on all CPUs
run() { # CPUS REGEX JMH-OPTIONS...
    cpus=$1
    regex=$2
    shift 2
    "$LOOMSCOPE_JAVA_HOME/bin/java" -jar "$jar" "$regex" -p "file=$file" -jvmArgsAppend "-XX:ActiveProcessorCount=$cpus -Xmx16g" "$@" 2>&1 \
        | grep -E '^# (Benchmark|Parameters):|^\[reader\]|^Benchmark |^ReaderBenchmark\.|Exception|Error'
}
others=$(echo $parsers | tr ' ' '\n' | grep -v '^jmc$' | tr '\n' '|' | sed 's/|$//')
for cpus in 1 "$(nproc)"; do
    echo "== $cpus CPU(s)"
    [ -z "$others" ] || run "$cpus" "ReaderBenchmark\.($others)\$"
done
case " $parsers " in *" jmc "*) echo "== JMC's parser, $(nproc) CPU(s), one pass"; run "$(nproc)" 'ReaderBenchmark\.jmc$' -wi 0 -i 1 ;; esac
