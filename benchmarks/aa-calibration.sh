#!/usr/bin/env bash
# Calibration of the verdict rule on the study's default design: how often does loomscope call two
# identical configurations different (the false-positive rate), and how often does it find the
# difference between platform and virtual threads that is there (the power)?
#
# Design: an A/A trial runs one configuration (echo on platform threads) in 10 JVMs under the agent,
# as the study runs a group: 5 labelled A and 5 labelled B in an order shuffled by the trial's seed,
# each with the study's warm-up (2) and measured runs (3) and its request count; then
# `loomscope compare --by label --baseline A` judges B against A with the study's rule (JVM the
# unit, two-level bootstrap interval, Mann-Whitney on the JVM medians, equivalence band 5%). A
# trial is a false positive for a metric when the verdict says better or worse. A power trial runs
# the same with 5 JVMs on platform and 5 on virtual threads and counts "better". The rates come with
# Wilson 95% intervals. The goal: a false-positive rate at or below 10% (5% expected) on each
# per-run headline metric, and power near 1 on platform vs virtual echo.
#
# usage: benchmarks/aa-calibration.sh [TRIALS (20)] [POWER TRIALS (5)] [REQUESTS (5000)]
set -euo pipefail

trials=${1:-20}
power_trials=${2:-5}
requests=${3:-5000}
. "$(dirname "$0")/setup.sh"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
metrics=("run time" "throughput" "latency p99" "context switches per unit")

# one JVM of echo under the agent: $1 directory, $2 label, $3 thread kind
jvm() {
    "$java" "-javaagent:$agent=out=$1,label=$2,threads=$3,profile=off,flame=off,trace-pinned=off" -jar "$workloads" echo \
        --threads "$3" --runs 3 --warmup 2 --n "$requests" --c 100 >/dev/null 2>&1
}

# the verdict of every metric in one comparison, as "metric=verdict" lines (the CLI's jar, built once by setup.sh: an edit
# made while this runs must not rebuild the jars under the trials' JVMs)
verdicts() {
    "$java" -jar "$root/analyzer/target/loomscope.jar" compare "$1" --by "$2" --baseline "$3" --format csv 2>/dev/null |
        awk -F, '$1 == "comparison" { print $2 "=" $5 }'
}

# $1 trial number, $2 "aa" or "power": runs the JVMs in a shuffled order, prints the verdict lines
trial() {
    local dir="$out/$2-$1" seed=$((1000 + $1)) labels
    mkdir -p "$dir"
    if [ "$2" = aa ]; then
        labels=$(printf '%s\n' A A A A A B B B B B | shuf --random-source=<(yes "$seed"))
        for l in $labels; do jvm "$dir" "$l" platform; done
        verdicts "$dir" label A
    else
        labels=$(printf '%s\n' platform platform platform platform platform virtual virtual virtual virtual virtual | shuf --random-source=<(yes "$seed"))
        for l in $labels; do jvm "$dir" "$l" "$l"; done
        verdicts "$dir" threadKind platform
    fi
    rm -rf "$dir"
}

# Wilson 95% interval of k successes in n, as "k/n, rate [low, high]" ("-" for no trials)
wilson() {
    [ "$2" -gt 0 ] || { echo "-"; return; }
    awk -v k="$1" -v n="$2" 'BEGIN { z = 1.96; p = k / n; d = 1 + z * z / n; c = p + z * z / (2 * n);
        h = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)); lo = (c - h) / d; hi = (c + h) / d;
        if (lo < 0) lo = 0; if (hi > 1) hi = 1; printf "%d/%d, %.2f [%.2f, %.2f]", k, n, p, lo, hi }'
}

declare -A decided better seen
start=$(date +%s)
for t in $(seq 1 "$trials"); do
    while IFS='=' read -r metric verdict; do
        case $verdict in better | worse) decided[$metric]=$((${decided[$metric]:-0} + 1)) ;; esac
        seen["$metric|$verdict"]=$((${seen["$metric|$verdict"]:-0} + 1))
    done < <(trial "$t" aa)
    echo "aa-calibration: A/A trial $t/$trials done ($(($(date +%s) - start)) s)" >&2
done
for t in $(seq 1 "$power_trials"); do
    while IFS='=' read -r metric verdict; do
        [ "$verdict" = better ] && better[$metric]=$((${better[$metric]:-0} + 1))
    done < <(trial "$t" power)
    echo "aa-calibration: power trial $t/$power_trials done ($(($(date +%s) - start)) s)" >&2
done

echo "A/A calibration: echo on platform threads, 5 JVMs a label x 3 runs (2 warm-up), $requests requests a run; $trials A/A trials, $power_trials power trials (platform vs virtual); $(nproc) cores, JDK $("$java" -XshowSettings:properties -version 2>&1 | awk -F'= ' '/java.version =/ {print $2}')"
printf '%-28s %-28s %s\n' "metric" "false positives (A/A)" "power (virtual found better)"
for m in "${metrics[@]}"; do
    printf '%-28s %-28s %s\n' "$m" "$(wilson "${decided[$m]:-0}" "$trials")" "$(wilson "${better[$m]:-0}" "$power_trials")"
done
echo "A/A verdicts, every one:"
for key in "${!seen[@]}"; do
    echo "  ${key%%|*}: ${key#*|} ${seen[$key]}"
done | sort
echo "($(($(date +%s) - start)) s)"
