#!/usr/bin/env bash
# test/soak.sh [MINUTES] [--out FILE]: a soak of every generator under load,
# with the server's clock stepped and the server restarted and crashed.  Not
# run in CI.  Sets up like test/demo.sh (packages, a scratch copy, build, a
# throwaway cluster as the postgres OS user), then for MINUTES (default 10):
#
#   - runs pgbench with 32 sessions, each transaction one INSERT into one of five
#     tables, one a type (id TYPE PRIMARY KEY DEFAULT TYPE_new(), the pgbench
#     segment and client, a per-table row number and clock_timestamp());
#     uid60 (1024 IDs per second per server) gets a small share, so the run is
#     about uniqueness under load, not about waiting for uid60;
#   - under libfaketime steps the server's clock back 2 s (at 10% of the run),
#     back another hour (20%) and forward to real time (70%), restarts it
#     (pg_ctl restart -m fast, 35%) and crashes it (kill -9 of a busy backend, so
#     the postmaster reinitializes, 55%), all under load.  A restart or crash ends
#     the pgbench run (its clients lose their connections), so pgbench runs in
#     three segments and the totals add them up;
#   - reports rows per type, duplicates (23505 errors in pgbench's output and the
#     server log, and a count over the tables' heaps), unexpected errors (all but
#     the connection losses the restart and the crash cause), IDs per session out
#     of order, PK indexes checked with amcheck, each generator's rate against
#     its capacity, uid_stats(), and latency percentiles per script.
#
# Prints a markdown summary (--out FILE also writes it to FILE) and exits 1 if a
# duplicate, an unexpected error, an out-of-order ID or a broken index appeared,
# 2 if the soak itself did not go as planned (a clock step that did not apply,
# a server that did not come back, a pgbench still waiting a minute after its
# end: the soak names the backends that hang, stops there and still checks).
#
# The server has a fixed identity (uid.partition, uid.generator, uid.cluster,
# uid.medallion): a partition or medallion drawn at each start would keep IDs
# from before and after the restart and the crash apart by itself, and hide a
# generator that reused its times.
#
# The extension is built and installed into a private copy of the server under
# the scratch directory (its own lib/ and share/), so that other builds that
# install uid into the same PostgreSQL while the soak runs cannot change the
# library its restarts and new sessions load.
#
# Environment: PG_MAJOR (default 15), UID_SCRATCH (default /tmp/uid-soak),
# UID_PORT (default 54480), as for test/lib.sh; UID_SOAK_CLIENTS (32),
# UID_SOAK_JOBS (2); UID_KEEP=1 leaves the cluster running.
UID_SCRATCH=${UID_SCRATCH:-/tmp/uid-soak}
UID_PORT=${UID_PORT:-54480}
source "$(dirname "$0")/lib.sh"

usage() { echo "usage: $0 [MINUTES] [--out FILE]" >&2; exit 2; }
COMMAND=$(printf '%q ' "$0" "$@")
COMMAND=${COMMAND% }

MINUTES=10
OUT=
while [ $# -gt 0 ]; do
	case $1 in
		--out)
			[ $# -ge 2 ] || usage
			OUT=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
			shift 2
			;;
		-h | --help) usage ;;
		*)
			[[ $1 =~ ^[0-9]+(\.[0-9]+)?$ ]] || usage
			MINUTES=$1
			shift
			;;
	esac
done
DURATION=$(awk -v m="$MINUTES" 'BEGIN { printf "%d", m * 60 }')
[ "$DURATION" -ge 30 ] || { echo "a soak needs at least half a minute" >&2; exit 2; }
CLIENTS=${UID_SOAK_CLIENTS:-32}
JOBS=${UID_SOAK_JOBS:-2}
GIT_REV=$(git -C "$UID_SRC" rev-parse --short HEAD 2>/dev/null || echo '?')
[ -z "$(git -C "$UID_SRC" status --porcelain --untracked-files=no 2>/dev/null)" ] ||
	GIT_REV="$GIT_REV (working tree modified)"

# The scripts: name, weight, rows per transaction, the type's generator call.
# Weights are shares of transactions; uid60 gets 2 in 100: 200 to 400 uid60
# IDs a second at the 10,000 to 20,000 transactions a second of 2 cores, well
# under its 1024.
TYPES=(sno snowflake_si revts8 muid uid60)
declare -A WEIGHT=([sno]=30 [snowflake_si]=25 [revts8]=25 [muid]=18 [uid60]=2)
declare -A BATCH=([sno]=10 [snowflake_si]=10 [revts8]=10 [muid]=4 [uid60]=1)
declare -A NEWCALL=([sno]='sno_new(1)' [snowflake_si]='snowflake_si_new()' [revts8]='revts8_new()'
	[muid]='muid_new()' [uid60]='uid60_new()')

