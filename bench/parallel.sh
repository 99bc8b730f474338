#!/usr/bin/env bash
# bench/parallel.sh: what the generators' PARALLEL RESTRICTED label costs a parallel
# CREATE TABLE AS and an INSERT ... SELECT, beside PARALLEL SAFE (uid 0.7.0 before issue 51),
# in one run on one server.
#
#   PGHOST=... PGPORT=... PGUSER=postgres bench/parallel.sh [-n N] [-r R] [--out FILE.md]
#
# A superuser's session: the script sets each generator's label with ALTER FUNCTION for its
# rounds and gives it back PARALLEL RESTRICTED at the end (whatever happens), so run it on a
# throwaway server. It makes the schema uid_bench_parallel with an unlogged table of N rows
# (default 1,000,000) and drops it at the end. Each round (R, default 5, after one untimed
# warm-up) runs every statement under both labels, in an order that rotates a place each
# round; each statement is one psql session with parallel plans forced cheap
# (parallel_setup_cost, parallel_tuple_cost and min_parallel_table_scan_size 0, 2 workers a
# Gather) and jit off, timed by the server (clock_timestamp() around it, no client round
# trip). It reports medians in ms with min–max, and restricted / safe as a ratio of medians.
#
# The statements, for sno_new(0), snowflake_si_new() and revts8_new():
#   ctas          CREATE UNLOGGED TABLE ... AS SELECT n, f() FROM src
#   ctas order    the same with ORDER BY n (the order the migration guide relies on)
#   insert        INSERT INTO an unlogged table SELECT n, f() FROM src (PostgreSQL plans no
#                 parallel INSERT ... SELECT: a control, which no label should change)
set -euo pipefail
source "$(dirname "$0")/lib.sh"

n=1000000 rounds=5 out=
while [ $# -gt 0 ]; do
	case $1 in
	-n) n=$2; shift 2 ;;
	-r) rounds=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	*) echo "usage: $0 [-n N] [-r R] [--out FILE.md]" >&2; exit 2 ;;
	esac
done
check_rows_rounds "$n" "$rounds"

PSQL=(psql -X -q -A -t -v ON_ERROR_STOP=1)
gens=("sno_new(0)" "snowflake_si_new()" "revts8_new()")
stmts=(ctas "ctas order" insert)
labels=(safe restricted)
times=$(mktemp)
restore() {
	"${PSQL[@]}" -c "ALTER FUNCTION sno_new(integer) PARALLEL RESTRICTED;
		ALTER FUNCTION snowflake_si_new() PARALLEL RESTRICTED;
		ALTER FUNCTION revts8_new() PARALLEL RESTRICTED;
		DROP SCHEMA IF EXISTS uid_bench_parallel CASCADE" >/dev/null 2>&1 || true
	rm -f "$times"
}
trap restore EXIT

"${PSQL[@]}" -c "SET client_min_messages = warning; CREATE EXTENSION IF NOT EXISTS uid;
	DROP SCHEMA IF EXISTS uid_bench_parallel CASCADE; CREATE SCHEMA uid_bench_parallel;
	CREATE UNLOGGED TABLE uid_bench_parallel.src AS
	SELECT g AS n, timestamptz '2024-01-01' + g * interval '1 ms' AS created_at
	FROM generate_series(1, $n) g ORDER BY random();" -c "VACUUM ANALYZE uid_bench_parallel.src"

# one_run GEN STATEMENT LABEL: prints the statement's time in ms
one_run() {
	local gen=$1 stmt=$2 label=$3 sql signature
	signature=$(printf '%s' "$gen" | sed 's/(0)/(integer)/')
	case $stmt in
	ctas) sql="CREATE UNLOGGED TABLE uid_bench_parallel.dst AS SELECT n, $gen AS k FROM uid_bench_parallel.src" ;;
	"ctas order") sql="CREATE UNLOGGED TABLE uid_bench_parallel.dst AS SELECT n, $gen AS k FROM uid_bench_parallel.src ORDER BY n" ;;
	insert) sql="INSERT INTO uid_bench_parallel.dst SELECT n, $gen FROM uid_bench_parallel.src" ;;
	esac
	"${PSQL[@]}" <<-SQL
		SET client_min_messages = warning; SET jit = off; SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0;
		SET min_parallel_table_scan_size = 0; SET max_parallel_workers_per_gather = 2;
		ALTER FUNCTION $signature PARALLEL $([ "$label" = safe ] && echo SAFE || echo RESTRICTED);
		DROP TABLE IF EXISTS uid_bench_parallel.dst;
		$([ "$stmt" = insert ] && echo "CREATE UNLOGGED TABLE uid_bench_parallel.dst (n integer, k $(printf '%s' "$gen" | sed 's/_new.*//'));")
		SELECT clock_timestamp() AS t0 \gset
		$sql;
		SELECT round(extract(epoch FROM clock_timestamp() - :'t0') * 1000, 1);
		DROP TABLE uid_bench_parallel.dst;
	SQL
}

cases=()
for g in "${gens[@]}"; do for s in "${stmts[@]}"; do for l in "${labels[@]}"; do
	cases+=("$g|$s|$l")
done; done; done
for ((r = 0; r <= rounds; r++)); do
	while IFS='|' read -r g s l; do
		ms=$(one_run "$g" "$s" "$l")
		# round 0 is the warm-up
		[ "$r" -eq 0 ] || printf '%s|%s|%s|%s\n' "$g" "$s" "$l" "$ms" >>"$times"
	done < <(rotate "$r" "${cases[@]}")
done

report() {
	echo "# Parallel CREATE TABLE AS and INSERT ... SELECT: PARALLEL SAFE vs RESTRICTED generators"
	echo
	echo "$(printf '%(%Y-%m-%d)T' -1), $("${PSQL[@]}" -c 'SHOW server_version'), $n rows, $rounds rounds after a warm-up"
	echo "(bench/parallel.sh; parallel plans forced cheap, 2 workers a Gather, jit off)."
	echo
	bench_machine "$(dirname "$0")/.."
	echo
	echo "| generator | statement | safe ms (min–max) | restricted ms (min–max) | restricted / safe |"
	echo "|---|---|---|---|---|"
	local g s a b
	for g in "${gens[@]}"; do for s in "${stmts[@]}"; do
		a=$(awk -F'|' -v g="$g" -v s="$s" '$1 == g && $2 == s && $3 == "safe" { print $4 }' "$times" | median)
		b=$(awk -F'|' -v g="$g" -v s="$s" '$1 == g && $2 == s && $3 == "restricted" { print $4 }' "$times" | median)
		printf '| `%s` | %s | %s (%s) | %s (%s) | %s |\n' "$g" "$s" \
			"$(fmt "$a" 0)" "$(awk -F'|' -v g="$g" -v s="$s" '$1 == g && $2 == s && $3 == "safe" { print $4 }' "$times" | minmax)" \
			"$(fmt "$b" 0)" "$(awk -F'|' -v g="$g" -v s="$s" '$1 == g && $2 == s && $3 == "restricted" { print $4 }' "$times" | minmax)" \
			"$(div "$b" "$a")"
	done; done
}
if [ -n "$out" ]; then report | tee "$out"; else report; fi
