#!/usr/bin/env bash
# The load client beside wrk (Debian) and Vegeta (a Go module) on a server whose answer is known
# (KnownAnswerServer in the analyzer's tests: WORKERS workers each holding a request HOLD ms, so
# its capacity is WORKERS / HOLD exactly): at 50%, 100% and 150% of that capacity, each client's
# reported throughput and p99 against the truth, and its requests a second per CPU second of its
# own (user + system, from /proc, the client's process alone).
#
# The truth: below capacity every request takes HOLD ms and the throughput is the offered rate; at
# and above it the throughput is the capacity and the latency grows for as long as the load lasts.
# loomscope and Vegeta send at a constant rate (open loop); wrk (4.1, Debian's) is a closed loop:
# its rate is what its connections get answered, so it is given as many connections as workers
# times the share (it cannot offer more than the server answers: at 150% it shows the capacity and
# the hold, not the queue an open-loop client meets).
#
# usage: benchmarks/load-clients.sh [WORKERS (8)] [HOLD_MS (20)] [SECONDS (10)]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
workers=${1:-8}
hold=${2:-20}
seconds=${3:-10}
bench=load-clients
. "$root/benchmarks/setup.sh"
for tool in wrk vegeta; do
    command -v $tool >/dev/null || { echo "$bench: $tool is missing (apt-get install wrk; go install github.com/tsenart/vegeta/v12@v12.13.0)" >&2; exit 2; }
done
tmp=$(mktemp -d)
known_answer_pid=""
trap '[ -n "$known_answer_pid" ] && kill $known_answer_pid 2>/dev/null; rm -rf "$tmp"' EXIT
loomscope_known_answer "$workers" "$hold" platform "$tmp/server.log"
url=$known_answer_url
capacity=$((workers * 1000 / hold))

# Runs a command, prints "CPU_SECONDS" of it (its process tree's user + system) after it ends.
cpu_of() {
    local out=$1; shift
    /usr/bin/env time -f "%U %S" -o "$tmp/time" "$@" >"$out" 2>&1 || true
    awk '{print $1 + $2}' "$tmp/time"
}

printf '%s\n' "machine: $(nproc) cores, $(uname -m), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); server: $workers workers x $hold ms = $capacity/s; $seconds s a client and share"
printf '| offered | truth | client | reported rate | p99 | requests a CPU second |\n|---|---|---|---|---|---|\n'
for share in 50 100 150; do
    rate=$((capacity * share / 100))
    truth=$( ((share < 100)) && echo "$rate/s, p99 $hold ms" || echo "$capacity/s, p99 grows")
    # loomscope: its warm-up, then the measured windows over the seconds asked
    cpu=$(cpu_of "$tmp/ls" "$root/loomscope" load --url "$url" --rate "$rate" --connections 100 --min-warmup 3s --max-warmup 3s --windows "$((seconds / 2))" --window 2s)
    line=$(grep -a ' windows, ' "$tmp/ls" | tail -1)
    lrate=$(sed -n 's/.*answered (\([0-9.]*\)\/s).*/\1/p' <<<"$line")
    lp99=$(grep -o 'p99 [0-9.,]* ms' <<<"$line" | head -1 | cut -d' ' -f2-)
    # its requests over the whole run (3 s of warm-up and the windows) at the rate it reported, per CPU second of its JVM, start included
    printf '| %s/s | %s | loomscope load | %s/s | %s | %s |\n' "$rate" "$truth" "$lrate" "${lp99:-n/a}" "$(awk -v r="$lrate" -v s="$seconds" -v c="$cpu" 'BEGIN{printf "%.0f", r*(s+3)/c}')"
    # Vegeta: open loop at the rate
    cpu=$(cpu_of "$tmp/vg" sh -c "echo 'GET $url' | vegeta attack -rate=$rate -duration=${seconds}s -timeout=30s | vegeta report -type=text")
    vrate=$(sed -n 's/^Requests.*\[total, rate, throughput\] *[0-9]*, [0-9.]*, \([0-9.]*\).*/\1/p' "$tmp/vg")
    vp99=$(sed -n 's/^Latencies.*\]  *\(.*\)$/\1/p' "$tmp/vg" | awk -F', ' '{print $5}')
    vn=$(sed -n 's/^Requests.*\] *\([0-9]*\),.*/\1/p' "$tmp/vg")
    printf '| %s/s | %s | vegeta attack | %s/s | %s | %s |\n' "$rate" "$truth" "$vrate" "$vp99" "$(awk -v n="$vn" -v c="$cpu" 'BEGIN{printf "%.0f", n/c}')"
    # wrk: a closed loop, connections = workers x share
    conns=$(( (workers * share + 99) / 100 ))
    cpu=$(cpu_of "$tmp/wrk" wrk -t1 -c"$conns" -d"${seconds}s" --latency "$url")
    wrate=$(sed -n 's/^Requests\/sec: *\([0-9.]*\)/\1/p' "$tmp/wrk")
    wp99=$(awk '$1 == "99%" {print $2}' "$tmp/wrk")
    wn=$(sed -n 's/^ *\([0-9]*\) requests in.*/\1/p' "$tmp/wrk")
    printf '| %s/s | %s | wrk -c%s (closed loop) | %s/s | %s | %s |\n' "$rate" "$truth" "$conns" "$wrate" "$wp99" "$(awk -v n="$wn" -v c="$cpu" 'BEGIN{printf "%.0f", n/c}')"
done
