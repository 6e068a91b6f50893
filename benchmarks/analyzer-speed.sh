#!/usr/bin/env bash
# Speed and memory of every reducing `loomscope` command on a large recording, beside the nearest
# command of the JDK's own `jfr` tool (same JDK, same file) and the physical floor (one pass over
# the file from the page cache: `cat FILE > /dev/null`, just before each command), alternating, ROUNDS times each. The CLI
# runs with -Xmx512m. Prints seconds, MB/s, peak RSS, user and system CPU seconds (GNU time) per run, then the medians and
# each command's speed-up over its jfr counterpart. The command "version" is the CLI's start-up:
# `loomscope --version`, `--help` and a usage error (a misspelt command) beside `jfr version`,
# five of each per round (and the CLI jar's size); any recording will do for it alone.
#
# The command "cached" is a repeated question: summary writing the cache of the recording's facts,
# then pinning answered from it (every other command reads the file: LOOMSCOPE_CACHE=off).
# usage: benchmarks/analyzer-speed.sh [RECORDING.jfr] [ROUNDS (3)] [COMMANDS ("version summary pinning gc heap ctxsw flame rules cached"; also report)]
# BASELINE=DIR (another checkout, built) runs its ./loomscope beside each command, alternating, and
# prints each command's time as a ratio of the baseline's: a change's speed, before and after.
# Without a recording it makes one of about 1.2 GB: the sleep workload (100,000 tasks of 21 ms,
# 330 runs, about 2.5 minutes) under the agent, whose default settings record every sleep.
# A command still running after LIMIT seconds (default 600) is stopped and reported as such.
set -eu

. "$(dirname "$0")/setup.sh"
jdk="$LOOMSCOPE_JAVA_HOME"

file=$(loomscope_recording "${1:-}")
rounds=${2:-3}
commands=${3:-"version summary pinning gc heap ctxsw flame rules cached"}
export LOOMSCOPE_CACHE=off
limit=${LIMIT:-600}
mb=$(( $(wc -c <"$file") / 1000000 ))
echo "file: $file ($mb MB), JDK $LOOMSCOPE_JAVA_MAJOR, $(nproc) cores, $(date -u +%Y-%m-%d)"
echo "loomscope.jar: $(( $(wc -c <"$root/analyzer/target/loomscope.jar") / 1000000 )) MB"
[ -x /usr/bin/time ] || { echo "$bench: GNU time (/usr/bin/time) is needed for the peak RSS (apt-get install time)" >&2; exit 2; }

results=$(mktemp)
tmp=$(mktemp)
out=$(mktemp -d)
timed() { # label command...: one line, and "label seconds rss-MB user-s system-s" into $results
    label=$1
    shift
    if /usr/bin/time -f "%e %M %U %S" -o "$tmp" timeout "$limit" "$@" >/dev/null 2>"$out/err"; then
        status=ok
    elif [ "$label" = "loomscope usage error" ] && grep -q "non-zero status 2$" "$tmp"; then
        status=ok # the usage error's own exit
    else
        status="failed: $(tail -n 1 "$out/err" | cut -c1-100)"
        grep -q "Command exited with non-zero status 124" "$tmp" && status="stopped after $limit s"
    fi
    set -- $(tail -n 1 "$tmp")
    case "$label" in
        *version | *--help | *error) printf "%-34s %8.2f s  %6.0f MB RSS  %s\n" "$label" "$1" "$(($2 / 1024))" "$status" ;;
        *) printf "%-34s %8.2f s  %6.0f MB/s  %6.0f MB RSS  user %5.2f s  sys %5.2f s  %s\n" "$label" "$1" "$(echo "$mb $1" | awk '{ print $1 / $2 }')" \
               "$(($2 / 1024))" "$3" "$4" "$status" ;;
    esac
    [ "$status" = ok ] && echo "$label	$1	$(($2 / 1024))	$3	$4" >>"$results"
    return 0
}

# the floor, next to each reading command (once a round, right after the `jfr view` runs and their 5 GB, it read slower)
floor() { timed "cat (one pass from page cache)" sh -c "cat '$file' >/dev/null"; }

