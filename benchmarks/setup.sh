# Sourced by the benchmark scripts: finds a JDK 21+ as ./loomscope does (LOOMSCOPE_JAVA_HOME), or
# stops with one line naming the script; then builds the jars when they are missing or stale. Gives the scripts median and loomscope_jdks.
# usage: root=...; bench=<script name>; . "$root/benchmarks/setup.sh"
. "$root/.mvn/find-jdk.sh"
if ! loomscope_find_jdk; then
    echo "$bench: $LOOMSCOPE_JDK_ERROR" >&2
    exit 2
fi
"$root/loomscope" --version >/dev/null

# The large recording the reader benchmarks read: the sleep workload (100,000 tasks of 21 ms, 330
# runs, 2-3 minutes) under the agent, whose default settings record every sleep (about 1.2 GB).
# usage: file=$(loomscope_big_recording DIR)
loomscope_big_recording() {
    echo "$bench: recording the sleep workload into $1 (2-3 minutes)" >&2
    "$LOOMSCOPE_JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED \
        "-javaagent:$root/agent/target/loomscope-agent.jar=out=$1,label=big,threads=virtual,flame=off,trace-pinned=off" \
        -jar "$root/workloads/target/loomscope-workloads.jar" sleep --threads virtual --tasks 100000 --sleep-ms 21 --runs 330 --warmup 0 >/dev/null 2>&1
    ls "$1"/*.jfr | grep -v '\.async-profiler\.jfr$'
}

# The median of the numbers on standard input, one a line (integers or decimals).
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

# A process's CPU time so far, in clock ticks (user + system), or 0 when it is gone.
loomscope_cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null || echo 0; }

# The JDKs a benchmark runs on: the one the launcher finds, and JDK 21 when LOOMSCOPE_JDK21 names one.
loomscope_jdks=("$LOOMSCOPE_JAVA_HOME/bin/java")
if [ -n "${LOOMSCOPE_JDK21:-}" ]; then
    loomscope_jdks+=("$LOOMSCOPE_JDK21")
fi
