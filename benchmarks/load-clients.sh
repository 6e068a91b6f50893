#!/usr/bin/env bash
# The load client beside wrk (Debian) and Vegeta (a Go module) on a server whose answer is known
# (KnownAnswerServer in the analyzer's tests: WORKERS workers each holding a request HOLD ms, so
# its capacity is WORKERS / HOLD exactly): at 50%, 100% and 150% of that capacity, each client's
# reported throughput and p99 against the truth, and its requests a second per CPU second of its
# own (user + system, the client's process alone: loomscope's over its measured windows, as its
# summary says it; wrk's and Vegeta's over their whole runs).
#
# The truth: below capacity every request takes HOLD ms and the throughput is the offered rate; at
# and above it the throughput is the capacity and the latency grows for as long as the load lasts.
# loomscope and Vegeta send at a constant rate (open loop); wrk (4.1, Debian's) is a closed loop:
# its rate is what its connections get answered, so it is given as many connections as workers
# times the share (it cannot offer more than the server answers: at 150% it shows the capacity and
# the hold, not the queue an open-loop client meets).
#
# Then each client's cost a request where it matters most, beside a server that holds nothing (the
# same server, WORKERS workers, no hold: as fast as it answers on this machine), ROUNDS times, with
# WORKERS and then twice WORKERS connections: wrk as fast as its connections are answered, then
# loomscope over as many connections at 80% and 100% of the rate wrk got (a client's cost a request
# depends on how many connections it spreads them over, and loomscope uses every connection it is
# given in turn, as wrk does: the two are compared on equal connections); Vegeta at 80% once. For
# each its rate, p99, the cores it used, its requests a CPU second and their ratio to the wrk run
# just before it (loomscope's own lateness p99 beside them); last, the median ratio of each.
# loomscope's cost is its own figure over its measured windows (its process's CPU from /proc: the
# steady state, not the JVM's start); wrk's and Vegeta's are their whole runs' (a native program's
# start is a few milliseconds).
#
# usage: benchmarks/load-clients.sh [WORKERS (8)] [HOLD_MS (20)] [SECONDS (10)] [ROUNDS (3)]
set -euo pipefail
workers=${1:-8}
hold=${2:-20}
seconds=${3:-10}
rounds=${4:-3}
. "$(dirname "$0")/setup.sh"
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

# loomscope at RATE against $url: its warm-up, then the measured windows over the seconds asked; sets
# l_rate, l_p99, l_cores, l_per_cpu (its own figure over the measured windows: the steady state, its
# JVM's start left out) and l_lateness from its summary line.
run_loomscope() {
    "$root/loomscope" load --url "$url" --rate "$1" --connections "${2:-100}" --min-warmup 3s --max-warmup 3s --windows "$((seconds / 2))" --window 2s \
        >"$tmp/ls" 2>&1 || true
    local line
    line=$(grep -a ' windows, ' "$tmp/ls" | tail -1)
    l_rate=$(sed -n 's/.*answered (\([0-9.]*\)\/s).*/\1/p' <<<"$line")
    l_p99=$(grep -o 'p99 [0-9.,]* ms' <<<"$line" | head -1 | cut -d' ' -f2-)
    l_cores=$(sed -n "s/.*the client's CPU \([0-9.]*\) cores.*/\1/p" <<<"$line")
    l_per_cpu=$(sed -n 's/.* cores (\([0-9,]*\) requests a CPU-second).*/\1/p' <<<"$line")
    l_lateness=$(grep -o "the client's own lateness p99 [0-9.,]* ms" <<<"$line" || true)
}

# Vegeta at RATE against $url, open loop; sets v_rate, v_p99, v_cores and v_per_cpu (its whole run).
run_vegeta() {
    local cpu n
    cpu=$(cpu_of "$tmp/vg" sh -c "echo 'GET $url' | vegeta attack -rate=$1 -duration=${seconds}s -timeout=30s | vegeta report -type=text")
    v_rate=$(sed -n 's/^Requests.*\[total, rate, throughput\] *[0-9]*, [0-9.]*, \([0-9.]*\).*/\1/p' "$tmp/vg")
    v_p99=$(sed -n 's/^Latencies.*\]  *\(.*\)$/\1/p' "$tmp/vg" | awk -F', ' '{print $5}')
    n=$(sed -n 's/^Requests.*\] *\([0-9]*\),.*/\1/p' "$tmp/vg")
    v_cores=$(awk -v c="$cpu" -v s="$seconds" 'BEGIN{printf "%.2f", c/s}')
    v_per_cpu=$(awk -v n="$n" -v c="$cpu" 'BEGIN{printf "%.0f", n/c}')
}

