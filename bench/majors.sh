#!/usr/bin/env bash
# bench/majors.sh: the generators' cost on several servers (PostgreSQL majors),
# side by side in one run.
#
# usage: bench/majors.sh [-n N] [-r R] [--out FILE.md] NAME=CONNINFO NAME=CONNINFO...
#   e.g. bench/majors.sh 18='host=/tmp/a port=5432' 19='host=/tmp/b port=5433'
# Each server must run with uid installed (make install against it); the
# script creates the extension if missing and a schema uid_bench_majors (a
# sequence), dropped at the end.  bench/majors-run.sh builds, installs and
# starts the servers and runs this.
#
# The candidates are the generation section of bench/bench.sh:
# count(f()) over generate_series(1, N) for the floor (count(g)),
# gen_random_uuid(), uuidv7() (18+), nextval(), sno_new() and muid_new()
# (one transaction), as bench/lib.sh defines them.  The capacity-bound generators (snowflake_si, revts8,
# uid60) are left out: their format, not the server, sets their rate
# (bench/bench.sh's capacity section).  A round runs one psql session per
# server, each running every candidate once; the servers' order and the
# candidates' order rotate by one place a round, after one warm-up round.
# The report gives, per candidate and server, the median marginal cost per
# ID (candidate minus the floor of the same session), the ratio of each
# server to the first, and the per-round numbers.
set -euo pipefail

N=5000000
ROUNDS=7
OUT=
SCHEMA=uid_bench_majors
SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$SCRIPT_DIR/lib.sh" # GEN_LABEL, GEN_SQL, check_rows_rounds, median, minmax, fmt, div, rotate, bench_machine
COMMAND=$(printf '%q ' "$0" "$@")
COMMAND=${COMMAND% }

usage() {
	cat <<EOF
usage: $0 [-n N] [-r R] [--out FILE.md] NAME=CONNINFO NAME=CONNINFO...
  -n, --rows N      rows per query (default $N)
  -r, --rounds R    timed rounds, after one warm-up round (default $ROUNDS)
      --out FILE    also write the report to FILE (.md)
NAME labels a server in the report (e.g. its major); CONNINFO is a libpq
connection string.
EOF
}

NAMES=()
declare -A CONN
while [ $# -gt 0 ]; do
	case $1 in
		-n|--rows) N=$2; shift 2 ;;
		-r|--rounds) ROUNDS=$2; shift 2 ;;
		--out) OUT=$2; shift 2 ;;
		-h|--help) usage; exit 0 ;;
		-*) echo "unknown option: $1" >&2; usage >&2; exit 2 ;;
		*=*)
			name=${1%%=*}
			case $name in '' | *[!A-Za-z0-9._-]*) echo "not a server name: '$name'" >&2; exit 2 ;; esac
			[ -z "${CONN[$name]:-}" ] || { echo "server $name given twice" >&2; exit 2; }
			NAMES+=("$name")
			CONN[$name]=${1#*=}
			shift
			;;
		*) echo "not NAME=CONNINFO: $1" >&2; usage >&2; exit 2 ;;
	esac
done
check_rows_rounds "$N" "$ROUNDS"
[ ${#NAMES[@]} -ge 1 ] || { echo "no server given" >&2; usage >&2; exit 2; }
case $OUT in '' | *.md) ;; *) echo "--out takes a file name ending in .md" >&2; exit 2 ;; esac

