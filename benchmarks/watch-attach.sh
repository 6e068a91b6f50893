#!/usr/bin/env bash
# What attaching `loomscope watch` costs a service while it starts, as its clients see it: the
# tests' known-answer server (WORKERS x HOLD ms) on KIND threads, loaded by `loomscope load` at 80%
# of its capacity in one-second windows for 45 s; 15 s in, `watch PID --duration 15s` attaches (the
# Attach API, the management agent, a JFR stream). The client's p99 of each window: the median
# before the attach, each of the first 8 windows after it, and the median of the windows after the
# watcher left. ROUNDS runs, one after another.
#
# usage: benchmarks/watch-attach.sh [ROUNDS (1)] [KIND (virtual)] [WORKERS (8)] [HOLD_MS (20)]
set -euo pipefail
rounds=${1:-1}
kind=${2:-virtual}
workers=${3:-8}
hold=${4:-20}
. "$(dirname "$0")/setup.sh"
rate=$((workers * 1000 / hold * 8 / 10))
tmp=$(mktemp -d)
known_answer_pid=""
trap '[ -n "$known_answer_pid" ] && kill $known_answer_pid 2>/dev/null; rm -rf "$tmp"' EXIT
echo "$bench: $kind threads, $workers x $hold ms, loaded at $rate/s; watch attaches 15 s into the load; $("$java" -version 2>&1 | head -1)"
printf '| round | p99 before, median | p99 of the 8 windows after the attach (ms) | p99 after the watcher left, median |\n|---|---|---|---|\n'
for r in $(seq "$rounds"); do
    loomscope_known_answer "$workers" "$hold" "$kind" "$tmp/server.log"
    server=$known_answer_pid
    # one-second windows with no warm-up to speak of: the windows are the timeline
    "$root/loomscope" load --url "$known_answer_url" --rate "$rate" --min-warmup 5s --max-warmup 5s --windows 40 --window 1s \
        --results "$tmp/load.csv" >"$tmp/load.txt" 2>&1 &
    load=$!
    sleep 15
    attached=$(date +%s%N)
    "$root/loomscope" watch "$server" --duration 15s --dump-every 0 >"$tmp/watch.txt" 2>&1 || true
    left=$(date +%s%N)
    wait "$load" || true
    kill "$server" 2>/dev/null; wait "$server" 2>/dev/null || true
    known_answer_pid=""
    # the windows' start (epoch ns), p99 (ms), measured or not, from the results file's columns
    python3 - "$tmp/load.csv" "$attached" "$left" "$r" <<'EOF'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
attached, left, r = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
w = [(int(x["startEpochNanos"]), float(x["p99LatencyMs"])) for x in rows if x["p99LatencyMs"] not in ("", "NaN")]
before = [p for s, p in w if s + 1e9 <= attached]
during = [p for s, p in w if s + 1e9 > attached][:8]
after = [p for s, p in w if s >= left]
med = lambda v: "%.1f" % statistics.median(v) if v else "n/a"
print("| %s | %s | %s | %s |" % (r, med(before), ", ".join("%.1f" % p for p in during), med(after)))
EOF
done