# wrk with CONNS connections against $url, a closed loop on one thread; sets w_rate, w_p99, w_cores and w_per_cpu (its whole run).
run_wrk() {
    local cpu n
    cpu=$(cpu_of "$tmp/wrk" wrk -t1 -c"$1" -d"${seconds}s" --latency "$url")
    w_rate=$(sed -n 's/^Requests\/sec: *\([0-9.]*\)/\1/p' "$tmp/wrk")
    w_p99=$(awk '$1 == "99%" {print $2}' "$tmp/wrk")
    n=$(sed -n 's/^ *\([0-9]*\) requests in.*/\1/p' "$tmp/wrk")
    w_cores=$(awk -v c="$cpu" -v s="$seconds" 'BEGIN{printf "%.2f", c/s}')
    w_per_cpu=$(awk -v n="$n" -v c="$cpu" 'BEGIN{printf "%.0f", n/c}')
}

printf '%s\n' "machine: $(nproc) cores, $(uname -m), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); server: $workers workers x $hold ms = $capacity/s; $seconds s a client and share"
printf '| offered | truth | client | reported rate | p99 | requests a CPU second |\n|---|---|---|---|---|---|\n'
for share in 50 100 150; do
    rate=$((capacity * share / 100))
    truth=$( ((share < 100)) && echo "$rate/s, p99 $hold ms" || echo "$capacity/s, p99 grows")
    run_loomscope "$rate"
    printf '| %s/s | %s | loomscope load | %s/s | %s | %s |\n' "$rate" "$truth" "$l_rate" "${l_p99:-n/a}" "$l_per_cpu"
    run_vegeta "$rate"
    printf '| %s/s | %s | vegeta attack | %s/s | %s | %s |\n' "$rate" "$truth" "$v_rate" "$v_p99" "$v_per_cpu"
    # wrk: a closed loop, connections = workers x share
    conns=$(( (workers * share + 99) / 100 ))
    run_wrk "$conns"
    printf '| %s/s | %s | wrk -c%s (closed loop) | %s/s | %s | %s |\n' "$rate" "$truth" "$conns" "$w_rate" "$w_p99" "$w_per_cpu"
done

# the clients' own cost a request, on the server with no hold
kill "$known_answer_pid" 2>/dev/null; wait "$known_answer_pid" 2>/dev/null || true
loomscope_known_answer "$workers" 0 platform "$tmp/fast.log"
url=$known_answer_url
printf '\nthe same server with no hold (%s workers), %s s a client, %s rounds; the open-loop clients at 80%% and 100%% of what wrk got over as many connections\n' \
    "$workers" "$seconds" "$rounds"
printf '| client | rate | p99 | own lateness p99 | cores | requests a CPU second | against wrk |\n|---|---|---|---|---|---|---|\n'
against_wrk() { awk -v a="${1//,/}" -v w="$w_per_cpu" 'BEGIN{printf "%.2fx", a/w}'; }
ratios=$(mktemp -p "$tmp")
wrk -t1 -c"$workers" -d5s "$url" >/dev/null # the server's JIT warmed before the first measured run
for r in $(seq "$rounds"); do
    for conns in "$workers" $((2 * workers)); do
        run_wrk "$conns"
        printf '| wrk -t1 -c%s (closed loop) | %s/s | %s | | %s | %s | 1.00x |\n' "$conns" "$w_rate" "$w_p99" "$w_cores" "$w_per_cpu"
        for share in 80 100; do
            rate=$(awk -v r="$w_rate" -v s="$share" 'BEGIN{printf "%d", r * s / 100}')
            run_loomscope "$rate" "$conns"
            printf '| loomscope load at %s%%, %s connections (open loop) | %s/s | %s | %s | %s | %s | %s |\n' "$share" "$conns" "$l_rate" "$l_p99" \
                "${l_lateness##* p99 }" "$l_cores" "$l_per_cpu" "$(against_wrk "$l_per_cpu")"
            echo "loomscope at $share%, $conns connections	$(against_wrk "$l_per_cpu")" >>"$ratios"
        done
        if [ "$r" = 1 ] && [ "$conns" = "$workers" ]; then
            rate=$(awk -v r="$w_rate" 'BEGIN{printf "%d", r * 0.8}')
            run_vegeta "$rate"
            printf '| vegeta attack at 80%% (open loop) | %s/s | %s | | %s | %s | %s |\n' "$v_rate" "$v_p99" "$v_cores" "$v_per_cpu" "$(against_wrk "$v_per_cpu")"
        fi
    done
done
printf '\nmedian requests a CPU second against wrk on as many connections, over %s rounds:\n' "$rounds"
for key in $(cut -f1 "$ratios" | sort -u | tr ' ' '~'); do
    label=${key//\~/ }
    printf '%s: %sx\n' "$label" "$(grep -F "$label	" "$ratios" | cut -f2 | tr -d x | median)"
done
