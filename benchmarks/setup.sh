# Sourced by the benchmark scripts: finds a JDK 21+ as ./loomscope does (LOOMSCOPE_JAVA_HOME), or
# stops with one line naming the script; then builds the jars when they are missing or stale. Gives the
# scripts root (the repository), bench (the script's name, which its messages begin with), java, agent,
# workloads, median and loomscope_jdks.
# usage: . "$(dirname "$0")/setup.sh"
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bench=$(basename "$0" .sh)
. "$root/.mvn/find-jdk.sh"
if ! loomscope_find_jdk; then
    echo "$bench: $LOOMSCOPE_JDK_ERROR" >&2
    exit 2
fi
"$root/loomscope" --version >/dev/null

# What the scripts run: the JDK's java (a script may choose another after this), the agent's and the workloads' jars.
java="$LOOMSCOPE_JAVA_HOME/bin/java"
agent="$root/agent/target/loomscope-agent.jar"
workloads="$root/workloads/target/loomscope-workloads.jar"

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

# The recording a reader benchmark reads: FILE when given (or one line and exit 2 when it is not a readable file), else the
# large recording above, made now.
# usage: file=$(loomscope_recording "${1:-}")
loomscope_recording() {
    if [ -z "$1" ]; then
        loomscope_big_recording "$(mktemp -d)"
    elif [ -f "$1" ] && [ -r "$1" ]; then
        echo "$1"
    else
        echo "$bench: $1: not a readable file (give a JFR recording, or nothing to have one made)" >&2
        exit 2
    fi
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

# A free TCP port on 127.0.0.1.
loomscope_free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# The load module's test servers (KnownAnswerServer, DemoService) and the class path they run on, built when missing: sets
# test_servers_cp.
loomscope_test_classpath() {
    local cp="$root/load/target/test-servers.classpath"
    if [ ! -f "$cp" ] || [ ! -f "$root/load/target/test-classes/dev/loomscope/load/DemoService.class" ]; then
        (cd "$root" && ./mvnw -B -q -pl load -am test-compile dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile="$cp" >&2)
    fi
    test_servers_cp="$root/load/target/test-classes:$root/load/target/classes:$(cat "$cp")"
}

# Starts the tests' known-answer server (KnownAnswerServer: WORKERS workers each holding a request HOLD_MS ms, on KIND threads)
# with the JVM options after them, its output in LOG, and waits until it answers; sets known_answer_pid and known_answer_url.
# usage: loomscope_known_answer WORKERS HOLD_MS KIND LOG [JVM OPTIONS ...]
loomscope_known_answer() {
    local workers=$1 hold=$2 kind=$3 log=$4 port
    shift 4
    loomscope_test_classpath
    port=$(loomscope_free_port)
    "$LOOMSCOPE_JAVA_HOME/bin/java" "$@" -cp "$test_servers_cp" \
        dev.loomscope.load.KnownAnswerServer "$port" "$workers" "$hold" "$kind" >"$log" 2>&1 &
    known_answer_pid=$!
    known_answer_url="http://127.0.0.1:$port/"
    for _ in $(seq 200); do curl -s -o /dev/null "$known_answer_url" && return 0; sleep 0.1; done
    echo "$bench: the known-answer server did not answer (see $log)" >&2
    return 1
}

# Starts the tests' Jetty service (DemoService: /io waits 20 ms, /legacy holds one of 64 monitors around a 10 ms wait, on KIND threads)
# on JAVA with the JVM options after them, its output in LOG, and waits until it answers; sets demo_pid and demo_url (its root).
# usage: loomscope_demo_service JAVA KIND LOG [JVM OPTIONS ...]
loomscope_demo_service() {
    local java=$1 kind=$2 log=$3 port
    shift 3
    loomscope_test_classpath
    port=$(loomscope_free_port)
    "$java" "$@" -cp "$test_servers_cp" dev.loomscope.load.DemoService --port "$port" --threads "$kind" >"$log" 2>&1 &
    demo_pid=$!
    demo_url="http://127.0.0.1:$port"
    for _ in $(seq 300); do curl -s -o /dev/null "$demo_url/" && return 0; sleep 0.1; done
    echo "$bench: the Jetty service did not answer (see $log)" >&2
    return 1
}

# One artifact (group:artifact:version) and what it needs fetched from Maven Central through ./mvnw into the
# Maven repository REPO; or one line naming it and status 2.
# usage: loomscope_fetch REPO ARTIFACT
loomscope_fetch() {
    "$root/mvnw" -q -B "-Dmaven.repo.local=$1" dependency:get "-Dartifact=$2" >/dev/null \
        || { echo "$bench: could not fetch $2 from Maven Central" >&2; return 2; }
}

# benchmarks/server/NAME.java compiled for JDK 21 into DIR/classes, with the ARTIFACTS (group:artifact:version, one
# string) fetched from Maven Central into DIR/m2; sets service_cp: the classes and the jars whose paths match one of
# the PATTERNS (the fetch also brings Maven's own jars into DIR/m2).
# usage: loomscope_service DIR NAME ARTIFACTS PATTERN...
loomscope_service() {
    local dir=$1 name=$2 artifacts=$3 artifact jars pattern paths=()
    shift 3
    for artifact in $artifacts; do
        loomscope_fetch "$dir/m2" "$artifact" || return 2
    done
    for pattern in "$@"; do paths+=(-o -path "$pattern"); done
    jars=$(find "$dir/m2" -name '*.jar' \( "${paths[@]:1}" \) | sort | tr '\n' ':')
    mkdir -p "$dir/classes"
    "$LOOMSCOPE_JAVA_HOME/bin/javac" --release 21 -d "$dir/classes" -cp "$jars" "$root/benchmarks/server/$name.java"
    service_cp="$dir/classes:$jars"
}

# benchmarks/server/JettyService.java (Jetty 12.1, H2 1.4.200, Caffeine) built into DIR; sets service_cp.
# usage: loomscope_jetty_service DIR
loomscope_jetty_service() {
    loomscope_service "$1" JettyService \
        "org.eclipse.jetty:jetty-server:12.1.14 com.h2database:h2:1.4.200 com.github.ben-manes.caffeine:caffeine:3.2.3" \
        '*jetty*' '*h2database*' '*slf4j-api/2*' '*caffeine*'
}

# benchmarks/server/VertxService.java (Vert.x 5.0.7 and its reactive MySQL client on Netty) built into DIR; sets
# service_cp.
# usage: loomscope_vertx_service DIR
loomscope_vertx_service() {
    loomscope_service "$1" VertxService "io.vertx:vertx-mysql-client:5.0.7" \
        '*io/vertx/vertx-core*' '*io/vertx/vertx-sql-client/*' '*io/vertx/vertx-mysql-client/*' '*io/netty/*' \
        '*jackson-core*'
}
