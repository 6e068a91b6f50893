#!/usr/bin/env bash
# The real-application corpus scored (analyzer/src/test/java/dev/loomscope/analyzer/scenarios/App.java,
# docs/analyzer.md#the-real-application-corpus): applications and back-ends nobody here wrote, run as
# their users run them. Spring PetClinic fetched (PETCLINIC_GIT at PETCLINIC_COMMIT) and built with
# its own Maven wrapper, as released and with MySQL Connector/J 8.4.0 (-Dmysql.version); Jetty 12.1,
# H2 1.4.200, Caffeine, Vert.x 5.0 with its reactive MySQL client, and both MySQL drivers from Maven Central
# (benchmarks/server/JettyService.java, VertxService.java), pgjdbc too; a MariaDB server and a PostgreSQL
# server of Debian's (apt-get install mariadb-server postgresql) started on free ports in directories
# of their own and stopped at the end.
# On each JDK given, for each application: served on platform threads (Vert.x: its event loop) under
# the agent's defaults at its rate for SECONDS, `loomscope advise` on that recording as users read it
# (no --rate: the requests the agent counted), its hazards against the known ones; then `loomscope
# study --app` on both kinds (one recorded JVM a kind, no controls, 3 measured windows), the direction
# against advise's and the ceiling against what virtual threads served. Writes
# target/apps/jdkN/corpus.md and prints it.
# The builds are kept in target/apps/build (delete it to build again).
#
# usage: benchmarks/apps.sh [SECONDS (30)]
#        JDKS="JDK_HOME ..." (default: the JDK 21 of LOOMSCOPE_JDK21 or .ci/jdk21, and LOOMSCOPE_JAVA_HOME)
#        APPS=petclinic,jetty-cache (default: all)
set -euo pipefail
seconds=${1:-30}
. "$(dirname "$0")/setup.sh"
for tool in mariadbd mariadb-install-db mariadb-admin mariadb git; do
    command -v "$tool" >/dev/null || { echo "$bench: $tool is needed (apt-get install mariadb-server git)" >&2; exit 2; }
done
pg_bin=$(dirname "$(command -v pg_ctl || ls /usr/lib/postgresql/*/bin/pg_ctl 2>/dev/null | tail -1 || echo .)")
[ -x "$pg_bin/pg_ctl" ] && [ -x "$pg_bin/initdb" ] \
    || { echo "$bench: PostgreSQL's pg_ctl and initdb are needed (apt-get install postgresql)" >&2; exit 2; }
petclinic_git=${PETCLINIC_GIT:-https://github.com/spring-projects/spring-petclinic}
petclinic_commit=${PETCLINIC_COMMIT:-edf4db28affcc4741c79850a3d95bc3f177b5ff9}
build="$root/target/apps/build"
mkdir -p "$build"

# PetClinic, built by its own build: once as released, once with Connector/J 8.4.0
if [ ! -f "$build/spring-petclinic-cj8.jar" ]; then
    rm -rf "$build/petclinic"
    git clone -q "$petclinic_git" "$build/petclinic"
    git -C "$build/petclinic" checkout -q "$petclinic_commit"
    for variant in "spring-petclinic.jar" "spring-petclinic-cj8.jar -Dmysql.version=8.4.0"; do
        set -- $variant
        (cd "$build/petclinic" && ./mvnw -B -q package -DskipTests "${@:2}" >&2)
        cp "$build/petclinic"/target/spring-petclinic-*.jar "$build/$1"
    done
fi

# the Jetty and Vert.x services and the drivers
loomscope_jetty_service "$build"
jetty_cp=$service_cp
loomscope_vertx_service "$build"
vertx_cp=$service_cp
driver() { # group:artifact version: the driver's jar
    loomscope_fetch "$build/drivers" "$1:$2" || exit 2
    find "$build/drivers" -name "${1#*:}-$2.jar"
}
cj8=$(driver com.mysql:mysql-connector-j 8.4.0)
cj9=$(driver com.mysql:mysql-connector-j 9.6.0)
pgjdbc=$(driver org.postgresql:postgresql 42.7.10)

# a MariaDB server of its own, stopped at the end
db=$(mktemp -d)
db_port=$(loomscope_free_port)
mariadb-install-db --no-defaults --datadir="$db/data" --user="$(id -un)" >"$db/install.log" 2>&1 \
    || { echo "$bench: mariadb-install-db failed (see $db/install.log)" >&2; exit 2; }
mariadbd --no-defaults --datadir="$db/data" --socket="$db/sock" --port="$db_port" --bind-address=127.0.0.1 \
    --user="$(id -un)" --skip-grant-tables --max-connections=1000 >"$db/server.log" 2>&1 &
db_pid=$!
# and a PostgreSQL server (which runs as root only as its own user), stopped at the end too
pg=$(mktemp -d)
pg_port=$(loomscope_free_port)
as_postgres() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
[ "$(id -u)" = 0 ] && chown postgres "$pg"
trap 'kill $db_pid 2>/dev/null; wait $db_pid 2>/dev/null; as_postgres "$pg_bin/pg_ctl" -D "$pg/data" -m fast -w stop \
    >/dev/null 2>&1; rm -rf "$db" "$pg"' EXIT
for _ in $(seq 300); do mariadb-admin --socket="$db/sock" ping >/dev/null 2>&1 && break; sleep 0.1; done
mariadb --socket="$db/sock" -e "CREATE DATABASE petclinic" \
    || { echo "$bench: the MariaDB server did not start (see $db/server.log)" >&2; exit 2; }
as_postgres "$pg_bin/initdb" -D "$pg/data" --auth=trust -U postgres >"$pg/initdb.log" 2>&1 \
    || { echo "$bench: initdb failed (see $pg/initdb.log)" >&2; exit 2; }
as_postgres "$pg_bin/pg_ctl" -D "$pg/data" -l "$pg/server.log" -w \
    -o "-p $pg_port -k $pg -c listen_addresses=127.0.0.1 -c max_connections=300" start >/dev/null \
    || { echo "$bench: the PostgreSQL server did not start (see $pg/server.log)" >&2; exit 2; }

cp="$root/analyzer/target/demo-service.classpath"
(cd "$root" && ./mvnw -B -q -pl analyzer test-compile dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile="$cp" >&2)
if [ -z "${JDKS:-}" ]; then
    jdk21=${LOOMSCOPE_JDK21:-$("$root/.ci/jdk21")}
    JDKS="$(dirname "$(dirname "$jdk21")") $LOOMSCOPE_JAVA_HOME"
fi
echo "$bench: $(nproc) cores, $(uname -r); $seconds s recorded an application; MariaDB $(mariadbd --version | awk '{print $3}'); JDKs: $JDKS" >&2
for jdk in $JDKS; do
    feature=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$jdk/release")
    "$jdk/bin/java" -Dloomscope.apps="$build" -Dloomscope.jetty="$jetty_cp" -Dloomscope.vertx="$vertx_cp" \
        -Dloomscope.cj8="$cj8" -Dloomscope.cj9="$cj9" -Dloomscope.pgjdbc="$pgjdbc" \
        -Dloomscope.mariadb="127.0.0.1:$db_port" -Dloomscope.postgres="127.0.0.1:$pg_port" \
        -cp "$root/analyzer/target/test-classes:$root/analyzer/target/classes:$(cat "$cp")" dev.loomscope.analyzer.scenarios.Corpus \
        --java "$jdk" --agent "$agent" --out "$root/target/apps/jdk$feature" --seconds "$seconds" \
        --loomscope "$root/loomscope" --study true --apps "${APPS:-all}"
done
