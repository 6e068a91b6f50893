#!/usr/bin/env bash
# A server nobody wrote for loomscope, judged by its requests: Jetty 12.1 answering each request
# with an H2 1.4.200 query (benchmarks/server/JettyService.java h2; the query waits WAIT_MS inside H2's
# session monitor), JVMS JVMs a thread kind in alternation, each under the agent with
# work=JettyService$Handle::handle and driven by ApacheBench from another process (a warm-up of 500
# requests, then -n REQUESTS -c 50), on JDK 21 (LOOMSCOPE_JDK21, where synchronized pins) or else
# the launcher's JDK; then `loomscope compare` of the two kinds. Jetty and H2 come from Maven
# Central through ./mvnw into a repository of the script's own (a temporary directory).
# usage: benchmarks/server-verdict.sh [JVMS (5)] [REQUESTS (2000)] [WAIT_MS (2)]
set -eu

. "$(dirname "$0")/setup.sh"
jvms=${1:-5}
requests=${2:-2000}
wait_ms=${3:-2}
command -v ab >/dev/null || { echo "$bench: ab (ApacheBench) is needed (apt-get install apache2-utils)" >&2; exit 2; }
command -v curl >/dev/null || { echo "$bench: curl is needed (apt-get install curl)" >&2; exit 2; }
java=${LOOMSCOPE_JDK21:-$LOOMSCOPE_JAVA_HOME/bin/java}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# the service's jars, and the service compiled for JDK 21
loomscope_jetty_service "$out"
cp=$service_cp

run() { # kind index: one JVM of the service under the agent, warmed up, then ab's measured requests
    local kind=$1 i=$2 port=$((20000 + RANDOM % 20000))
    mkfifo "$out/in-$kind-$i"
    "$java" --enable-native-access=ALL-UNNAMED \
        "-javaagent:$root/agent/target/loomscope-agent.jar=out=$out/rec/$kind,label=jetty-h2,threads=$kind,profile=off,flame=off,trace-pinned=off,work=JettyService\$Handle::handle" \
        -cp "$cp" JettyService "$kind" "$port" h2 "$wait_ms" <"$out/in-$kind-$i" >"$out/log-$kind-$i" 2>&1 &
    local pid=$!
    exec 9>"$out/in-$kind-$i"
    until grep -q ready "$out/log-$kind-$i" 2>/dev/null; do
        kill -0 "$pid" 2>/dev/null || { echo "$bench: the $kind service ended before it served:" >&2; cat "$out/log-$kind-$i" >&2; exit 1; }
        sleep 0.05
    done
    ab -q -n 500 -c 50 "http://127.0.0.1:$port/" >/dev/null 2>&1 || true
    ab -n "$requests" -c 50 "http://127.0.0.1:$port/" 2>/dev/null \
        | awk -v k="$kind" -v i="$i" '/Failed requests/ {failed = $3} /Requests per second/ {rate = $4} END {printf "%s JVM %d: ab %s req/s, %s failed\n", k, i, rate, failed}'
    exec 9>&-
    wait "$pid" || { echo "$bench: the $kind service failed:" >&2; cat "$out/log-$kind-$i" >&2; exit 1; }
}

echo "$bench: $jvms JVMs a kind, $requests requests each after 500 to warm up, a query waiting ${wait_ms} ms; $("$java" -version 2>&1 | head -1)"
for i in $(seq 1 "$jvms"); do
    run platform "$i"
    run virtual "$i"
done
"$root/loomscope" compare "$out/rec/platform" "$out/rec/virtual" --metric throughput --metric "service time p50" --metric "service time p99" \
    --metric "pinned time per unit" --metric "pins per unit" --metric "peak threads"
