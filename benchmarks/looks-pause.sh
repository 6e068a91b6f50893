#!/usr/bin/env bash
# Whether the agent's looks at the platform threads (held-monitors=, on by default) stop the
# application, at production thread counts: for each THREADS, the tests' known-answer server with
# THREADS pooled platform threads each holding a request THREADS ms (capacity 1,000/s) under the
# agent's defaults, loaded by `loomscope load` at 80% of its capacity for SECONDS, with a second JFR
# recording of the JVM's own VM operations and safepoints (every one: threshold 0). The JDK's `jfr`
# tool reads both recordings: the safepoints the looks' thread asked for (none is the goal; a look
# that took a thread dump with monitors asked for one each), the longest safepoint anyone asked
# for, the looks taken a second, the threads each walked and its longest walk (the call's whole
# time); the JVM's own handshake log (-Xlog:handshake) the stack walks' handshakes: how many the
# walked thread ran itself (stopped for it; the others were blocked and never stopped) and each one's
# completion time, from its request to its end (no thread was stopped longer); `loomscope advise`
# then says whether the recording had looks enough to tell.
#
# usage: [SECONDS_MEASURED=60] benchmarks/looks-pause.sh [THREADS ... (400 2000)]
set -euo pipefail
. "$(dirname "$0")/setup.sh"
seconds=${SECONDS_MEASURED:-60}
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(400 2000)
jfr="$LOOMSCOPE_JAVA_HOME/bin/jfr"
tmp=$(mktemp -d)
known_answer_pid=""
trap '[ -n "$known_answer_pid" ] && kill $known_answer_pid 2>/dev/null; rm -rf "$tmp"' EXIT
vmops="jdk.ExecuteVMOperation#threshold=0ms,jdk.SafepointBegin#enabled=true,jdk.SafepointBegin#threshold=0ms"

echo "$bench: the agent's defaults; the known-answer server at 800/s for $seconds s; $("$java" -version 2>&1 | head -1); $(nproc) CPUs"
for n in "${counts[@]}"; do
    rm -rf "$tmp/rec" "$tmp/vmops.jfr" "$tmp/handshakes.log"
    loomscope_known_answer "$n" "$n" platform "$tmp/server.log" --enable-native-access=ALL-UNNAMED "-Xlog:handshake=info:file=$tmp/handshakes.log" \
        "-XX:StartFlightRecording:filename=$tmp/vmops.jfr,$vmops" "-javaagent:$agent=out=$tmp/rec,label=looks-$n,threads=platform"
    "$root/loomscope" load --url "$known_answer_url" --rate 800 --connections $((n * 3 / 2)) --windows $((seconds / 2)) --window 2s >"$tmp/load.txt" 2>&1 || true
    grep -a ' windows, ' "$tmp/load.txt" | tail -1 | cut -c1-200 | sed "s/^/  $n threads, the load: /"
    kill "$known_answer_pid"
    wait "$known_answer_pid" 2>/dev/null || true
    known_answer_pid=""
    rec=$(find "$tmp/rec" -name '*.jfr' ! -name '*.async-profiler.jfr' | head -1)
    "$jfr" print --json --events jdk.ExecuteVMOperation,jdk.SafepointBegin "$tmp/vmops.jfr" >"$tmp/vmops.json"
    "$jfr" print --json --events loomscope.HeldMonitorSample "$rec" >"$tmp/looks.json"
    python3 - "$n" "$tmp/vmops.json" "$tmp/looks.json" "$tmp/handshakes.log" <<'EOF'
import json, re, sys
n = sys.argv[1]
def events(path):
    return json.load(open(path))["recording"]["events"]
def ms(d):  # JFR's JSON durations: "PT0.001234S"
    return float(d[2:-1]) * 1000 if d.startswith("PT") and d.endswith("S") else 0.0
ops = events(sys.argv[2])
safepoint_ops = [e for e in ops if e["type"] == "jdk.ExecuteVMOperation" and e["values"].get("safepoint")]
by_looks = [e for e in safepoint_ops if ((e["values"].get("caller") or {}).get("javaName") or "") == "loomscope-agent-looks"]
safepoints = [ms(e["values"]["duration"]) for e in ops if e["type"] == "jdk.SafepointBegin"]
looks = [e["values"] for e in events(sys.argv[3])]
def q(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * len(xs)))] if xs else float("nan")
walks = [v["longestWalk"] for v in looks]
walk_ms = [ms(w) if isinstance(w, str) else w / 1e6 for w in walks]
span = 0.0
if len(looks) > 1:
    import datetime
    t = sorted(datetime.datetime.fromisoformat(v["startTime"]).timestamp() for v in looks)
    span = t[-1] - t[0]
asked = sorted({e["values"].get("operation") for e in by_looks})
print(f"{n} threads: {len(by_looks)} safepoints asked by the looks{' (' + ', '.join(asked) + ')' if asked else ''} (of {len(safepoint_ops)} safepoint operations, longest safepoint"
      f" {max(safepoints, default=0):.2f} ms); {len(looks)} looks in {span:.0f} s ({len(looks) / span if span else 0:.2f}/s), up to"
      f" {max((v['platformThreads'] for v in looks), default=0)} threads looked at, {sum(v['stacksWalked'] for v in looks) / max(1, len(looks)):.0f}"
      f" walked a look; longest walk p50 {q(walk_ms, 0.5):.3f} ms, p99 {q(walk_ms, 0.99):.3f} ms, max {max(walk_ms, default=0):.3f} ms;"
      f" a look's own thread p50 {q([ms(v['duration']) for v in looks], 0.5):.1f} ms")
walked = [re.search(r"Executed by requesting thread: (\d+), Total completion time: (\d+) ns", line)
          for line in open(sys.argv[4]) if '"GetStackTraceClosure"' in line]
walked = [(int(m.group(1)), int(m.group(2)) / 1e6) for m in walked if m]
by_target = [t for requester, t in walked if requester == 0]
print(f"  {n} threads, the JVM's handshake log: {len(walked)} stack walks, {len(by_target)} run by the walked thread itself (stopped for it),"
      f" completion p50 {q([t for _, t in walked], 0.5):.3f} ms, p99 {q([t for _, t in walked], 0.99):.3f} ms, max"
      f" {max((t for _, t in walked), default=0):.3f} ms; of those the thread ran itself max {max(by_target, default=0):.3f} ms")
EOF
    "$root/loomscope" advise "$rec" 2>&1 | grep -a -E "bottom line|looks' own" | sed "s/^/  $n threads, advise: /" || true
done