# The plan, in fractions of the run: clock offsets (as libfaketime's file
# takes them), the restart and the crash.  The clock steps are 2 s back, then
# another hour back, then forward to real time.
RESTART_AT=0.35 CRASH_AT=0.55
PLAN=("0.10 clock -2" "0.20 clock -3602" "$RESTART_AT restart" "$CRASH_AT crash" "0.70 clock +0" "1.00 end")

use_major "${PG_MAJOR:-15}"
install_packages "$PG_MAJOR"
ensure_postgres
FAKETIME=$(faketime_lib)
[ -n "$FAKETIME" ] && [ -e "$FAKETIME" ] || { echo "libfaketime not found (package libfaketime)" >&2; exit 2; }
copy_sources

# A private copy of the server (see above); PG_BIN and PG_CONFIG point at it.
PGCOPY=$SCRATCH/pg
say "copying PostgreSQL $PG_MAJOR to $PGCOPY"
private_installation "$PGCOPY"
PG_BIN=$COPY_BIN
PG_CONFIG=$COPY_CONFIG
[ -x "$PG_BIN/pgbench" ] || { echo "no pgbench in $PG_BIN" >&2; exit 2; }
build_and_install

SOAK=$SCRATCH/soak
CLOCK_FILE=$SCRATCH/faketime.rc
SERVER_LOG=$SCRATCH/server.log
SERVER_OPTS="-p $PORT -k $SCRATCH -c listen_addresses=''"
as_pg mkdir -p "$SOAK"

# The server's clock offset from real time, in libfaketime's relative form.
# Written to a new file and renamed over the old one: a backend that reads it
# mid-write never sees an empty file.  Only CLOCK_REALTIME moves
# (FAKETIME_DONT_FAKE_MONOTONIC), as in an NTP step.  Each process re-reads the
# file once more than a whole second has passed since it last did
# (FAKETIME_CACHE_DURATION=1), so a step reaches every backend within two
# seconds.  Not FAKETIME_NO_CACHE, as the TAP tests once used: it
# re-reads the file (fopen) on every clock read, and under this load a
# backend's SIGALRM handler (PostgreSQL's timeouts read the clock) then lands
# inside that fopen and deadlocks on stdio's lock, which hung a soak for good.
set_clock() {
	as_pg sh -c 'printf "%s\n" "$1" >"$2.tmp" && mv "$2.tmp" "$2"' sh "$1" "$CLOCK_FILE"
}
FAKED_ENV=(LD_PRELOAD="$FAKETIME" FAKETIME_TIMESTAMP_FILE="$CLOCK_FILE" FAKETIME_CACHE_DURATION=1
	FAKETIME_DONT_FAKE_MONOTONIC=1)
faked() { as_pg env "${FAKED_ENV[@]}" "$@"; }
sql() { uid_psql -XAtq -v ON_ERROR_STOP=1 -d postgres "$@"; }
now() { date +%s.%N; }
# The server's clock minus the real one, in seconds (to the cost of a psql call).
clock_offset() {
	local before server after
	before=$(now)
	server=$(sql -c "SELECT extract(epoch FROM clock_timestamp())")
	after=$(now)
	awk -v b="$before" -v s="$server" -v a="$after" 'BEGIN { printf "%.2f", s - (b + a) / 2 }'
}
postmaster_pid() { as_pg head -n 1 "$PGDATA_DIR/postmaster.pid" 2>/dev/null || echo '?'; }
wait_ready() {
	local i
	for i in $(seq 1 600); do
		as_pg "$PG_BIN/pg_isready" -q -h "$PGHOST" -p "$PGPORT" && return 0
		sleep 0.2
	done
	return 1
}

