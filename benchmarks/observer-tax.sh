#!/usr/bin/env bash
# What observing costs at the client's p99: the tests' known-answer server (WORKERS workers each
# holding a request HOLD ms; capacity WORKERS / HOLD) on platform and on virtual threads, loaded by
# `loomscope load` at 80% of its capacity, with nothing watching it, with JFR's default settings
# (-XX:StartFlightRecording), under the loomscope agent with each profiling engine (profile=off;
# async-profiler's default, cpu; engine=jfr, JFR's own sampler), and (CONFIGS=watch) unobserved but
# for `loomscope watch PID` at its defaults from before the load to its end (watch-nodumps: with
# --dump-every 0; watch-sample20: with --sample-interval 20ms, to tell which part costs). Each JVM
# runs alone; ROUNDS rounds, each in a shuffled order; per configuration and kind the median of the rounds' figures
# and their range. A JVM's figures are the load client's over its measured windows (a warm-up until
# steady, then WINDOWS windows of 2 s): its p99 from the windows' merged histograms (each request once)
# and its answered requests a second.
#
# With SERVICE=jetty, the tests' Jetty service (DemoService) in place of the known-answer server, on
# JDK 21 (LOOMSCOPE_JDK21, where a virtual thread pins in `synchronized`): its /legacy holds one of
# 64 monitors around a 10 ms wait, so on virtual threads the carriers (one a core) serve at most
# cores x 100 requests a second; it is loaded at 80% of that on both kinds (platform threads, 200 of
# them, serve far more), and the agent records the pins it is there to record.
#
# usage: [CONFIGS="none jfr agent-off agent-nolooks agent-cpu agent-jfr watch watch-nodumps watch-sample20"] [WINDOWS=5] benchmarks/observer-tax.sh [ROUNDS (3)] [WORKERS (8)] [HOLD_MS (20)]
#        SERVICE=jetty LOOMSCOPE_JDK21=.../bin/java benchmarks/observer-tax.sh [ROUNDS (3)]
set -euo pipefail
rounds=${1:-3}
# WINDOWS=N measures N windows of 2 s (5 by default); a p99.9 needs 10,000 requests a JVM
windows=${WINDOWS:-5}
workers=${2:-8}
hold=${3:-20}
. "$(dirname "$0")/setup.sh"
service=${SERVICE:-known}
if [ "$service" = jetty ]; then
    if [ -z "${LOOMSCOPE_JDK21:-}" ]; then
        echo "$bench: SERVICE=jetty needs LOOMSCOPE_JDK21 (a JDK 21 java: .ci/jdk21 prints one)" >&2
        exit 2
    fi
    java=$LOOMSCOPE_JDK21
    capacity=$(($(nproc) * 1000 / 10))
else
    capacity=$((workers * 1000 / hold))
fi
rate=$((capacity * 8 / 10))
# connections enough for every worker busy at once and more (the client's 100 by default; a request waiting for one is late)
connections=$((workers * 3 / 2 > 100 ? workers * 3 / 2 : 100))
tmp=$(mktemp -d)
known_answer_pid=""
demo_pid=""
watcher=""
trap '[ -n "$watcher" ] && kill $watcher 2>/dev/null; [ -n "$known_answer_pid" ] && kill $known_answer_pid 2>/dev/null; [ -n "$demo_pid" ] && kill $demo_pid 2>/dev/null; rm -rf "$tmp"' EXIT

# CONFIGS="none agent-off" runs only those; agent-nolooks is the agent with profile=off and held-monitors=off
read -r -a configs <<<"${CONFIGS:-none jfr agent-off agent-cpu agent-jfr}"
flags() { # config kind: the JVM options that observe it
    case $1 in
        none | watch*) ;;
        jfr) echo "-XX:StartFlightRecording=filename=$tmp/jfr-$2.jfr" ;;
        agent-off) echo "--enable-native-access=ALL-UNNAMED -javaagent:$agent=out=$tmp/rec,label=tax,threads=$2,profile=off,flame=off,trace-pinned=off" ;;
        agent-nolooks) echo "--enable-native-access=ALL-UNNAMED -javaagent:$agent=out=$tmp/rec,label=tax,threads=$2,profile=off,flame=off,trace-pinned=off,held-monitors=off" ;;
        agent-cpu) echo "--enable-native-access=ALL-UNNAMED -javaagent:$agent=out=$tmp/rec,label=tax,threads=$2,flame=off,trace-pinned=off" ;;
        agent-jfr) echo "--enable-native-access=ALL-UNNAMED -javaagent:$agent=out=$tmp/rec,label=tax,threads=$2,engine=jfr,flame=off,trace-pinned=off" ;;
    esac
}

