# Sourced by the benchmark scripts: finds a JDK 21+ as ./loomscope does (LOOMSCOPE_JAVA_HOME), or
# stops with one line naming the script; then builds the jars when they are missing or stale.
# usage: root=...; bench=<script name>; . "$root/benchmarks/setup.sh"
. "$root/.mvn/find-jdk.sh"
if ! loomscope_find_jdk; then
    echo "$bench: $LOOMSCOPE_JDK_ERROR" >&2
    exit 2
fi
"$root/loomscope" --version >/dev/null