say "starting a throwaway $(pg_version) cluster under libfaketime in $PGDATA_DIR (port $PORT)"
init_cluster "$PG_BIN" "$PGDATA_DIR"
as_pg tee -a "$PGDATA_DIR/postgresql.conf" >/dev/null <<'EOF'
# test/soak.sh: a fixed identity, so that a generator that reused its times
# after the restart or the crash would make equal IDs
uid.partition = 7
uid.generator = 5
uid.cluster = 3
uid.medallion = '5ea4c0ffee'
synchronous_commit = off
shared_buffers = '256MB'
max_connections = 100
lc_messages = 'C'
log_line_prefix = '%m [%p] %e '
log_min_messages = warning
EOF
set_clock +0
start_server "$PG_BIN" "$PGDATA_DIR" "$SCRATCH" "$PORT" "$SERVER_LOG" "${FAKED_ENV[@]}"
export PGHOST=$SCRATCH PGPORT=$PORT PGUSER=postgres PGDATABASE=postgres
# A backend that hangs (see set_clock) would keep a fast shutdown waiting.
stop_soak() {
	[ -f "$PGDATA_DIR/postmaster.pid" ] || return 0
	as_pg "$PG_BIN/pg_ctl" -D "$PGDATA_DIR" -m fast -w -t 60 stop >/dev/null 2>&1 ||
		as_pg "$PG_BIN/pg_ctl" -D "$PGDATA_DIR" -m immediate -w -t 60 stop >/dev/null || true
}
[ "${UID_KEEP:-0}" = 1 ] || trap stop_soak EXIT

say "tables and pgbench scripts in $SOAK"
{
	echo "CREATE EXTENSION uid;"
	for t in "${TYPES[@]}"; do
		echo "CREATE TABLE soak_$t (id $t PRIMARY KEY DEFAULT ${NEWCALL[$t]}, seg int NOT NULL,
			client int NOT NULL, n bigserial NOT NULL, at timestamptz NOT NULL DEFAULT clock_timestamp());"
	done
} | sql >/dev/null
AMCHECK=0
if [ "$(sql -c "SELECT count(*) FROM pg_available_extensions WHERE name = 'amcheck'")" = 1 ]; then
	sql -c "CREATE EXTENSION amcheck" >/dev/null
	AMCHECK=1
fi
PGBENCH_FILES=()
for t in "${TYPES[@]}"; do
	if [ "${BATCH[$t]}" = 1 ]; then
		echo "INSERT INTO soak_$t (seg, client) VALUES (:seg, :client_id);"
	else
		echo "INSERT INTO soak_$t (seg, client) SELECT :seg, :client_id FROM generate_series(1, ${BATCH[$t]});"
	fi | as_pg tee "$SOAK/$t.sql" >/dev/null
	PGBENCH_FILES+=(-f "$SOAK/$t.sql@${WEIGHT[$t]}")
done

LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
DATE_START=$(date -u '+%Y-%m-%d %H:%M:%S UTC')
T0=$(now)
HARNESS=() # what did not go as planned
EVENTS=()  # rows of the events table
seg=0
PGB=
SEG_T0=
rel() { awk -v t0="$T0" -v n="$(now)" 'BEGIN { printf "%.1f", n - t0 }'; }
sleep_until() { # fraction of the run
	local d
	d=$(awk -v t0="$T0" -v f="$1" -v D="$DURATION" -v n="$(now)" 'BEGIN { d = t0 + f * D - n; printf "%.3f", (d > 0 ? d : 0) }')
	sleep "$d"
}
# start_segment FRACTION KIND: pgbench until the plan's next restart, crash
# (then a long -T: the event ends it) or end (then -T ends it).
start_segment() {
	local until=$1 kind=$2 secs
	seg=$((seg + 1))
	secs=$(awk -v t0="$T0" -v f="$until" -v D="$DURATION" -v n="$(now)" 'BEGIN { d = t0 + f * D - n; printf "%d", (d < 1 ? 1 : d + 0.5) }')
	[ "$kind" = end ] || secs=$((secs + 300))
	SEG_T0=$(now)
	say "segment $seg: pgbench, $CLIENTS clients, until the $kind (at $(rel) s of $DURATION)"
	as_pg sh -c 'echo $$ >"$0" && exec "$@"' "$SOAK/seg$seg.pid" \
		env PGHOST="$PGHOST" PGPORT="$PGPORT" PGUSER=postgres PGDATABASE=postgres \
		"$PG_BIN/pgbench" -n -M prepared -c "$CLIENTS" -j "$JOBS" -T "$secs" -P 10 -r --failures-detailed \
		-D seg="$seg" "${PGBENCH_FILES[@]}" -l --log-prefix="$SOAK/seg$seg" \
		>"$SOAK/seg$seg.out" 2> >(tee "$SOAK/seg$seg.err" | grep --line-buffered '^progress:' | sed -u "s/^/seg $seg /" >&2) &
	PGB=$!
	SEG_KIND[$seg]=$kind
}
declare -a SEG_KIND SEG_SECS SEG_RC SEG_STOPPED
# end_segment: waits for pgbench (at most 60 s more), records its time and
# status.  A pgbench still running then waits for a backend that hangs: the
# soak names it, stops pgbench and ends the plan there (ABORT).
ABORT=
end_segment() {
	local rc=0 i stuck
	for i in $(seq 1 600); do kill -0 "$PGB" 2>/dev/null || break; sleep 0.1; done
	if kill -0 "$PGB" 2>/dev/null; then
		stuck=$(sql -F ' ' -c "SELECT pid, round(extract(epoch FROM statement_timestamp() - query_start)),
			coalesce(wait_event, '-'), left(query, 40) FROM pg_stat_activity
			WHERE backend_type = 'client backend' AND state = 'active' AND pid <> pg_backend_pid()
			AND query_start < statement_timestamp() - interval '30 s' ORDER BY query_start LIMIT 5" 2>&1 |
			while read -r p secs we q; do
				printf '%s (%s s, wait event %s, kernel %s: %s); ' "$p" "$secs" "$we" "$(cat /proc/"$p"/wchan 2>/dev/null)" "$q"
			done || true)
		HARNESS+=("segment $seg: pgbench still ran 60 s after the ${SEG_KIND[$seg]}; stopped, and the soak ended there. Busy for over 30 s (the first 5): ${stuck:-none}")
		ABORT=1
		SEG_STOPPED[$seg]=1
		"${SUDO[@]}" kill -TERM "$(cat "$SOAK/seg$seg.pid")" 2>/dev/null || true
	fi
	wait "$PGB" || rc=$?
	SEG_RC[$seg]=$rc
	SEG_SECS[$seg]=$(awk -v a="$SEG_T0" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')
	sleep 0.5 # tee and the log files
}

say "soak: $DURATION s, plan: ${PLAN[*]}"
start_segment "$RESTART_AT" restart
for e in "${PLAN[@]}"; do
	set -- $e
	at=$1 what=$2 arg=${3:-}
	[ -z "$ABORT" ] || break
	sleep_until "$at"
	t=$(rel)
	case $what in
		clock)
			set_clock "$arg"
			sleep 1.5 # every backend has re-read the file
			off=$(clock_offset || echo '?')
			say "$t s: server clock set to $arg s, measured offset $off s"
			[ "$arg" != +0 ] || INSTEP_FROM=$(now)
			if ! awk -v o="$off" -v w="$arg" 'BEGIN { exit !(o != "?" && (o - w < 1 && w - o < 1)) }'; then
				HARNESS+=("clock step to $arg s did not apply: measured $off s")
			fi
			EVENTS+=("| $t | clock step to $arg s | measured offset $off s |")
			;;
		restart)
			pid_before=$(postmaster_pid)
			say "$t s: pg_ctl restart -m fast"
			t1=$(now)
			faked "$PG_BIN/pg_ctl" -D "$PGDATA_DIR" -w -t 120 -m fast -l "$SERVER_LOG" -o "$SERVER_OPTS" restart >/dev/null ||
				{ HARNESS+=("pg_ctl restart failed"); ABORT=1; }
			wait_ready || { HARNESS+=("the server did not come back after the restart"); ABORT=1; }
			down=$(awk -v a="$t1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')
			end_segment
			off=$(clock_offset || echo '?')
			EVENTS+=("| $t | \`pg_ctl restart -m fast\` | postmaster $pid_before -> $(postmaster_pid); accepting after $down s; clock offset $off s |")
			[ -n "$ABORT" ] || start_segment "$CRASH_AT" crash
			;;
		crash)
			pid_before=$(postmaster_pid)
			victim=$(sql -c "SELECT pid FROM pg_stat_activity WHERE application_name = 'pgbench'
				ORDER BY state = 'active' DESC, random() LIMIT 1")
			say "$t s: kill -9 of backend $victim"
			t1=$(now)
			if [ -n "$victim" ]; then
				"${SUDO[@]}" kill -9 "$victim"
			else
				HARNESS+=("no pgbench backend to kill")
			fi
			sleep 1 # the postmaster notices and reinitializes
			wait_ready || { HARNESS+=("the server did not come back after the crash"); ABORT=1; }
			down=$(awk -v a="$t1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')
			end_segment
			[ "$(postmaster_pid)" = "$pid_before" ] || HARNESS+=("the postmaster changed after the crash")
			EVENTS+=("| $t | \`kill -9\` of backend $victim (crash) | postmaster $pid_before reinitialized; accepting after $down s |")
			[ -n "$ABORT" ] || start_segment 1.00 end
			;;
		end)
			INSTEP_TO=$(now)
			end_segment
			EVENTS+=("| $t | end |  |")
			;;
	esac
done
LOAD_END=$(cut -d' ' -f1-3 /proc/loadavg)
WALL=$(rel)

# ---- analysis ------------------------------------------------------------
say "checking"
# Errors in pgbench's output.  A client's abort takes several lines (pgbench's
# line, then the server's or libpq's message), and pgbench's two threads can
# write into each other's lines.  The restart's and the crash's connection
# losses are expected in the segment they end; a unique violation counts as a
# duplicate; every other line is an unexpected error.
DUP_RE='duplicate key value violates unique constraint|^DETAIL:  Key \(id\)=\(.*\) already exists'
DUP_LINES=()
EXPECTED_RE='terminating connection due to administrator command|terminating connection because of crash of another server process|server closed the connection unexpectedly|This probably means the server terminated abnormally|before or while processing the request|the database system is (shutting down|in recovery mode|starting up)|could not send data to server|could not receive data from server|no connection to the server|connection to server .* failed|In a moment you should be able to reconnect|The postmaster has commanded this server process|perhaps the backend died while processing'
DUP_PGBENCH=0
UNEXPECTED=0
UNEXPECTED_LINES=()
for s in $(seq 1 "$seg"); do
	err=$SOAK/seg$s.err
	d=$({ grep -o 'duplicate key value violates unique constraint' "$err" || true; } | wc -l)
	DUP_PGBENCH=$((DUP_PGBENCH + d))
	while IFS= read -r l; do DUP_LINES+=("segment $s: $l"); done < <(grep -E '^DETAIL:  Key \(id\)' "$err" | head -n 5)
	# (pgbench's closing line after aborted clients says nothing of its own)
	lines=$(grep -v '^progress:' "$err" | grep -Ev "$DUP_RE" | grep -v 'Run was aborted; the above results are incomplete' |
		grep -v '^[[:space:]]*$' || true)
	if [ -n "${SEG_STOPPED[$s]:-}" ]; then # the soak stopped it (see "not as planned")
		lines=$(printf '%s\n' "$lines" | grep -vx 'Terminated' || true)
	fi
	if [ "${SEG_KIND[$s]}" != end ]; then
		lines=$(printf '%s\n' "$lines" | grep -Ev "$EXPECTED_RE" | grep -v '^[[:space:]]*$' || true)
	fi
	if [ -n "$lines" ]; then
		n=$(printf '%s\n' "$lines" | wc -l)
		UNEXPECTED=$((UNEXPECTED + n))
		while IFS= read -r l; do UNEXPECTED_LINES+=("segment $s: $l"); done < <(printf '%s\n' "$lines" | sed -E 's/client [0-9]+/client N/g' |
			sort | uniq -c | sort -rn | head -n 10 | sed -E 's/^ *([0-9]+) (.*)$/\1 x \2/')
	fi
	# pgbench exits 0, or 2 when clients aborted (each abort is counted above)
	if [ "${SEG_RC[$s]}" != 0 ] && [ "${SEG_RC[$s]}" != 2 ] && [ -z "${SEG_STOPPED[$s]:-}" ]; then
		UNEXPECTED=$((UNEXPECTED + 1))
		UNEXPECTED_LINES+=("segment $s: pgbench exited with ${SEG_RC[$s]}")
	fi
done
# The server log: SQLSTATE 23505 (log_line_prefix has %e), and ERROR or PANIC
# lines.  The restart's and the crash's FATALs and WARNINGs are expected there.
DUP_LOG=$(as_pg grep -c ' 23505 ERROR: ' "$SERVER_LOG" || true)
SRV_BAD=$(as_pg grep -E ' [0-9A-Z]{5} (ERROR|PANIC): ' "$SERVER_LOG" | grep -v ' 23505 ERROR: ' |
	sed -E 's/^[^ ]+ [^ ]+ [^ ]+ \[[0-9]+\] //' | sort | uniq -c | sort -rn | sed -E 's/^ *([0-9]+) (.*)$/\1 x \2/' || true)
SRV_BAD_N=$(printf '%s\n' "$SRV_BAD" | awk 'NF { n += $1 } END { print n + 0 }')
if [ "$SRV_BAD_N" -gt 0 ]; then
	while IFS= read -r l; do UNEXPECTED_LINES+=("server log: $l"); done < <(printf '%s\n' "$SRV_BAD" | head -n 10)
fi
CRASH_SEEN=$(as_pg grep -c 'terminated by signal 9' "$SERVER_LOG" || true)
REINIT_SEEN=$(as_pg grep -c 'all server processes terminated; reinitializing' "$SERVER_LOG" || true)

# Per type: rows, duplicates over the heap (count(DISTINCT) reads the table, not
# the index), the PK index against the heap (amcheck), and IDs of one session
# out of order: each pgbench client's rows in the order it inserted them (n)
# must have rising IDs in the type's default order (sno: per tick-tock timeline;
# uid60: its time, since its sequence wraps within a second).
declare -A ROWS HEAPDUP ORDER_BAD AMCHECK_RES
declare -A INSTEP
ORDER_BAD_ALL=0
CHECK_T0=$(now)
HEAPDUP_ALL=0
AMCHECK_BAD=0
for t in "${TYPES[@]}"; do
	part="seg, client" cmp="id > prev"
	case $t in
		sno) part="seg, client, sno_tick(id)" ;;
		uid60) cmp="uid60_timestamp(id) >= uid60_timestamp(prev)" ;;
	esac
	read -r ROWS[$t] INSTEP[$t] HEAPDUP[$t] ORDER_BAD[$t] < <(sql -F ' ' <<EOF
SET enable_indexscan = off; SET enable_indexonlyscan = off; SET enable_bitmapscan = off;
SET work_mem = '1GB'; SET max_parallel_workers_per_gather = 0;
SELECT (SELECT count(*) FROM soak_$t),
       (SELECT count(*) FROM soak_$t WHERE at >= to_timestamp(${INSTEP_FROM:-0}) AND at < to_timestamp(${INSTEP_TO:-0})),
       (SELECT count(*) - count(DISTINCT id) FROM soak_$t),
       (SELECT count(*) FROM (SELECT id, lag(id) OVER (PARTITION BY $part ORDER BY n) AS prev FROM soak_$t) s
         WHERE prev IS NOT NULL AND NOT ($cmp));
EOF
	)
	HEAPDUP_ALL=$((HEAPDUP_ALL + HEAPDUP[$t]))
	ORDER_BAD_ALL=$((ORDER_BAD_ALL + ORDER_BAD[$t]))
	if [ "$AMCHECK" = 1 ]; then
		if sql -c "SELECT bt_index_check('soak_${t}_pkey', true)" >/dev/null 2>"$SOAK/amcheck_$t.err"; then
			AMCHECK_RES[$t]=ok
		else
			AMCHECK_RES[$t]="FAILED: $(head -n 1 "$SOAK/amcheck_$t.err")"
			AMCHECK_BAD=$((AMCHECK_BAD + 1))
		fi
	else
		AMCHECK_RES[$t]="not run (no amcheck)"
	fi
