#!/usr/bin/env bash
# The scenario corpus scored (analyzer/src/test/java/dev/loomscope/analyzer/scenarios: 16 services
# with a known virtual-thread pathology or none, docs/analyzer.md#the-scenario-corpus). On each JDK
# given, for each scenario: served on platform threads with the agent's defaults under the
# scenario's rate for SECONDS, then `loomscope advise` on that recording, its hazards against the
# known ones; then `loomscope study --app` on both kinds (one recorded JVM a kind, no controls, 3
# measured windows: the direction, not a verdict); then the scenario on virtual threads without the
# agent under its rate, watched by `loomscope watch` for WATCH seconds (its alarms counted) and read
# by `loomscope attach PID threads`. Writes target/corpus/jdkN/corpus.md (the tables) and prints it.
# WATCH_ONLY=true runs the watch part alone (no recording, advise or study): watch's and threads' scores,
# the time to each first alarm, and the false alarms over the healthy services' CONTROL_WATCH seconds each.
#
# usage: benchmarks/scenarios.sh [SECONDS (20)] [WATCH (45)]
#        JDKS="JDK_HOME ..." (default: the JDK 21 of LOOMSCOPE_JDK21 or .ci/jdk21, and LOOMSCOPE_JAVA_HOME)
#        SCENARIOS=sync-sleep,io-sleep (default: all)
#        WATCH_ONLY=true CONTROL_WATCH=SECONDS (default: three times WATCH)
set -euo pipefail
seconds=${1:-20}
watch=${2:-45}
. "$(dirname "$0")/setup.sh"
cp="$root/analyzer/target/demo-service.classpath"
(cd "$root" && ./mvnw -B -q -pl analyzer test-compile dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile="$cp" >&2)
if [ -z "${JDKS:-}" ]; then
    jdk21=${LOOMSCOPE_JDK21:-$("$root/.ci/jdk21")}
    JDKS="$(dirname "$(dirname "$jdk21")") $LOOMSCOPE_JAVA_HOME"
fi
only=()
[ -n "${SCENARIOS:-}" ] && only=(--scenarios "$SCENARIOS")
study=true
if [ "${WATCH_ONLY:-false}" = true ]; then
    only+=(--advise false)
    study=false
fi
only+=(--control-watch "${CONTROL_WATCH:-$((3 * watch))}")
echo "$bench: $(nproc) cores, $(uname -r); $seconds s recorded a scenario, $watch s watched; JDKs: $JDKS" >&2
for jdk in $JDKS; do
    feature=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$jdk/release")
    "$jdk/bin/java" -cp "$root/analyzer/target/test-classes:$root/analyzer/target/classes:$(cat "$cp")" dev.loomscope.analyzer.scenarios.Corpus \
        --java "$jdk" --agent "$root/agent/target/loomscope-agent.jar" --out "$root/target/corpus/jdk$feature" --seconds "$seconds" \
        --loomscope "$root/loomscope" --study "$study" --watch "$watch" "${only[@]}"
done
