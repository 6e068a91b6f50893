#!/usr/bin/env bash
# What the agent adds to an application's start-up: the time from launching the echo server
# (workloads jar, echo-server, virtual threads) to its first HTTP 200, side by side in each round
# without the agent, with JFR alone (-XX:StartFlightRecording), with the agent's defaults (the recording
# starts beside the application), with profile=off, and with startup=before-main (main waits for the
# recording); on the JDK the launcher finds and, when LOOMSCOPE_JDK21 names one, on JDK 21 too.
# Prints each configuration's median over the rounds and its difference to no agent.
# usage: benchmarks/agent-startup.sh [ROUNDS (7)]
set -eu

. "$(dirname "$0")/setup.sh"
rounds=${1:-7}
command -v curl >/dev/null || { echo "$bench: curl is needed (apt-get install curl)" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

first_response() { # java extra-args...: milliseconds from launch to the first HTTP 200
    local java=$1
    shift
    local port=$((20000 + RANDOM % 20000))
    local t0 t1 pid
    t0=$(date +%s%N)
    "$java" "$@" -jar "$root/workloads/target/loomscope-workloads.jar" echo-server --threads virtual --port "$port" >/dev/null 2>&1 &
    pid=$!
    until [ "$(curl -s -o /dev/null -w '%{http_code}' -d x "http://127.0.0.1:$port/" 2>/dev/null)" = 200 ]; do
        kill -0 "$pid" 2>/dev/null || { echo "$bench: the echo server ended before answering ($*)" >&2; exit 1; }
        sleep 0.005
    done
    t1=$(date +%s%N)
    kill "$pid"
    wait "$pid" 2>/dev/null || true
    echo $(((t1 - t0) / 1000000))
}


echo "$(nproc) cores, $(date -u +%Y-%m-%d), commit $(git -C "$root" rev-parse --short HEAD), $rounds rounds"
for java in "${loomscope_jdks[@]}"; do
    v=$("$java" -version 2>&1 | head -n 1)
    names=("none" "JFR alone" "agent, defaults" "agent, profile=off" "agent, before-main")
    for ((r = 1; r <= rounds; r++)); do
        first_response "$java" >>"$out/0"
        first_response "$java" "-XX:StartFlightRecording:filename=$out/jfr.jfr" >>"$out/1"
        first_response "$java" "-javaagent:$agent=out=$out/rec,flame=off" >>"$out/2"
        first_response "$java" "-javaagent:$agent=out=$out/rec,flame=off,profile=off" >>"$out/3"
        first_response "$java" "-javaagent:$agent=out=$out/rec,flame=off,startup=before-main" >>"$out/4"
    done
    base=$(median <"$out/0")
    echo "$v"
    for i in 0 1 2 3 4; do
        m=$(median <"$out/$i")
        printf "  %-22s %6s ms  %+6s ms\n" "${names[$i]}" "$m" "$(awk -v a="$m" -v b="$base" 'BEGIN {print a - b}')"
        rm -f "$out/$i"
    done
done