done
CHECK_SECS=$(awk -v a="$CHECK_T0" -v b="$(now)" 'BEGIN { printf "%.0f", b - a }')
STATS=$(sql -F ' | ' -c "SELECT '| ' || type, issued, overflow_waits, overflow_wait_us, clock_regressions, tick_flips || ' |'
	FROM uid_stats()")
declare -A ISSUED
while IFS='|' read -r _ ty is _; do ISSUED[${ty// /}]=${is// /}; done <<<"$STATS"
LEASE=$(sql -F ' | ' -c "SELECT '| ' || lease, wal_lease, last_fence, renewals, fences || ' |' FROM uid_lease()")
CONFIG=$(sql -F ' | ' -c "SELECT '| ' || name, setting, effective || ' |' FROM uid_config()
	WHERE name IN ('uid.partition', 'uid.generator', 'uid.cluster', 'uid.medallion', 'uid.snowflake_si_index_bits')")
INDEX_BITS=$(sql -c "SELECT effective FROM uid_config() WHERE name = 'uid.snowflake_si_index_bits'")
SERVER_VERSION=$(sql -c "SELECT version()")
UID_VERSION=$(sql -c "SELECT extversion FROM pg_extension WHERE extname = 'uid'")

INSTEP_SECS=$(awk -v a="${INSTEP_FROM:-0}" -v b="${INSTEP_TO:-0}" 'BEGIN { printf "%.1f", (b > a ? b - a : 0) }')
# Load: the seconds pgbench ran, summed over the segments.
LOAD_SECS=$(printf '%s\n' "${SEG_SECS[@]}" | awk '{ s += $1 } END { printf "%.1f", s }')
declare -A CAPACITY=([sno]=16384000 [snowflake_si]=$((1000 << INDEX_BITS)) [revts8]=64000 [muid]=1000000 [uid60]=1024)

# Latency per script from pgbench's transaction logs (client, transaction,
# time in us, script, ...); failed transactions have no time there.
SCRIPT_NO=0
declare -A LAT
for t in "${TYPES[@]}"; do
	LAT[$t]=$(cat "$SOAK"/seg*.[0-9]* 2>/dev/null | awk -v s="$SCRIPT_NO" '$4 == s && $3 ~ /^[0-9]+$/ { print $3 }' |
		sort -n | awk '{ v[NR] = $1 } END {
			if (NR == 0) { print "0 | – | – | – | – |"; exit }
			split("0.50 0.90 0.99", q, " ")
			printf "%d", NR
			for (i = 1; i <= 3; i++) { k = int(q[i] * NR + 0.999999); if (k < 1) k = 1; printf " | %.1f", v[k] / 1000 }
			printf " | %.1f |\n", v[NR] / 1000 }')
	SCRIPT_NO=$((SCRIPT_NO + 1))
done

seg_tx() { sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p' "$SOAK/seg$1.out" | head -n 1; }
seg_failed() { sed -n 's/^number of failed transactions: \([0-9]*\).*/\1/p' "$SOAK/seg$1.out" | head -n 1; }
seg_aborted() { { grep -Eo 'client [0-9]+ (script [0-9]+ )?aborted in command' "$SOAK/seg$1.err" || true; } | wc -l; }

# (pgbench's output and the server log show the same 23505s)
DUPS=$((DUP_PGBENCH > DUP_LOG ? DUP_PGBENCH : DUP_LOG))
DUPS=$((DUPS + HEAPDUP_ALL))
FAIL=0
[ "$DUPS" -eq 0 ] && [ "$UNEXPECTED" -eq 0 ] && [ "$SRV_BAD_N" -eq 0 ] && [ "$ORDER_BAD_ALL" -eq 0 ] && [ "$AMCHECK_BAD" -eq 0 ] || FAIL=1
RESULT=PASS
[ "$FAIL" = 0 ] || RESULT=FAIL
[ ${#HARNESS[@]} -eq 0 ] || RESULT="$RESULT (and the soak did not go as planned, see below)"

# ---- report ----------------------------------------------------------------
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
ram=$(awk '/^MemTotal:/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)
report() {
	cat <<EOF
## uid soak: $MINUTES minutes under load, clock steps, a restart and a crash

**Result: $RESULT**: duplicates $DUPS, unexpected errors $UNEXPECTED (lines of pgbench's output; the server log has $SRV_BAD_N ERROR or PANIC), IDs out of order $ORDER_BAD_ALL, broken PK indexes $AMCHECK_BAD.

- date: $DATE_START; command: \`$COMMAND\`
- machine: CPU ${cpu:-?}, $(nproc) cores online, RAM $ram, $(uname -srm); load average (1/5/15 min) at start $LOAD_START, at end $LOAD_END. The machine may run other jobs at the same time: rates and latencies are as measured, not a benchmark
- $SERVER_VERSION; uid $UID_VERSION, git $GIT_REV; server under libfaketime (every process re-reads the offset file about once a second: a step reaches all backends within two seconds), \`synchronous_commit = off\`, \`shared_buffers = 256MB\`
- load: pgbench, $CLIENTS clients, $JOBS threads, \`-M prepared\`, each transaction one INSERT of the rows below into one table; $LOAD_SECS s of pgbench in $seg segments (wall $WALL s)

| script (table) | weight | rows per transaction | INSERT |
|---|---:|---:|---|
$(for t in "${TYPES[@]}"; do printf '| %s (soak_%s) | %s | %s | `%s` |\n' "$t" "$t" "${WEIGHT[$t]}" "${BATCH[$t]}" "$(as_pg cat "$SOAK/$t.sql")"; done)

Every table is \`(id TYPE PRIMARY KEY DEFAULT TYPE_new(), seg int, client int, n bigserial, at timestamptz DEFAULT clock_timestamp())\`; \`sno_new(1)\` for sno.

Identity (set by hand in postgresql.conf, so that IDs of different incarnations share it and a reused time would be a duplicate):

| setting | set | effective |
|---|---|---|
$CONFIG

### Events (seconds from the start)

| t (s) | event | observed |
|---:|---|---|
$(printf '%s\n' "${EVENTS[@]}")

The uniqueness checks below (over the heaps, amcheck, the order per session) took $CHECK_SECS s. Server log: $CRASH_SEEN backend(s) terminated by signal 9, $REINIT_SEEN reinitialization(s) of the postmaster.

### Segments

| segment | ended by | pgbench s | transactions | tps | failed | clients aborted | pgbench exit |
|---:|---|---:|---:|---:|---:|---:|---:|
$(for s in $(seq 1 "$seg"); do
		tx=$(seg_tx "$s") fl=$(seg_failed "$s")
		tx=${tx:-0}
		lost=$(seg_aborted "$s")
		[ "${SEG_KIND[$s]}" != end ] || lost="$lost (none expected)"
		printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$s" "${SEG_KIND[$s]}" "${SEG_SECS[$s]}" "$tx" \
			"$(awk -v x="$tx" -v s="${SEG_SECS[$s]}" 'BEGIN { printf "%.0f", x / s }')" "${fl:-?}" "$lost" "${SEG_RC[$s]}"
	done)

### Uniqueness

| type | rows | duplicates in the heap | PK index (amcheck, heapallindexed) | IDs of a session out of order |
|---|---:|---:|---|---:|
$(for t in "${TYPES[@]}"; do printf '| %s | %s | %s | %s | %s |\n' "$t" "${ROWS[$t]}" "${HEAPDUP[$t]}" "${AMCHECK_RES[$t]}" "${ORDER_BAD[$t]}"; done)

- unique violations (23505): $DUP_PGBENCH in pgbench's output, $DUP_LOG in the server log. The primary keys keep a duplicate out of the tables; each 23505 is an ID a generator made twice (and ends that pgbench client)
$(for l in "${DUP_LINES[@]}"; do printf '  - `%s`\n' "$l"; done)
- unexpected errors: $UNEXPECTED lines of pgbench's output (anything but the connection losses of the restart and the crash, in the segments they end, and the unique violations above), $SRV_BAD_N ERROR or PANIC lines in the server log (other than 23505)
$(for l in "${UNEXPECTED_LINES[@]}"; do printf '  - `%s`\n' "$l"; done)
$(for h in "${HARNESS[@]}"; do printf -- '- **not as planned**: %s\n' "$h"; done)

### Rate against capacity

IDs per second = rows committed / $LOAD_SECS s of pgbench (rows of transactions lost to the restart and the crash are not counted; \`issued\` counts every ID made). While the clock is behind the IDs already made (from the first step back until the clock is forward again, half the run), a generator whose tick is used up borrows the next one without waiting, so the whole run can go past a format's capacity; the last columns count only the rows made with the clock in step again, from the step forward to the end ($INSTEP_SECS s).

| type | rows | issued (uid_stats) | IDs/s, whole run | capacity per s | share | IDs/s, clock in step | share |
|---|---:|---:|---:|---:|---:|---:|---:|
$(for t in "${TYPES[@]}"; do
		awk -v t="$t" -v r="${ROWS[$t]}" -v is="${ISSUED[$t]:-?}" -v s="$LOAD_SECS" -v c="${CAPACITY[$t]}" -v b="${BATCH[$t]}" \
			-v ir="${INSTEP[$t]}" -v is_s="$INSTEP_SECS" 'BEGIN {
			if (is_s <= 0) is_s = 1e-9
			if (t == "muid")
				printf "| muid (transactions of %d rows) | %d | %s | %.0f transactions | %d (a µs each) | %.3f%% | %.0f transactions | %.3f%% |\n", b, r, is, r / b / s, c, 100 * r / b / s / c, ir / b / is_s, 100 * ir / b / is_s / c
			else
				printf "| %s | %d | %s | %.0f | %d | %.2f%% | %.0f | %.2f%% |\n", t, r, is, r / s, c, 100 * r / s / c, ir / is_s, 100 * ir / is_s / c }'
	done)

### uid_stats()

| type | issued | overflow_waits | overflow_wait_us | clock_regressions | tick_flips |
|---|---:|---:|---:|---:|---:|
$STATS

uid_lease():

| lease | wal_lease | last_fence | renewals | fences |
|---|---|---|---:|---:|
$LEASE

### Latency per script (ms, from pgbench's transaction logs, all segments)

| script | transactions | p50 | p90 | p99 | max |
|---|---:|---:|---:|---:|---:|
$(for t in "${TYPES[@]}"; do printf '| %s | %s\n' "$t" "${LAT[$t]}"; done)
EOF
}
REPORT=$(report)
say "summary"
printf '%s\n' "$REPORT"
if [ -n "$OUT" ]; then
	printf '%s\n' "$REPORT" >"$OUT"
	say "written to $OUT"
fi
if [ "${UID_KEEP:-0}" = 1 ]; then
	say "the cluster keeps running: psql -h $PGHOST -p $PGPORT -U postgres (logs in $SOAK)"
fi
[ "$FAIL" = 0 ] || exit 1
[ ${#HARNESS[@]} -eq 0 ] || exit 2
exit 0
