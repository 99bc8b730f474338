#!/usr/bin/env bash
# bench/instructions.sh: instructions per generated ID, counted by valgrind's callgrind in a
# single-user backend (repeatable whatever else the machine does, unlike times).
#
#   bench/instructions.sh [PG_BIN]       (default: /usr/lib/postgresql/15/bin)
#
# UID_CONF, if set, is appended to the cluster's postgresql.conf: e.g. a uid.coordinator line to
# count the IDs of a server that leases its identity (the coordinator must be running).
#
# Run as root or as a user with sudo, like test/ (test/lib.sh): the cluster and the backends are
# the postgres OS user's.  It makes a throwaway cluster in a temporary directory with the
# extension installed in PG_BIN's installation, runs
# SELECT count(f) FROM generate_series(1, N) for N = 100,000 and 300,000 under callgrind,
# and prints (Ir(300k) - Ir(100k)) / 200,000 for each f: the instructions one more row
# costs, start-up and the first call's set-up cancelled out.  Compare two builds by running
# it against two installations (e.g. the release and your change) one after the other.
source "$(dirname "$0")/../test/lib.sh"
PG_BIN=${1:-/usr/lib/postgresql/15/bin}
command -v valgrind >/dev/null || { echo "valgrind is needed" >&2; exit 1; }
dir=$(mktemp -d)
trap '"${SUDO[@]}" rm -rf "$dir"' EXIT
"${SUDO[@]}" chown postgres: "$dir"
init_cluster "$PG_BIN" "$dir/data"
[ -z "${UID_CONF:-}" ] || printf '%s\n' "$UID_CONF" | as_pg tee -a "$dir/data/postgresql.conf" >/dev/null
echo "CREATE EXTENSION uid;" | as_pg "$PG_BIN/postgres" --single -D "$dir/data" postgres >/dev/null 2>&1

ir() {
	echo "SELECT count($1) FROM generate_series(1, $2) g;" |
		as_pg valgrind --tool=callgrind --callgrind-out-file="$dir/cg.out" \
			"$PG_BIN/postgres" --single -D "$dir/data" postgres >/dev/null 2>&1
	as_pg callgrind_annotate "$dir/cg.out" | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }'
}

printf '| expression | instructions per row |\n|---|---|\n'
for f in 'g' 'gen_random_uuid()' 'sno_new()' 'muid_new()' 'snowflake_si_new()' 'revts8_new()'; do
	a=$(ir "$f" 100000)
	b=$(ir "$f" 300000)
	printf '| `%s` | %d |\n' "$f" $(((b - a) / 200000))
done
