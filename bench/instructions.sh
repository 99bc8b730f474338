#!/usr/bin/env bash
# bench/instructions.sh: instructions per generated ID, counted by valgrind's callgrind in a
# single-user backend (repeatable whatever else the machine does, unlike times).
#
#   bench/instructions.sh [PG_BIN]       (default: /usr/lib/postgresql/15/bin)
#
# UID_CONF, if set, is appended to the cluster's postgresql.conf: e.g. a uid.coordinator line to
# count the IDs of a server that leases its identity (the coordinator must be running).
#
# Run as a user that may run initdb (not root).  It makes a throwaway cluster in a temporary
# directory with the extension installed in PG_BIN's installation, runs
# SELECT count(f) FROM generate_series(1, N) for N = 100,000 and 300,000 under callgrind,
# and prints (Ir(300k) - Ir(100k)) / 200,000 for each f: the instructions one more row
# costs, start-up and the first call's set-up cancelled out.  Compare two builds by running
# it against two installations (e.g. the release and your change) one after the other.
set -euo pipefail
PG_BIN=${1:-/usr/lib/postgresql/15/bin}
command -v valgrind >/dev/null || { echo "valgrind is needed" >&2; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$PG_BIN/initdb" -D "$dir/data" -A trust -U postgres --no-sync >/dev/null
[ -z "${UID_CONF:-}" ] || printf '%s\n' "$UID_CONF" >>"$dir/data/postgresql.conf"
echo "CREATE EXTENSION uid;" | "$PG_BIN/postgres" --single -D "$dir/data" postgres >/dev/null 2>&1

ir() {
	echo "SELECT count($1) FROM generate_series(1, $2) g;" |
		valgrind --tool=callgrind --callgrind-out-file="$dir/cg.out" \
			"$PG_BIN/postgres" --single -D "$dir/data" postgres >/dev/null 2>&1
	callgrind_annotate "$dir/cg.out" | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }'
}

printf '| expression | instructions per row |\n|---|---|\n'
for f in 'g' 'gen_random_uuid()' 'sno_new()' 'muid_new()' 'snowflake_si_new()' 'revts8_new()'; do
	a=$(ir "$f" 100000)
	b=$(ir "$f" 300000)
	printf '| `%s` | %d |\n' "$f" $(((b - a) / 200000))
done
