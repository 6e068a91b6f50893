#!/usr/bin/env bash
# Overhead of the loomscope agent on the echo workload: throughput with the agent (defaults, and
# profile=off) beside the same workload without it and, for scale, with only JFR's own default
# recording (-XX:StartFlightRecording:settings=default).
#
# Design: each round starts the four JVMs (none, defaults, profile=off, jfr) with the workload's
# --paced option and warms them up one after another (WARMUP runs each: the JIT compiles the
# agent's and JFR's code too, about 12 s of echo with the agent against 10 s without). Then it
# interleaves their measured runs one by one: in cycle k the JVMs take their turn in an order that
# rotates with k, and a JVM that is not on its turn is stopped (SIGSTOP), so exactly one JVM runs at
# a time and every configuration meets the same moments of a shared machine. Each round gives,
# per configuration,
#   throughput(config) / throughput(none) = median time(none) / median time(config)
# from wall time and from the process's CPU time per run. The summary is the median ratio over the
# rounds with a bootstrap 95% interval (2,000 resamples of the rounds, seeded): rounds differ by
# the JVMs' own luck (JIT decisions, memory layout), and the interval says how far the median can
# be trusted.
# CLIENT ab drives the server with ApacheBench from outside the JVM (apache2-utils): then the JVM
# measured is the server alone, as an application under the agent would be, not the server plus
# the built-in load generator's 100 platform threads.
#
# Other configurations can take the place of the three beside "none": after --, each as
# NAME:JVM OPTIONS (split at spaces; $AGENT and $OUT stand for the agent jar and a scratch
# directory), e.g. to see what JFR costs with no event enabled:
#   benchmarks/agent-overhead.sh 6 virtual 30 20 builtin -- 'jfr-none:-XX:StartFlightRecording:settings=none,filename=$OUT/n.jfr'
#
# A configuration whose options hold $WATCH is watched: 'loomscope watch PID --format json' runs
# against that JVM from its start (its output discarded), stopped and resumed with it, so the
# JVM's turns pay for the watcher's stream, polls and thread dumps and its CPU beside them;
# $WATCH{A,B} gives the watcher options A B; enough warm-up runs let the watcher past its first
# seconds too (docs/benchmarks.md), e.g.
#   benchmarks/agent-overhead.sh 8 virtual 25 60 builtin -- 'watched:$WATCH' \
#       'watched-agent:$WATCH{--agent} -javaagent:$AGENT=out=$OUT' 'defaults:-javaagent:$AGENT=out=$OUT'
#
# ECHO_ARGS adds options to the echo workload, e.g. ECHO_ARGS='-k --n 40000': keep-alive
# connections, so a platform-thread server starts a thread per connection (100 a run), not one
# per request.
#
# usage: [ECHO_ARGS=...] benchmarks/agent-overhead.sh [ROUNDS (6)] [THREADS (virtual)] [RUNS (30)] [WARMUP (20)] [CLIENT (builtin)] [-- NAME:OPTIONS ...]
set -euo pipefail

positional=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do
    positional+=("$1")
    shift
