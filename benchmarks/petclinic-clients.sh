#!/usr/bin/env bash
# Spring PetClinic under closed-loop and open-loop clients, for docs/study.md's PetClinic worked example
# beside the study's capacities: one fresh JVM a kind (platform, then virtual threads) of the jar
# benchmarks/apps.sh built, warmed by `wrk -t1 -c8` for WARM seconds (a platform JVM warmed at 50
# connections from its start served less at 50 a minute later than one warmed at 8), then on the
# same warm JVM: `wrk -t1 --latency` for SECONDS at each of CONCURRENCY connections (closed loop:
# that many requests always in flight), `ab -k -c50 -n 20000`, and `loomscope load` open loop at each
# of RATES over 100 connections (5 windows of 2 s after its warm-up). Prints a line per kind and
# client: requests a second, p50, p99 and timeouts or the longest request, and each open-loop rate's
# outcome. The full outputs are kept in target/petclinic-clients.
#
# usage: benchmarks/petclinic-clients.sh [SECONDS (30)] [WARM (180)]
#        JDK=JDK_HOME (default: the JDK 21 of LOOMSCOPE_JDK21 or .ci/jdk21)
#        CONCURRENCY="2 8 50" RATES=800,1000,1200,1400
set -euo pipefail
seconds=${1:-30}
warm=${2:-180}
concurrency=${CONCURRENCY:-2 8 50}
rates=${RATES:-800,1000,1200,1400}
. "$(dirname "$0")/setup.sh"
for tool in wrk ab curl; do
    command -v "$tool" >/dev/null || { echo "$bench: $tool is needed (apt-get install wrk apache2-utils curl)" >&2; exit 2; }
done
jar="$root/target/apps/build/spring-petclinic.jar"
[ -f "$jar" ] || { echo "$bench: $jar is missing: build it with benchmarks/apps.sh first" >&2; exit 2; }
jdk=${JDK:-$(dirname "$(dirname "${LOOMSCOPE_JDK21:-$("$root/.ci/jdk21")}")")}
[ -x "$jdk/bin/java" ] || { echo "$bench: $jdk/bin/java is not there: give JDK=JDK_HOME, a JDK 21 or later" >&2; exit 2; }
out="$root/target/petclinic-clients"
mkdir -p "$out"
port=$(loomscope_free_port)
url="http://127.0.0.1:$port/owners/1"
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; wait 2>/dev/null' EXIT
echo "$bench: $(nproc) cores; $("$jdk/bin/java" -version 2>&1 | head -1); warm ${warm} s, measured ${seconds} s" >&2
for kind in platform virtual; do
    virtual=false
    [ "$kind" = virtual ] && virtual=true
    "$jdk/bin/java" -jar "$jar" --server.port="$port" --spring.threads.virtual.enabled="$virtual" \
        >"$out/$kind.service.log" 2>&1 &
    pid=$!
    for _ in $(seq 240); do curl -sf -o /dev/null "$url" && break; sleep 0.5; done
    curl -sf -o /dev/null "$url" || { echo "$bench: PetClinic did not answer (see $out/$kind.service.log)" >&2; exit 2; }
    wrk -t1 -c8 -d"${warm}s" "$url" >"$out/$kind.warm.txt"
    for c in $concurrency; do
        wrk -t1 -c"$c" -d"${seconds}s" --latency "$url" >"$out/$kind.wrk-c$c.txt"
        awk -v kind="$kind" -v c="$c" '/Requests\/sec/ { rate = $2 } / 50%/ { p50 = $2 } / 99%/ { p99 = $2 }
            /timeout/ { t = $NF } END { printf "%s wrk -c%s: %s/s, p50 %s, p99 %s, %d timeouts\n", kind, c, rate, p50, p99, t }' \
            "$out/$kind.wrk-c$c.txt"
    done
    ab -k -c50 -n 20000 "$url" >"$out/$kind.ab.txt" 2>&1
    awk -v kind="$kind" '/Requests per second/ { rate = $4 } /^  50%/ { p50 = $2 } /^  99%/ { p99 = $2 }
        /longest request/ { max = $2 } END { printf "%s ab -k -c50: %s/s, p50 %s ms, p99 %s ms, longest %s ms\n", kind, rate, p50, p99, max }' \
        "$out/$kind.ab.txt"
    "$root/loomscope" load --url "$url" --rate "$rates" --connections 100 --max-warmup 10s --threads "$kind" \
        --results "$out/$kind.load.csv" >"$out/$kind.load.txt" 2>&1 \
        || { echo "$bench: loomscope load failed: $(tail -1 "$out/$kind.load.txt")" >&2; exit 2; }
    grep -E '^GET [^ ]+ at [0-9]+/s: ' "$out/$kind.load.txt" | sed -E \
        "s/^GET [^ ]+ at ([0-9]+\/s): [^:]*: [^:]*: ([0-9,]+ answered \([^)]*\)), ([^;]*); (NOT KEEPING UP[^;]*; )?.*intended start [^)]*\): (p50 [0-9,.]+ ms, p99 [0-9,.]+ ms),.*/$kind open loop at \1: \2, \3, \4\5/"
    kill "$pid"
    wait "$pid" 2>/dev/null || true
    pid=
done
