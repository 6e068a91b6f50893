#!/usr/bin/env bash
# Spring PetClinic under closed-loop clients, for docs/study.md's PetClinic worked example beside the
# study's capacities: one fresh JVM a kind (platform, then virtual threads) of the jar benchmarks/apps.sh
# built, warmed by `wrk -t1 -c50` for WARM seconds, then measured by `wrk -t1 -c50 --latency` for
# SECONDS and `ab -k -c50 -n 20000`; prints each client's requests a second, p50, p99 and timeouts or
# longest request, a line per kind and client. The full outputs are kept in target/petclinic-clients.
#
# usage: benchmarks/petclinic-clients.sh [SECONDS (30)] [WARM (60)]
#        JDK=JDK_HOME (default: the JDK 21 of LOOMSCOPE_JDK21 or .ci/jdk21)
set -euo pipefail
seconds=${1:-30}
warm=${2:-60}
. "$(dirname "$0")/setup.sh"
for tool in wrk ab curl; do
    command -v "$tool" >/dev/null || { echo "$bench: $tool is needed (apt-get install wrk apache2-utils curl)" >&2; exit 2; }
done
jar="$root/target/apps/build/spring-petclinic.jar"
[ -f "$jar" ] || { echo "$bench: $jar is missing: build it with benchmarks/apps.sh first" >&2; exit 2; }
jdk=${JDK:-$(dirname "$(dirname "${LOOMSCOPE_JDK21:-$("$root/.ci/jdk21")}")")}
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
    wrk -t1 -c50 -d"${warm}s" "$url" >"$out/$kind.warm.txt"
    wrk -t1 -c50 -d"${seconds}s" --latency "$url" >"$out/$kind.wrk.txt"
    ab -k -c50 -n 20000 "$url" >"$out/$kind.ab.txt" 2>&1
    kill "$pid"
    wait "$pid" 2>/dev/null || true
    pid=
    awk -v kind="$kind" '/Requests\/sec/ { rate = $2 } / 50%/ { p50 = $2 } / 99%/ { p99 = $2 }
        /timeout/ { t = $NF } END { printf "%s wrk: %s/s, p50 %s, p99 %s, %d timeouts\n", kind, rate, p50, p99, t }' \
        "$out/$kind.wrk.txt"
    awk -v kind="$kind" '/Requests per second/ { rate = $4 } /^  50%/ { p50 = $2 } /^  99%/ { p99 = $2 }
        /longest request/ { max = $2 } END { printf "%s ab: %s/s, p50 %s ms, p99 %s ms, longest %s ms\n", kind, rate, p50, p99, max }' \
        "$out/$kind.ab.txt"
done