export LC_ALL=C # psql prints \timing with the locale's decimal separator
log() { printf '%s\n' "$*" >&2; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/uid-majors.XXXXXX")
RAW=$TMP/raw # lines: server round candidate ms
: >"$RAW"
sql() { psql -X -q -v ON_ERROR_STOP=1 -At -d "${CONN[$1]}" -c "SET client_min_messages = warning" -c "$2"; }
cleanup() {
	local s
	for s in "${NAMES[@]}"; do sql "$s" "DROP SCHEMA IF EXISTS $SCHEMA CASCADE" >/dev/null 2>&1 || true; done
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

CANDS=(floor uuid uuidv7 seq sno muid)
declare -A VERSION VERSION_NUM SSL EXTVERSION HAS

for s in "${NAMES[@]}"; do
	log "server $s: ${CONN[$s]}"
	sql "$s" "CREATE EXTENSION IF NOT EXISTS uid" >/dev/null
	sql "$s" "DROP SCHEMA IF EXISTS $SCHEMA CASCADE" >/dev/null
	sql "$s" "CREATE SCHEMA $SCHEMA" >/dev/null
	sql "$s" "CREATE SEQUENCE $SCHEMA.bench_seq" >/dev/null
	VERSION[$s]=$(sql "$s" "SELECT version()")
	VERSION_NUM[$s]=$(sql "$s" "SELECT current_setting('server_version_num')")
	SSL[$s]=$(sql "$s" "SELECT coalesce(nullif(current_setting('ssl_library', true), ''), 'none')")
	EXTVERSION[$s]=$(sql "$s" "SELECT extversion FROM pg_extension WHERE extname = 'uid'")
	for c in "${CANDS[@]}"; do HAS[$s.$c]=1; done
	[ "${VERSION_NUM[$s]}" -ge 180000 ] || HAS[$s.uuidv7]=0
done

# One session on server S in round R: every candidate of S once.
session() {
	local s=$1 r=$2 c cands=()
	for c in "${CANDS[@]}"; do [ "${HAS[$s.$c]}" = 1 ] && cands+=("$c"); done
	{
		echo "SET max_parallel_workers_per_gather = 0; SET jit = off; SET work_mem = '1GB';"
		echo "SET search_path = $SCHEMA, $(sql "$s" "SELECT quote_ident(extnamespace::regnamespace::text) FROM pg_extension WHERE extname = 'uid'");"
		echo '\o /dev/null'
		echo '\set n 1000' # load every function before the clock runs
		for c in "${cands[@]}"; do echo "${GEN_SQL[$c]}"; done
		echo "\\set n $N"
		for c in $(rotate "$r" "${cands[@]}"); do
			echo "\\echo @@ $c"
			echo '\timing on'
			echo "${GEN_SQL[$c]}"
			echo '\timing off'
		done
	} | psql -X -q -v ON_ERROR_STOP=1 -At -d "${CONN[$s]}" >"$TMP/session.out"
	[ "$r" -gt 0 ] || return 0
	awk -v s="$s" -v r="$r" '
		$1 == "@@" { name = $2; next }
		$1 == "Time:" && name != "" { print s, r, name, $2; name = ""; next }' \
		"$TMP/session.out" >>"$RAW"
}

LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')
START_DATE=$(date -u '+%Y-%m-%d %H:%M:%S UTC')
STARTED=$SECONDS
for ((r = 0; r <= ROUNDS; r++)); do
	log "round $r of $ROUNDS$([ $r = 0 ] && echo ' (warm-up, not counted)')"
	for s in $(rotate "$r" "${NAMES[@]}"); do session "$s" "$r"; done
done
LOAD_END=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')
ELAPSED=$((SECONDS - STARTED))

# times of a candidate on a server; per-round marginal ns per ID over the floor
ctimes() { awk -v s="$1" -v c="$2" '$1 == s && $3 == c { print $4 }' "$RAW"; }
marginal() {
	awk -v s="$1" -v c="$2" -v n="$N" '$1 == s && $3 == c { x[$2] = $4 } $1 == s && $3 == "floor" { f[$2] = $4 }
		END { for (r in x) if (r in f) print (x[r] - f[r]) * 1e6 / n }' "$RAW"
}

report() {
	local s c first=${NAMES[0]} m row
	echo "# Generation on ${#NAMES[@]} servers, side by side"
	echo
	echo "- date: $START_DATE"
	echo "- command: \`$COMMAND\`"
	bench_machine "$SCRIPT_DIR/.."
	echo "- load average (1/5/15 min) at start: $LOAD_START; at end: $LOAD_END"
	for s in "${NAMES[@]}"; do
		echo "- $s: ${VERSION[$s]}; uid ${EXTVERSION[$s]}; random bytes from ${SSL[$s]}"
	done
	echo "- N = $N rows per query; $ROUNDS timed rounds after one warm-up round; each round one session per server (servers and candidates rotated by one place a round); wall time $ELAPSED s"
	echo "- sessions: max_parallel_workers_per_gather 0, jit off"
	echo
	echo "### Marginal ns per ID over the floor (median over rounds)"
	echo
	row="| candidate |"
	for s in "${NAMES[@]}"; do row="$row $s |"; done
	for s in "${NAMES[@]:1}"; do row="$row $s / $first |"; done
	echo "$row"
	row="|---|"
	for _ in "${NAMES[@]}" "${NAMES[@]:1}"; do row="$row---:|"; done
	echo "$row"
	for c in "${CANDS[@]:1}"; do
		row="| ${GEN_LABEL[$c]} |"
		declare -A med=()
		for s in "${NAMES[@]}"; do
			if [ "${HAS[$s.$c]}" = 1 ]; then med[$s]=$(marginal "$s" "$c" | median); else med[$s]=nan; fi
			row="$row $(fmt "${med[$s]}") |"
		done
		for s in "${NAMES[@]:1}"; do row="$row $(div "${med[$s]}" "${med[$first]}") |"; done
		echo "$row"
	done
	echo
	echo "### ms per query (median, min–max)"
	echo
	row="| candidate |"
	for s in "${NAMES[@]}"; do row="$row $s |"; done
	echo "$row"
	row="|---|"
	for _ in "${NAMES[@]}"; do row="$row---:|"; done
	echo "$row"
	for c in "${CANDS[@]}"; do
		row="| ${GEN_LABEL[$c]} |"
		for s in "${NAMES[@]}"; do
			if [ "${HAS[$s.$c]}" = 1 ]; then
				row="$row $(fmt "$(ctimes "$s" "$c" | median)" 0) ($(ctimes "$s" "$c" | minmax)) |"
			else
				row="$row – |"
			fi
		done
		echo "$row"
	done
	echo
	echo "### Per round (ms)"
	echo
	echo '```'
	sort -k1,1 -k2,2n -k3,3 "$RAW"
	echo '```'
}

report >"$TMP/report.md"
cat "$TMP/report.md"
if [ -n "$OUT" ]; then
	cp "$TMP/report.md" "$OUT"
	log "wrote $OUT"
fi
