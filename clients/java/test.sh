#!/usr/bin/env bash
# clients/java/test.sh: builds the Java package pgkuid with the JDK (javac,
# jar) against Debian's pgJDBC, in a temporary directory (nothing is
# written into the checkout), and runs its tests: offline over the shared
# vectors, then against the server of the libpq environment (PGHOST,
# PGPORT, PGUSER, PGDATABASE, PGPASSWORD; PGHOST a directory is the
# server's Unix-domain socket there). Without a server the server tests are
# skipped; with UID_TEST_REQUIRE_SERVER=1 that is a failure.
#
#   UID_VECTORS   the vectors (default: clients/vectors/vectors.json)
#   PGJDBC_JAR    pgJDBC (default: /usr/share/java/postgresql.jar, Debian's
#                 libpostgresql-jdbc-java)
#
# Needs: default-jdk-headless (Java 17 or later), libpostgresql-jdbc-java.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export UID_VECTORS=${UID_VECTORS:-$here/../vectors/vectors.json}
pgjdbc=${PGJDBC_JAR:-/usr/share/java/postgresql.jar}
for tool in javac jar java; do
	command -v "$tool" >/dev/null || { echo "clients/java: no $tool on PATH (apt-get install default-jdk-headless)" >&2; exit 1; }
done
[ -r "$pgjdbc" ] || { echo "clients/java: no pgJDBC at $pgjdbc (apt-get install libpostgresql-jdbc-java)" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "== clients/java: $(javac -version 2>&1), $(java -version 2>&1 | head -n 1), pgJDBC $pgjdbc"
ms() { echo $((($(date +%s%N) - $1) / 1000000)) ms; }

start=$(date +%s%N)
# the package: javac with every lint as an error, then the jar
mapfile -t main < <(find "$here/src/main/java" -name '*.java' | sort)
mapfile -t tests < <(find "$here/src/test/java" -name '*.java' | sort)
javac -Xlint:all -Werror -encoding UTF-8 --release 17 -cp "$pgjdbc" -d "$tmp/classes" "${main[@]}"
printf 'Automatic-Module-Name: pgkuid\nImplementation-Title: pgkuid\n' >"$tmp/manifest"
jar --create --file "$tmp/pgkuid.jar" --manifest "$tmp/manifest" -C "$tmp/classes" .
javac -Xlint:all -Werror -encoding UTF-8 --release 17 -cp "$pgjdbc:$tmp/pgkuid.jar" -d "$tmp/test" "${tests[@]}"
echo "== built pgkuid.jar ($(stat -c %s "$tmp/pgkuid.jar") bytes) and the tests in $(ms "$start")"

start=$(date +%s%N)
java -XX:-UsePerfData -cp "$tmp/pgkuid.jar:$tmp/test:$pgjdbc" pgkuid.test.Main
echo "== the tests ran in $(ms "$start")"