watched() { # config pid: with a watch config, a watcher on pid (its defaults, or one changed), its first line awaited
    local changed
    case $1 in
        watch) changed=() ;;
        watch-nodumps) changed=(--dump-every 0) ;;
        watch-sample20) changed=(--sample-interval 20ms) ;;
        *) return 0 ;;
    esac
    "$root/loomscope" watch "$2" --format json "${changed[@]}" >"$tmp/watch.json" 2>"$tmp/watch.err" &
    watcher=$!
    for _ in $(seq 120); do
        [ -s "$tmp/watch.json" ] && return 0
        if ! kill -0 "$watcher" 2>/dev/null; then
            echo "$bench: loomscope watch $2 ended before its first line: $(tail -1 "$tmp/watch.err")" >&2
            kill "$2" 2>/dev/null
            exit 1
        fi
        sleep 0.5
    done
    echo "$bench: loomscope watch $2 wrote no line in 60 s: $(tail -1 "$tmp/watch.err")" >&2
    kill "$watcher" "$2" 2>/dev/null
    exit 1
}

one() { # config kind: prints "P99_MS RATE P99.9_MS" of one JVM (n/a: too few requests for a p99.9)
    local pid
    if [ "$service" = jetty ]; then
        # shellcheck disable=SC2046
        loomscope_demo_service "$java" "$2" "$tmp/server.log" $(flags "$1" "$2")
        pid=$demo_pid
        watched "$1" "$pid"
        "$root/loomscope" load --url "$demo_url/legacy" --rate "$rate" --windows "$windows" --window 2s >"$tmp/load.txt" 2>&1 || true
    else
        # shellcheck disable=SC2046
        loomscope_known_answer "$workers" "$hold" "$2" "$tmp/server.log" $(flags "$1" "$2")
        pid=$known_answer_pid
        watched "$1" "$pid"
        "$root/loomscope" load --url "$known_answer_url" --rate "$rate" --connections "$connections" --windows "$windows" --window 2s >"$tmp/load.txt" 2>&1 || true
    fi
    if [ -n "$watcher" ]; then
        kill "$watcher" 2>/dev/null; wait "$watcher" 2>/dev/null || true
        watcher=""
    fi
    kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null || true
    known_answer_pid=""
    demo_pid=""
    rm -rf "$tmp/rec" "$tmp"/jfr-*.jfr
    local line
    line=$(grep -a ' windows, ' "$tmp/load.txt" | tail -1)
    local p999
    p999=$(grep -o 'p99\.9 [0-9.,]* ms' <<<"$line" | head -1 | tr -d ', ' | sed 's/p99\.9//; s/ms//')
    echo "$(grep -o 'p99 [0-9.,]* ms' <<<"$line" | head -1 | tr -d ', ' | sed 's/p99//; s/ms//') $(sed -n 's/.*answered (\([0-9.]*\)\/s).*/\1/p' <<<"$line") ${p999:-n/a}"
}

if [ "$service" = jetty ]; then
    echo "$bench: $rounds rounds; the Jetty service's /legacy, virtual threads' ceiling $(nproc) carriers x 10 ms pinned = $capacity/s, loaded at $rate/s (80%); $("$java" -version 2>&1 | head -1)"
else
    echo "$bench: $rounds rounds; server $workers x $hold ms = $capacity/s, loaded at $rate/s (80%); $("$java" -version 2>&1 | head -1)"
fi
for r in $(seq "$rounds"); do
    for job in $(for c in "${configs[@]}"; do for k in platform virtual; do echo "$c:$k"; done; done | shuf); do
        figures=$(one "${job%%:*}" "${job##*:}") # a watcher that cannot watch stops the run here
        echo "${job%%:*} ${job##*:} $figures" >>"$tmp/results"
    done
done
printf '| observed by | kind | p99 ms, median [range] | p99.9 ms, median [range] | answered a second, median [range] |\n|---|---|---|---|---|\n'
spread() { # a column's values: "median [min, max]"
    echo "$(median <<<"$1") [$(sort -g <<<"$1" | head -1), $(sort -g <<<"$1" | tail -1)]"
}
for c in "${configs[@]}"; do
    for k in platform virtual; do
        p=$(awk -v c="$c" -v k="$k" '$1 == c && $2 == k {print $3}' "$tmp/results")
        t=$(awk -v c="$c" -v k="$k" '$1 == c && $2 == k {print $4}' "$tmp/results")
        p999=$(awk -v c="$c" -v k="$k" '$1 == c && $2 == k && $5 != "n/a" {print $5}' "$tmp/results")
        printf '| %s | %s | %s | %s | %s |\n' "$c" "$k" "$(spread "$p")" "$( [ -n "$p999" ] && spread "$p999" || echo n/a)" "$(spread "$t")"
    done
done