r=1
while [ "$r" -le "$rounds" ]; do
    echo "round $r"
    for c in $commands; do
        case "$c" in
            version)
                for i in 1 2 3 4 5; do
                    timed "loomscope --version" "$root/loomscope" --version
                    timed "loomscope --help" "$root/loomscope" --help
                    timed "loomscope usage error" "$root/loomscope" sumary "$file"
                    timed "jfr version" "$jdk/bin/jfr" version
                done
                ;;
            cached)
                rm -rf "$out/cache"
                floor
                LOOMSCOPE_CACHE="$out/cache" LOOMSCOPE_JAVA_OPTS=-Xmx512m timed "loomscope summary, writing the cache" "$root/loomscope" summary "$file"
                LOOMSCOPE_CACHE="$out/cache" LOOMSCOPE_JAVA_OPTS=-Xmx512m timed "loomscope pinning, from the cache" "$root/loomscope" pinning "$file"
                ;;
            *) for cli in $root ${BASELINE:-}; do
                   floor
                   label="loomscope $c"
                   [ "$cli" = "$root" ] || label="baseline $c"
                   case "$c" in
                       flame) LOOMSCOPE_JAVA_OPTS=-Xmx512m timed "$label" "$cli/loomscope" flame "$file" -o "$out/flame.html" ;;
                       report) rm -rf "$out/report"; LOOMSCOPE_JAVA_OPTS=-Xmx512m timed "$label" "$cli/loomscope" report "$file" -o "$out/report" ;;
                       *) LOOMSCOPE_JAVA_OPTS=-Xmx512m timed "$label" "$cli/loomscope" "$c" "$file" ;;
                   esac
               done ;;
        esac
    done
    timed "jfr summary" "$jdk/bin/jfr" summary "$file"
    timed "jfr view gc-pauses" "$jdk/bin/jfr" view gc-pauses "$file"
    case " $commands " in *" pinning "*) timed "jfr view pinned-threads" "$jdk/bin/jfr" view pinned-threads "$file" ;; esac
    r=$((r + 1))
done

echo
echo "medians over $rounds rounds (the speed-up is over the jfr command named; the floor is cat's time):"
awk -F'\t' -v mb="$mb" '
    { n[$1]++; t[$1, n[$1]] = $2; u[$1, n[$1]] = $4; s[$1, n[$1]] = $5; if ($3 > rss[$1]) rss[$1] = $3 }
    function median(l, t,   i, j, k, v, c) {
        c = n[l]; for (i = 1; i <= c; i++) v[i] = t[l, i]
        for (i = 1; i <= c; i++) for (j = i + 1; j <= c; j++) if (v[j] < v[i]) { k = v[i]; v[i] = v[j]; v[j] = k }
        return c % 2 ? v[(c + 1) / 2] : (v[c / 2] + v[c / 2 + 1]) / 2
    }
    END {
        floor = median("cat (one pass from page cache)", t)
        for (l in n) m[l] = median(l, t)
        ref["loomscope summary"] = "jfr summary"; ref["loomscope --version"] = "jfr version"; ref["loomscope --help"] = "jfr version"; ref["loomscope usage error"] = "jfr version"; ref["loomscope pinning"] = "jfr view pinned-threads"
        for (l in n) if (l ~ /^loomscope / && !(l in ref)) ref[l] = "jfr view gc-pauses"
        for (l in n) if (l ~ /^baseline /) { o = l; sub(/^baseline /, "loomscope ", o); ref[l] = ref[o] }
        for (l in n) {
            line = sprintf("%-34s %8.2f s  %6.0f MB/s  peak %6.0f MB RSS  user %5.2f s  sys %5.2f s", l, m[l], mb / m[l], rss[l],
                median(l, u), median(l, s))
            if (floor > 0) line = line sprintf("  %5.1fx the floor", m[l] / floor)
            if (l ~ /(version|--help|error)$/) line = sprintf("%-34s %8.2f s  peak %6.0f MB RSS", l, m[l], rss[l])
            if ((l in ref) && (ref[l] in m) && ref[l] == "jfr version") line = line sprintf("  %5.2fx the time of %s", m[l] / m[ref[l]], ref[l])
            else if ((l in ref) && (ref[l] in m)) line = line sprintf("  %5.1fx faster than %s", m[ref[l]] / m[l], ref[l])
            base = l; sub(/^loomscope /, "baseline ", base)
            if (l ~ /^loomscope / && (base in m)) line = line sprintf("  %.2fx the baseline'"'"'s time", m[l] / m[base])
            print line
        }
    }' "$results" | sort
rm -rf "$results" "$tmp" "$out"
