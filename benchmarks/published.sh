#!/usr/bin/env bash
# Every experiment docs/results.md puts beside a published figure (../shared/SEED-FIGURES.md), at
# the published settings or the largest this machine runs, in one command. Parts, run in this order
# (name parts as arguments to run only those):
#   echo         the thesis's echo series under ab (benchmarks/echo-series.sh, its default series)
#   continuations the thesis's continuation micro-benchmarks (Freeze, Thaw, FreezeAndThaw, OneShot
#                over paramInt x stackDepth, Oscillation over minDepth x maxDepth x repeat) at its
#                settings: 1 fork, 5 warm-up and 5 measured iterations of 1 s
#   warski       "Limits of Loom's performance": each rendezvous variant at 10M on virtual threads
#                (the article's rendezvous meet-park, meet-yield4-park, meet-spin1000-park,
#                meet-spin10000-park, then the one-slot channel's park, yield4-park, spin1000-park,
#                spin10000-park, synchronous-queue, exchanger; the parks also at parallelism 1,
#                synchronous-queue and exchanger at 1 and 2; the spinning ones 10 runs, each with the
#                machine's round trip between cores before and after it), on JDK 21 when
#                LOOMSCOPE_JDK21 names one (the article's JDK), else the launcher's
#   threads      the blog's ThreadsBenchmark in throughput mode at its settings (1 fork, 2 threads,
#                5+5 iterations, -Xms512m -Xmx1024m)
#   presentation the presentation's JMH tables with context switches (workloads/run-benchmarks.sh)
#   gameoflife   Game of Loom's JMH grid (padding 5 and 25, both kinds, per cell and per core, every
#                channel; padding 100 without 49,324 platform threads, which cannot run here)
# Results go to OUT (./loomscope-published): each part's output, JMH's JSON, the recordings.
# usage: benchmarks/published.sh [--out OUT] [PART ...]
# On this project's machine (2 cores) the parts take about 75, 13, 12, 5, 5 and 42 minutes, 2.5 hours in all.
set -eu

. "$(dirname "$0")/setup.sh"
out=loomscope-published
if [ "${1:-}" = "--out" ]; then
    out=$2
    shift 2
fi
all="echo continuations warski threads presentation gameoflife"
parts=${*:-$all}
for p in $parts; do
    case " $all " in *" $p "*) ;; *) echo "$bench: unknown part '$p' (parts: $all)" >&2; exit 2 ;; esac
done
mkdir -p "$out"
jar="$root/workloads/target/benchmarks.jar"
jmh_opts=""
[ "$LOOMSCOPE_JAVA_MAJOR" -ge 24 ] && jmh_opts="--sun-misc-unsafe-memory-access=allow" # JMH 1.37 uses sun.misc.Unsafe

part() { # name: prints what runs and how long it took
    echo "== $1 ($(date -u +%H:%M:%S))"
}

for p in $parts; do
    start=$(date +%s)
    case $p in
    echo)
        part "the thesis's echo series"
        ECHO_SERIES_OUT="$out/echo" "$root/benchmarks/echo-series.sh" | tee "$out/echo.txt"
        ;;
    continuations)
        part "the thesis's continuation micro-benchmarks"
        # shellcheck disable=SC2086
        "$java" $jmh_opts -jar "$jar" 'continuation\.' -f 1 -wi 5 -w 1 -i 5 -r 1 -rf json -rff "$out/continuations.json" \
            | sed -n '/^Benchmark /,$p' | tee "$out/continuations.txt"
        ;;
    warski)
        part "Warski's rendezvous variants, 10M values, virtual threads"
        rjava=${LOOMSCOPE_JDK21:-$java}
        "$rjava" -version 2>&1 | head -n 1
        # the article's rendezvous (meet-*), then loomscope's one-slot channel with the same waits
        for v in meet-park meet-yield4-park meet-spin1000-park meet-spin10000-park park yield4-park spin1000-park spin10000-park \
            synchronous-queue exchanger; do
            for par in default 1 2; do
                case "$v:$par" in meet-park:2 | park:2) continue ;; meet-park:* | park:*) ;; *-park:1 | *-park:2) continue ;; esac
                extra=()
                [ "$par" != default ] && extra=(--parallelism "$par")
                runs=3
                # a spinning hand-off costs what a cache line's round trip between the cores costs, which a virtual machine's host changes:
                # each run's line says it (--round-trip)
                case "$v" in *spin*) runs=10; extra+=(--round-trip) ;; esac
                lines=$("$rjava" -jar "$workloads" rendezvous --threads virtual --variant "$v" --n 10000000 --runs "$runs" --warmup 1 "${extra[@]}")
                case "$v" in *spin*) grep ' run ' <<<"$lines" | sed 's/^/  /' ;; esac
                echo "$v, parallelism $par: $(tail -n 1 <<<"$lines")"
            done
        done | tee "$out/warski.txt"
        ;;
    threads)
        part "the blog's ThreadsBenchmark, throughput"
        # shellcheck disable=SC2086
        "$java" $jmh_opts -jar "$jar" ThreadsBenchmark -p tasks=10000 -p sleepMs=200 -bm thrpt -f 1 -t 2 -wi 5 -i 5 -w 10 -r 10 \
            -jvmArgs "-Xms512m -Xmx1024m $jmh_opts" -rf json -rff "$out/threads-thrpt.json" | tail -n 6 | tee "$out/threads-thrpt.txt"
        ;;
    presentation)
        part "the presentation's JMH tables"
        "$root/workloads/run-benchmarks.sh" "$out/presentation" | tee "$out/presentation.md"
        ;;
    gameoflife)
        part "Game of Loom's grid"
        # shellcheck disable=SC2086
        "$java" $jmh_opts -jar "$jar" GameOfLifeBenchmark -p padding=5,25 -rf json -rff "$out/gameoflife-5-25.json" >"$out/gameoflife-5-25.txt"
        # shellcheck disable=SC2086
        "$java" $jmh_opts -jar "$jar" GameOfLifeBenchmark -p padding=100 -p threadPerCell=false -rf json -rff "$out/gameoflife-100-core.json" \
            >"$out/gameoflife-100-core.txt"
        # shellcheck disable=SC2086
        "$java" $jmh_opts -jar "$jar" GameOfLifeBenchmark -p padding=100 -p threadPerCell=true -p useVirtualThreads=true \
            -rf json -rff "$out/gameoflife-100-cell.json" >"$out/gameoflife-100-cell.txt"
        "$root/loomscope" jmh "$out"/gameoflife-*.json --format md | tee "$out/gameoflife.md"
        ;;
    esac
    echo "$p: $(($(date +%s) - start)) s"
done