done
[ $# -gt 0 ] && shift
rounds=${positional[0]:-6}
threads=${positional[1]:-virtual}
runs=${positional[2]:-30}
warmup=${positional[3]:-20}
client=${positional[4]:-builtin}
read -ra echo_args <<<"${ECHO_ARGS:-}"

. "$(dirname "$0")/setup.sh"
out=$(mktemp -d)
quiet=300

names=(none)
opts=("")
watched=("")
if [ $# -eq 0 ]; then
    set -- 'defaults:-javaagent:$AGENT=out=$OUT' 'profile=off:-javaagent:$AGENT=out=$OUT,profile=off' \
        'jfr:-XX:StartFlightRecording:settings=default,filename=$OUT/jfr.jfr'
fi
for config in "$@"; do
    case $config in
        ?*:*) ;;
        *) echo "agent-overhead: configuration '$config': expected NAME:JVM OPTIONS after --" >&2; exit 2 ;;
    esac
    names+=("${config%%:*}")
    config=${config#*:}
    if [[ $config =~ \$WATCH(\{([^}]*)\})? ]]; then
        watched+=("watch ${BASH_REMATCH[2]//,/ }") # the watcher's options
        config=${config/"${BASH_REMATCH[0]}"/}
    else
        watched+=("")
    fi
    config=${config//\$AGENT/$agent}
    opts+=("${config//\$OUT/$out/rec}")
done
n=${#names[@]}
pids=()
watchers=()
wticks=()
watcher_shares=()
ins=()
outs=()

cleanup() {
    for p in "${watchers[@]}" "${pids[@]}"; do
        kill -CONT "$p" 2>/dev/null && kill "$p" 2>/dev/null
    done
    rm -rf "$out"
}
trap cleanup EXIT

fail() {
    echo "agent-overhead: the ${names[$1]} JVM $2: $(tail -n 3 "$out/err$1" 2>/dev/null | tr '\n' ' ')" >&2
    exit 1
}

# Reads the next line of JVM $1's output into the caller's $line; fails at the end of the output.
# A JVM silent for $quiet seconds is taken for hung: killed, and the benchmark stops.
next_line() {
    IFS= read -r -t "$quiet" -u "${outs[$1]}" line && return 0
    (($? > 128)) && hung "$1"
    return 1
}

# Reads JVM $1's output until a line matches the glob $2, and prints that line.
await() {
    local line
    while next_line "$1"; do
        # shellcheck disable=SC2254 # $2 is a glob on purpose
        case $line in
            $2) printf '%s\n' "$line"; return 0 ;;
        esac
    done
    fail "$1" "ended early"
}

hung() {
    kill -CONT "${pids[$1]}" 2>/dev/null
    kill -KILL "${pids[$1]}" 2>/dev/null
    fail "$1" "printed nothing for $quiet s and was killed (hung; its last lines of stderr follow)"
}

# Starts JVM $1, lets it warm up alone, and stops it at its first paced wait.
start() {
    local i=$1 fd extra=()
    read -ra extra <<<"${opts[$i]}"
    mkfifo "$out/in$i" "$out/out$i"
    "$java" --enable-native-access=ALL-UNNAMED "${extra[@]}" -jar "$workloads" echo --threads "$threads" "${echo_args[@]}" \
        --client "$client" --runs "$runs" --warmup "$warmup" --paced <"$out/in$i" >"$out/out$i" 2>"$out/err$i" &
    pids[i]=$!
    if [ -n "${watched[$i]}" ]; then
        local watch_args=()
        read -ra watch_args <<<"${watched[$i]#watch}"
        # through the launcher, as a user runs it (its JIT settings: C1 alone costs a watcher half the CPU C2 does)
        "$root/loomscope" watch "${pids[$i]}" --format json "${watch_args[@]}" >/dev/null 2>"$out/watch$i" &
        watchers[i]=$!
    fi
    exec {fd}>"$out/in$i"
    ins[i]=$fd
    exec {fd}<"$out/out$i"
    outs[i]=$fd
    await "$i" '*: paced, each run waits for a line on stdin' >/dev/null
    if [ -n "${watched[$i]}" ]; then
        until grep -q '^loomscope watch: process' "$out/watch$i"; do
            kill -0 "${watchers[$i]}" 2>/dev/null || { echo "agent-overhead: the watcher of ${names[$i]}: $(cat "$out/watch$i")" >&2; exit 1; }
            sleep 0.2
        done
    fi
    stop_jvm "$i"
}

# Stops (SIGSTOP) and resumes JVM $1 and its watcher, if it has one.
stop_jvm() {
    kill -STOP "${pids[$1]}"
    [ -z "${watchers[$1]:-}" ] || kill -STOP "${watchers[$1]}"
}
cont_jvm() {
    [ -z "${watchers[$1]:-}" ] || kill -CONT "${watchers[$1]}"
    kill -CONT "${pids[$1]}"
}

# Runs JVM $1's measured run $2 alone; a watcher's CPU over its JVM's turns adds up in wticks.
turn() {
    local w=${watchers[$1]:-} before=0
    [ -z "$w" ] || before=$(loomscope_cpu_ticks "$w")
    cont_jvm "$1"
    echo go >&"${ins[$1]}"
    await "$1" "* run $2/$runs: *" >/dev/null
    stop_jvm "$1"
    [ -z "$w" ] || wticks[$1]=$((${wticks[$1]:-0} + $(loomscope_cpu_ticks "$w") - before))
}

# Lets JVM $1 finish (the agent writes its recording and flame graph), checks its exit, and sets
# medians to "<median wall ms> <median CPU ms> " from its summary line
# "echo virtual: median 806.8 ms (min ..., max ...) over 30 runs, process CPU median 1210.4 ms".
finish() {
    local i=$1 fd summary line
    cont_jvm "$i"
    fd=${ins[$i]}
    exec {fd}>&-
    summary=$(await "$i" "*: median * ms *, process CPU median * ms")
    while next_line "$i"; do :; done # to the end of its output: it ends when the JVM exits
    fd=${outs[$i]}
    exec {fd}<&-
    wait "${pids[$i]}" || fail "$i" "exited with $?"
    if [ -n "${watchers[$i]:-}" ]; then
        wait "${watchers[$i]}" || true # it ends when its JVM does
        grep -q ' ended$' "$out/watch$i" || { echo "agent-overhead: the watcher of ${names[$i]}: $(cat "$out/watch$i")" >&2; exit 1; }
    fi
    rm -f "$out/in$i" "$out/out$i"
    medians=$(echo "$summary" | sed 's/.*: median \([0-9.]*\) ms.*process CPU median \([0-9.]*\) ms.*/\1 \2 /')
}

echo "agent overhead on echo ($threads threads, $client client, n=10000 c=100${ECHO_ARGS:+, $ECHO_ARGS}), JDK $LOOMSCOPE_JAVA_MAJOR, $(nproc) CPUs:"
echo "$rounds rounds of $n JVMs, each $warmup warm-up runs alone, then $runs measured runs each, interleaved run by run"
for ((i = 1; i < n; i++)); do
    echo "  ${names[$i]}: ${opts[$i]}"
done
echo "throughput ratios config/none from the median run time (wall) and the median process CPU time per run (cpu)"
header="round  none ms (cpu)    "
for ((i = 1; i < n; i++)); do
    header="$header  $(printf '%-13s' "${names[$i]}") wall   cpu"
done
echo "$header"
ratios=""
for ((r = 1; r <= rounds; r++)); do
    mkdir -p "$out/rec"
    for ((i = 0; i < n; i++)); do
        start "$i"
    done
    for ((k = 1; k <= runs; k++)); do
        for ((j = 0; j < n; j++)); do
            turn $(((k + j) % n)) "$k"
        done
    done
    m=""
    watcher_line=""
    for ((i = 0; i < n; i++)); do
        finish "$i"
        m="$m$medians"
        if [ -n "${wticks[$i]:-}" ]; then
            # the watcher's CPU over its JVM's measured turns, a run's worth, beside that JVM's own median CPU per run
            per_run=$(awk -v t="${wticks[$i]}" -v hz="$(getconf CLK_TCK)" -v runs="$runs" -v own="${medians#* }" \
                'BEGIN { ms = t * 1000 / hz / runs; printf "%.1f %.4f", ms, ms / own }')
            watcher_line="$watcher_line  ${names[$i]} ${per_run% *} ms ($(awk -v s="${per_run#* }" 'BEGIN { printf "%.1f", 100 * s }')% of its JVM's)"
            watcher_shares[$i]="${watcher_shares[$i]:-} ${per_run#* }"
        fi
    done
    wticks=()
    pids=()
    watchers=()
    # per configuration: none / config, wall and CPU
    line=$(echo "$m" | awk '{ for (i = 3; i < NF; i += 2) printf "%s %s ", $1 / $i, $2 / $(i + 1) }')
    echo "$r $m $line" | awk -v n="$n" '{ printf "%5d  %6.1f (%6.1f)  ", $1, $2, $3
        for (i = 2 * n + 2; i <= NF; i += 2) printf "              %6.3f %6.3f", $i, $(i + 1); print "" }'
    ratios="$ratios$line
"
    [ -z "$watcher_line" ] || echo "       watcher CPU a run, over its JVM's turns:$watcher_line"
    rm -rf "$out/rec"
done
names_list="${names[*]:1}"
printf '%s' "$ratios" | awk -v names="$names_list" '
    { for (k = 1; k <= NF; k++) v[k, NR] = $k; cols = NF }
    function median(x, n,   i, j, t) {
        for (i = 2; i <= n; i++) { t = x[i]; for (j = i - 1; j >= 1 && x[j] > t; j--) x[j + 1] = x[j]; x[j + 1] = t }
        return n % 2 ? x[(n + 1) / 2] : (x[n / 2] + x[n / 2 + 1]) / 2
    }
    # median over the rounds, and the 2.5% and 97.5% percentiles of the medians of 2,000 resamples
    function summary(k,   i, b, x, m) {
        for (i = 1; i <= NR; i++) x[i] = v[k, i]
        mid = median(x, NR)
        for (b = 1; b <= 2000; b++) { for (i = 1; i <= NR; i++) x[i] = v[k, 1 + int(rand() * NR)]; m[b] = median(x, NR) }
        median(m, 2000)
        return sprintf("%.3f [%.3f, %.3f]", mid, m[50], m[1951])
    }
    END {
        srand(1)
        split(names, name, " ")
        print "median throughput ratio config/none over the rounds [bootstrap 95% interval] (1.000 = no overhead):"
        for (c = 1; 2 * c <= cols; c++) printf "  %-14s wall %s, cpu %s\n", name[c] ":", summary(2 * c - 1), summary(2 * c)
    }'
for ((i = 1; i < n; i++)); do
    [ -z "${watcher_shares[$i]:-}" ] || echo "  ${names[$i]}: the watcher's own CPU, median over the rounds:" \
        "$(echo "${watcher_shares[$i]}" | tr ' ' '\n' | grep . | median | awk '{ printf "%.1f%%", 100 * $1 }')" \
        "of its JVM's CPU per run (on the same $(nproc) CPUs)"
done
