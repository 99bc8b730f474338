#!/usr/bin/env bash
# bench/bench.sh: side-by-side benchmarks of the uid extension's generators and sort support.
#
# Connection: the standard libpq environment, e.g.
#   PGHOST=/tmp/benchdev PGPORT=5498 PGUSER=postgres PGDATABASE=postgres bench/bench.sh
# (PGHOST, PGPORT, PGUSER, PGDATABASE, PGPASSWORD or ~/.pgpass, PGOPTIONS ... as for psql).
# The server must already be running with the uid extension installed (make install); this
# script never starts or stops a server.  The machine info it prints is this machine's, so
# run it on the server's machine.
#
# What it does (see bench/README.md for what the numbers mean):
#   1. generation: count(f()) over generate_series(1,N) for the floor (count(g)),
#      gen_random_uuid(), nextval('bench_seq'), sno_new() and muid_new() (one transaction),
#      and on PostgreSQL 18+ its own uuidv7();
#      the capacity-bound generators' rate as a share of their format's capacity;
#   1c. the hot path (issue 25, --only hot): every generator's marginal cost per ID beside
#      clock_timestamp()'s, and two sessions of a capacity-bound generator as a share of its
#      capacity, in two states: as the server comes, and after back-fill and many reloads
#      (as a superuser only: it changes uid.sno_* settings with ALTER SYSTEM and puts them back);
#   2. ORDER BY over N values of bigint, uuid, sno "dense" (sno_new(), many IDs per 4 ms
#      unit) and sno "spread" (one ID per distinct time), muid "bulk" (muid_new() in one
#      transaction) and muid "txns" (4 per transaction), snowflake_si and revts8 (and uuid
#      from uuidv7() on 18+), plus a scan-only query per table;
#   3. text output and input (COPY) and bulk INSERT with a generated primary key (uuidv7()
#      too on 18+), with the size of each primary key index;
#   4. pgbench, 1/2/4/8 clients, one INSERT with a generated key per transaction.
# Other extensions' generators (pg_uuidv7's uuid_generate_v7(), pgEdge snowflake's
# snowflake.nextval()) are candidates in sections 1, 3 and 4 where this database has them
# installed; the report's header names those found and their versions.
# Each section runs ROUNDS rounds after one untimed warm-up round; a round is one psql
# session running every candidate once, the order rotated by one each round.  Times are
# psql's \timing (client-side wall clock); tables report medians.
#
# It creates the extension uid if missing (left in place) and a schema uid_bench with a
# sequence and four unlogged tables of N rows (dropped at the end unless --keep).  With the
# hot path section, as a superuser, it also back-fills a few sno (sno_new_at()) in
# 65532..65535, which sno_new() then leaves out of its range on this server for good.
#
# Session settings: work_mem (default 2GB, so that both generate_series' tuplestore and the
# sorts stay in memory), max_parallel_workers_per_gather = 0 and jit = off, so that every
# candidate is measured single-threaded and without JIT compilation noise.

set -euo pipefail

N=5000000
ROUNDS=7
WORK_MEM=2GB
WRITE=0
KEEP=0
REUSE=0
USE_FEATURES=0
ONLY=all
OUT=
SCHEMA=uid_bench
SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$SCRIPT_DIR/lib.sh" # GEN_LABEL, GEN_SQL, check_rows_rounds, median, minmax, fmt, div, rotate, bench_machine
COMMAND=$(printf '%q ' "$0" "$@")
COMMAND=${COMMAND% }

usage() {
	cat <<EOF
usage: $0 [options]
  -n, --rows N        rows per query (default $N)
  -r, --rounds R      timed rounds per section, after one warm-up round (default $ROUNDS)
  -m, --work-mem MEM  work_mem for the benchmark sessions (default $WORK_MEM)
      --only SECTION  gen, sort or hot (default: all sections)
      --write         also write the report to bench/results.md (and the chart to results.png,
                      drawn from the report by bench/chart.sh)
      --out FILE      like --write, but to FILE (the chart to FILE without .md, plus .png)
      --use-features  hot section: also state (b), which back-fills and reloads 200 times
                      (superuser; marks the server's state file for good: use a throwaway
                      cluster, as bench/run.sh does)
      --keep          keep schema $SCHEMA (tables, sequence) at the end
      --reuse         reuse the sort tables of a kept schema if they have N rows
  -h, --help          this text
Connection via PGHOST, PGPORT, PGUSER, PGDATABASE (libpq environment).
EOF
}

while [ $# -gt 0 ]; do
	case $1 in
		-n|--rows) N=$2; shift 2 ;;
		-r|--rounds) ROUNDS=$2; shift 2 ;;
		-m|--work-mem) WORK_MEM=$2; shift 2 ;;
		--only) ONLY=$2; shift 2 ;;
		--write) WRITE=1; shift ;;
		--out) WRITE=1; OUT=$2; shift 2 ;;
		--keep) KEEP=1; shift ;;
		--use-features) USE_FEATURES=1; shift ;;
		--reuse) REUSE=1; KEEP=1; shift ;;
		-h|--help) usage; exit 0 ;;
		*) echo "unknown argument: $1" >&2; usage >&2; exit 2 ;;
	esac
done
check_rows_rounds "$N" "$ROUNDS"
case $ONLY in all|gen|sort|hot) ;; *) echo "--only takes gen, sort or hot" >&2; exit 2 ;; esac
# runs SECTION: whether this run includes SECTION (gen, sort or hot)
runs() { [ "$ONLY" = all ] || [ "$ONLY" = "$1" ]; }
case $WORK_MEM in *[!0-9A-Za-z]*) echo "bad work_mem: $WORK_MEM" >&2; exit 2 ;; esac
OUT=${OUT:-$SCRIPT_DIR/results.md}
case $OUT in *.md) ;; *) echo "--out takes a file name ending in .md" >&2; exit 2 ;; esac
[ -d "$(dirname "$OUT")" ] || { echo "--out: no directory $(dirname "$OUT")" >&2; exit 2; }
CHART=${OUT%.md}.png

# psql prints \timing with the locale's decimal separator.
export LC_ALL=C
PSQL=(psql -X -q -v ON_ERROR_STOP=1 -At)

TMP=$(mktemp -d "${TMPDIR:-/tmp}/uid-bench.XXXXXX")
SCHEMA_MADE=0
HOT_ALTERED=0
cleanup() {
	if [ "$HOT_ALTERED" = 1 ]; then
		hot_restore >/dev/null 2>&1 || log "could not put the uid.* settings back: run the ALTER SYSTEM statements below and SELECT pg_reload_conf();"$'\n'"$HOT_RESTORE_SQL"
	fi
	rm -rf "$TMP"
	if [ "$KEEP" = 0 ] && [ "$SCHEMA_MADE" = 1 ]; then
		"${PSQL[@]}" -c "SET client_min_messages = warning" -c "DROP SCHEMA IF EXISTS $SCHEMA CASCADE" >/dev/null 2>&1 || true
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
RAW=$TMP/raw			# lines: section round candidate ms
: >"$RAW"

log() { printf '%s\n' "$*" >&2; }
sql() { "${PSQL[@]}" -c "SET client_min_messages = warning" -c "$1"; }

# times of one candidate: ctimes SECTION CANDIDATE
ctimes() { awk -v s="$1" -v c="$2" '$1 == s && $3 == c { print $4 }' "$RAW"; }
# per-round differences a - b: diffs SECTION A B
diffs() {
	awk -v s="$1" -v a="$2" -v b="$3" '$1 == s && $3 == a { x[$2] = $4 }
		$1 == s && $3 == b { y[$2] = $4 }
		END { for (r in x) if (r in y) print x[r] - y[r] }' "$RAW"
}
# per-round differences a - b - w: netdiffs SECTION A B W
netdiffs() {
	awk -v s="$1" -v a="$2" -v b="$3" -v w="$4" '$1 == s && $3 == a { x[$2] = $4 }
		$1 == s && $3 == b { y[$2] = $4 }
		$1 == s && $3 == w { z[$2] = $4 }
		END { for (r in x) if ((r in y) && (r in z)) print x[r] - y[r] - z[r] }' "$RAW"
}
# Runs a psql script from stdin and appends its "@@ name" / "Time:" pairs to RAW as
# "SECTION ROUND name ms".  Keeps the session output in $TMP/session.out.
run_session() {
	local section=$1 round=$2
	"${PSQL[@]}" >"$TMP/session.out"
	awk -v s="$section" -v r="$round" '
		$1 == "@@" { name = $2; next }
		$1 == "Time:" && name != "" { print s, r, name, $2; name = ""; next }' \
		"$TMP/session.out" >>"$RAW"
}

# psql lines that time one query as candidate NAME: timed NAME SQL
timed() {
	echo "\\echo @@ $1"
	echo '\timing on'
	echo "$2"
	echo '\timing off'
}

# ------------------------------------------------------------------ hot path: server settings
# State (b) of the hot path section (1c) measures after the server has used back-fill
# (sno_new_at()) and many reloads.  Back-fill needs a range of sequences that sno_new() has
# never issued on the server, so before any generator runs the script lowers
# uid.sno_sequence_max to 65531 and later back-fills in 65532..65535.  It changes settings
# only as a superuser (ALTER SYSTEM) and puts back what it changed at the end, on error too.
HOT_SETTINGS=(uid.sno_sequence_max uid.sno_backfill_min uid.sno_backfill_max)
HOT_LIVE_MAX=65531		# sno_new()'s highest sequence while the script runs
HOT_BACKFILL_RANGE=(65532 65535)
HOT_RELOADS=200
HOT_B=0				# 1: state (b) is measured (superuser)
HOT_BACKFILL=0			# 1: state (b) back-fills, in the range the script set
# HOT_ALTERED (set before the EXIT trap): 1 while there are settings to put back
HOT_RESTORE_SQL=		# the ALTER SYSTEM statements that put them back
HOT_BEFORE=			# the settings as the server had them
HOT_NOTES=()			# what the script did to the server, for the report
HOT_B_WHAT="$HOT_RELOADS reloads"	# what state (b) comes after

# the uid.* settings of the server, as "name=value ..." (a new session reads them)
hot_settings_now() {
	sql "SELECT string_agg(name || '=' || setting, ' ' ORDER BY name) FROM $EXTSCHEMA.uid_config()
		WHERE name IN ('uid.sno_sequence_min', 'uid.sno_sequence_max', 'uid.sno_backfill_min', 'uid.sno_backfill_max')"
}
hot_setting() { sql "SELECT setting FROM $EXTSCHEMA.uid_config() WHERE name = '$1'"; }

# ALTER SYSTEM statements (on stdin), then a reload, waited for: a new session has loaded it
alter_system() {
	local before i
	before=$(sql "SELECT pg_conf_load_time()")
	{ echo "LOAD 'uid';"; cat; } | "${PSQL[@]}" >/dev/null || return 1
	sql "SELECT pg_reload_conf()" >/dev/null || return 1
	for ((i = 0; i < 100; i++)); do
		[ "$(sql "SELECT pg_conf_load_time() > '$before'::timestamptz")" = t ] && return 0
		sleep 0.1
	done
	log "the server has not reloaded its configuration after 10 s"
	return 1
}

# Before anything generates: the statements that put the settings back, and room for a
# back-fill range above sno_new()'s live range.
hot_prepare() {
	local bmin bmax smin smax
	if [ "$USE_FEATURES" != 1 ]; then
		HOT_NOTES+=("State (b) not measured: it back-fills on this server, which leaves a mark in its state file for good; run with --use-features on a throwaway cluster (bench/run.sh does).")
		return
	fi
	if [ "$(sql "SELECT current_setting('is_superuser')")" != on ]; then
		HOT_NOTES+=("State (b) skipped: role $(sql "SELECT current_user") is not a superuser, and the script changes server settings with ALTER SYSTEM only as one.")
		return
	fi
	if [ "$(sql "SELECT coalesce(current_setting('allow_alter_system', true), 'on')")" = off ]; then
		HOT_NOTES+=("State (b) skipped: the server has allow_alter_system = off.")
		return
	fi
	HOT_B=1
	HOT_BEFORE=$(hot_settings_now)
	bmin=$(hot_setting uid.sno_backfill_min)
	bmax=$(hot_setting uid.sno_backfill_max)
	smin=$(hot_setting uid.sno_sequence_min)
	smax=$(hot_setting uid.sno_sequence_max)
	if [ "$bmin" != -1 ] || [ "$bmax" != -1 ]; then
		HOT_NOTES+=("The server's configuration sets a back-fill range ($bmin..$bmax): the script leaves it alone and does not back-fill (its calls would move the lanes of a port under way); state (b) is reloads only.")
		return
	fi
	if [ "$smin" -gt $((HOT_LIVE_MAX - 3)) ]; then
		HOT_NOTES+=("uid.sno_sequence_min is $smin: no room for a back-fill range above a live range of at least 4; state (b) is reloads only.")
		return
	fi
	HOT_RESTORE_SQL=$(sql "SELECT string_agg(coalesce(
			(SELECT format('ALTER SYSTEM SET %s = %L;', f.name, f.setting) FROM pg_file_settings f
				WHERE f.name = n AND f.sourcefile LIKE '%/postgresql.auto.conf' ORDER BY f.seqno DESC LIMIT 1),
			format('ALTER SYSTEM RESET %s;', n)), E'\n' ORDER BY n)
		FROM unnest(ARRAY['${HOT_SETTINGS[0]}', '${HOT_SETTINGS[1]}', '${HOT_SETTINGS[2]}']) n")
	HOT_BACKFILL=1
	if [ "$smax" -gt "$HOT_LIVE_MAX" ]; then
		HOT_ALTERED=1
		echo "ALTER SYSTEM SET uid.sno_sequence_max = $HOT_LIVE_MAX;" | alter_system
		HOT_NOTES+=("Before any generator ran: \`ALTER SYSTEM SET uid.sno_sequence_max = $HOT_LIVE_MAX\` and a reload (was $smax), so that sno_new() leaves ${HOT_BACKFILL_RANGE[0]}..${HOT_BACKFILL_RANGE[1]} to back-fill: every section of this run has $((HOT_LIVE_MAX - smin + 1)) sno per 4 ms unit.")
	fi
}

# State (b): back-fill, then HOT_RELOADS reloads from one session, which counts those it took.
hot_use_features() {
	local out seen i
	if [ "$HOT_BACKFILL" = 1 ]; then
		HOT_ALTERED=1
		alter_system <<-EOF
			ALTER SYSTEM SET uid.sno_backfill_min = ${HOT_BACKFILL_RANGE[0]};
			ALTER SYSTEM SET uid.sno_backfill_max = ${HOT_BACKFILL_RANGE[1]};
		EOF
		# one session, in time order, one ID per 4 ms unit: never refused for order or a full unit
		if out=$(sql "SELECT count($EXTSCHEMA.sno_new_at(0, t)) FROM generate_series(clock_timestamp() - interval '10 s',
				clock_timestamp() - interval '2 s', interval '8 ms') t" 2>&1); then
			HOT_B_WHAT="back-fill and $HOT_RELOADS reloads"
			HOT_NOTES+=("Back-fill: \`ALTER SYSTEM SET uid.sno_backfill_min = ${HOT_BACKFILL_RANGE[0]}, uid.sno_backfill_max = ${HOT_BACKFILL_RANGE[1]}\` and a reload, then $out IDs from \`sno_new_at(0, t)\` for t 8 ms apart over the 8 s ending 2 s before. sno_new() keeps a back-fill range it has seen used out of its own range for good (the state file records it): on this server it issues at most ${HOT_BACKFILL_RANGE[0]} sequences per unit from now on, whatever the settings.")
		else
			HOT_NOTES+=("Back-fill refused, state (b) is reloads only: $(printf '%s\n' "$out" | sed -n 's/^.*ERROR: *//p' | head -n 1)")
		fi
	fi
	seen=$({
		echo "SELECT pg_conf_load_time();"
		for ((i = 0; i < HOT_RELOADS; i++)); do
			echo "SELECT pg_reload_conf() \\g /dev/null"
			echo "SELECT pg_sleep(0.01) \\g /dev/null"
			echo "SELECT pg_conf_load_time();"
		done
	} | "${PSQL[@]}" | sort -u | wc -l)
	HOT_NOTES+=("Reloads: $HOT_RELOADS \`pg_reload_conf()\` calls from one session, 10 ms apart; the session loaded the configuration $((seen - 1)) times. Each state (b) round's session takes one more reload (\`pg_reload_conf()\`, 100 ms) before its timed queries.")
}

# Puts the settings back as they were and reloads (also from the EXIT trap).
hot_restore() {
	[ "$HOT_ALTERED" = 1 ] || return 0
	printf '%s\n' "$HOT_RESTORE_SQL" | alter_system
	HOT_ALTERED=0
}

# ------------------------------------------------------------------ setup

log "connecting: PGHOST=${PGHOST:-} PGPORT=${PGPORT:-} PGUSER=${PGUSER:-} PGDATABASE=${PGDATABASE:-}"
sql "CREATE EXTENSION IF NOT EXISTS uid" >/dev/null
EXTSCHEMA=$(sql "SELECT quote_ident(extnamespace::regnamespace::text) FROM pg_extension WHERE extname = 'uid'")
EXTVERSION=$(sql "SELECT extversion FROM pg_extension WHERE extname = 'uid'")
PGVERSION=$(sql "SELECT version()")
PGVERSION_NUM=$(sql "SELECT current_setting('server_version_num')::int")
# PostgreSQL 18 has its own time-ordered UUID generator, uuidv7(): a candidate beside the others.
UUIDV7=0
[ "$PGVERSION_NUM" -ge 180000 ] && UUIDV7=1
DATABASE=$(sql "SELECT current_database()")
SHARED_BUFFERS=$(sql "SHOW shared_buffers")
# gen_random_uuid() and uuidv7() take their random bytes from OpenSSL if the server was built
# with it, else from /dev/urandom (an open, read and close per call): it sets their cost.
SSL_LIBRARY=$(sql "SELECT coalesce(nullif(current_setting('ssl_library', true), ''), 'none')")
PREWARM="OS cache only (no pg_prewarm)"
SETTINGS="SET work_mem = '$WORK_MEM'; SET max_parallel_workers_per_gather = 0; SET jit = off; SET search_path = $SCHEMA, $EXTSCHEMA;"
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')
STARTED=$(date +%s)
START_DATE=$(date -u '+%Y-%m-%d %H:%M:%S UTC')

if [ "$REUSE" = 0 ]; then
	sql "DROP SCHEMA IF EXISTS $SCHEMA CASCADE" >/dev/null
fi
sql "CREATE SCHEMA IF NOT EXISTS $SCHEMA" >/dev/null
SCHEMA_MADE=1
sql "CREATE SEQUENCE IF NOT EXISTS $SCHEMA.bench_seq" >/dev/null

# ------------------------------------------------------------------ peers
# Generators of other extensions that a user might pick instead of uid's, measured beside
# them where this database has them (CREATE EXTENSION): pg_uuidv7's uuid_generate_v7() and
# pgEdge's snowflake extension's snowflake.nextval() (PostgreSQL 18's own uuidv7() is above).
# The script never installs them; it leaves out, and the report names, those it cannot run.
PEERS=()			# the peers measured, in the generation, bulk INSERT and pgbench sections
PEER_NOTES=()			# a line each for the report's header
PEER_PGOPTIONS=			# what pgbench's sessions need for them
declare -A PEER_EXPR		# the generator's call, schema-qualified
# peer_found EXTENSION: "version schema" of EXTENSION in this database, or nothing
peer_found() { sql "SELECT extversion || ' ' || quote_ident(extnamespace::regnamespace::text) FROM pg_extension WHERE extname = '$1'"; }
# peer_absent EXTENSION: the report's words for an extension this database does not have
peer_absent() {
	local avail
	avail=$(sql "SELECT default_version FROM pg_available_extensions WHERE name = '$1'")
	if [ -n "$avail" ]; then
		echo "not installed in database $DATABASE (the server has version $avail: \`CREATE EXTENSION $1\` to include it)"
	else
		echo "not installed"
	fi
}
# peer_try NAME EXTENSION VERSION CALL [SETUP [HINT]]: NAME is measured if one call of CALL
# works; else the report says why, and HINT
peer_try() {
	local out
	if out=$(sql "${5:-} SELECT $4" 2>&1); then
		PEERS+=("$1")
		PEER_EXPR[$1]=$4
		return 0
	fi
	PEER_NOTES+=("$2 $3: installed, but left out: \`SELECT $4\` failed: $(printf '%s\n' "$out" | sed -n 's/^.*ERROR: *//p' | head -n 1)${6:+ ($6)}")
	return 1
}
found=$(peer_found pg_uuidv7)
if [ -n "$found" ]; then
	read -r ver sch <<<"$found"
	peer_try pg_uuidv7 pg_uuidv7 "$ver" "$sch.uuid_generate_v7()" &&
		PEER_NOTES+=("pg_uuidv7 $ver (schema $sch): \`uuid_generate_v7()\`")
else
	PEER_NOTES+=("pg_uuidv7: $(peer_absent pg_uuidv7)")
fi
found=$(peer_found snowflake)
if [ -n "$found" ]; then
	read -r ver sch <<<"$found"
	# snowflake.nextval() refuses to run while snowflake.node (1..1023, a superuser's
	# setting) is 0, its default; a sequence of the benchmark's schema, as nextval()'s
	sql "CREATE SEQUENCE IF NOT EXISTS $SCHEMA.bench_sf_seq" >/dev/null
	node=$("${PSQL[@]}" -c "SELECT $sch.get_node(0)" -c "SELECT coalesce(current_setting('snowflake.node', true), '0')" 2>/dev/null | tail -n 1) || node=0
	how="snowflake.node = $node, the server's" hint=
	if [ "${node:-0}" = 0 ] && [ "$(sql "SELECT current_setting('is_superuser')")" = on ]; then
		SETTINGS="$SETTINGS SET snowflake.node = 1;"
		PEER_PGOPTIONS="-c snowflake.node=1"
		how="snowflake.node is not set on the server: this script's sessions SET it to 1"
	elif [ "${node:-0}" = 0 ]; then
		hint="set snowflake.node on the server, or run the script as a superuser, which sets it for its sessions"
	fi
	peer_try snowflake snowflake "$ver" "$sch.nextval('$SCHEMA.bench_sf_seq')" "$SETTINGS" "$hint" &&
		PEER_NOTES+=("snowflake $ver (pgEdge; schema $sch): \`$sch.nextval()\` of a sequence of the benchmark's schema, bench_sf_seq ($how)")
else
	PEER_NOTES+=("snowflake (pgEdge): $(peer_absent snowflake)")
fi
# before anything generates sno: room for state (b)'s back-fill range (section 1c)
if runs hot; then hot_prepare; fi

SORT_TABLES=(bigint uuid sno_dense sno_spread muid_bulk muid_txns snowflake_si revts8 uid60)
[ "$UUIDV7" = 1 ] && SORT_TABLES=(bigint uuid uuidv7 sno_dense sno_spread muid_bulk muid_txns snowflake_si revts8 uid60)
# The values are made in a MATERIALIZED CTE: in "SELECT f() ... ORDER BY random()" the planner
# evaluates a volatile f() after the sort, which would store sno_new()'s IDs in ascending order.
declare -A VALUES=(
	[bigint]="g::bigint"
	[uuid]="gen_random_uuid()"
	[uuidv7]="uuidv7()"
	[sno_dense]="sno_new()"
	[sno_spread]="sno_from_parts(timestamptz '2024-01-01' + g * interval '37 ms', 1, 4242, 0)"
	[muid_bulk]="muid_new()"
	[muid_txns]="muid_from_parts(timestamptz '2024-01-01' + (g / 4) * interval '37 us', 1923190821165, g % 4 + 1)"
	[snowflake_si]="snowflake_si_from_parts(timestamptz '2024-01-01' + (g / 4) * interval '1 ms', 1, g % 4)"
	[revts8]="revts8_from_parts(timestamptz '2024-01-01' + (g / 4) * interval '1 ms', g % 4, 1, 0)"
	[uid60]="uid60_from_parts(timestamptz '2024-01-01' + (g / 1024) * interval '1 s', 1, g % 1024, (g * 37) % 512)"
)
declare -A COLTYPE=([bigint]=bigint [uuid]=uuid [uuidv7]=uuid [sno_dense]=sno [sno_spread]=sno [muid_bulk]=muid [muid_txns]=muid [snowflake_si]=snowflake_si [revts8]=revts8 [uid60]=uid60)
declare -A SORT_METHOD CORRELATION

if runs sort; then
	for t in "${SORT_TABLES[@]}"; do
		have=-1
		if [ "$(sql "SELECT to_regclass('$SCHEMA.sort_$t') IS NOT NULL")" = t ]; then
			have=$(sql "SELECT count(*) FROM $SCHEMA.sort_$t")
		fi
		if [ "$have" != "$N" ]; then
			log "filling $SCHEMA.sort_$t with $N rows in random order"
			"${PSQL[@]}" >/dev/null <<-EOF
				$SETTINGS
				SET client_min_messages = warning;
				DROP TABLE IF EXISTS sort_$t;
				CREATE UNLOGGED TABLE sort_$t (id ${COLTYPE[$t]}) WITH (autovacuum_enabled = off);
				INSERT INTO sort_$t
					WITH v AS MATERIALIZED (SELECT ${VALUES[$t]} AS id FROM generate_series(1, $N) g)
					SELECT id FROM v ORDER BY random();
			EOF
		fi
		sql "VACUUM (FREEZE, ANALYZE) $SCHEMA.sort_$t"
		CORRELATION[$t]=$(sql "SELECT round(correlation::numeric, 3) FROM pg_stats WHERE schemaname = '$SCHEMA' AND tablename = 'sort_$t' AND attname = 'id'")
		if awk -v c="${CORRELATION[$t]}" 'BEGIN { exit !(c == "" || c > 0.1 || c < -0.1) }'; then
			log "sort_$t: physical order is not random (pg_stats correlation '${CORRELATION[$t]}'); drop the schema and rerun"
			exit 1
		fi
		# pre-warm: into shared buffers if pg_prewarm is there, else at least the OS cache
		"${PSQL[@]}" >/dev/null 2>&1 <<-EOF && PREWARM="pg_prewarm into shared buffers" || true
			CREATE EXTENSION IF NOT EXISTS pg_prewarm;
			SELECT pg_prewarm('$SCHEMA.sort_$t');
		EOF
		sql "SELECT count(*) FROM $SCHEMA.sort_$t" >/dev/null

		plan=$("${PSQL[@]}" <<-EOF
			$SETTINGS
			EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) SELECT id FROM sort_$t ORDER BY id OFFSET $N;
		EOF
		)
		method=$(printf '%s\n' "$plan" | sed -n 's/^ *Sort Method: *//p' | sed 's/  */ /g')
		SORT_METHOD[$t]=$method
		if ! printf '%s\n' "$plan" | grep -q '^ *->  *Sort' ||
			printf '%s\n' "$plan" | grep -q -E 'Gather|Incremental|top-N' ||
			! printf '%s\n' "$method" | grep -q '^quicksort Memory'; then
			log "sort_$t: the timed query is not an in-memory full sort (raise --work-mem?):"
			log "$plan"
			exit 1
		fi
		log "sort_$t: ${SORT_METHOD[$t]}; correlation ${CORRELATION[$t]}"
	done
fi

# ------------------------------------------------------------------ 1. generation

# PostgreSQL's own, the peers, uid's
GEN_CANDS=(floor uuid)
[ "$UUIDV7" = 1 ] && GEN_CANDS+=(uuidv7)
GEN_CANDS+=(seq ${PEERS[@]+"${PEERS[@]}"} sno muid)
GEN_LABEL[pg_uuidv7]="count(uuid_generate_v7()) (pg_uuidv7)"
GEN_LABEL[snowflake]="count(snowflake.nextval('bench_sf_seq'))"
for c in ${PEERS[@]+"${PEERS[@]}"}; do
	GEN_SQL[$c]="SELECT count(${PEER_EXPR[$c]}) FROM generate_series(1, :n) g;"
done
SNO_WAITS=()
SNO_ISSUED_BAD=0

gen_session() {
	local round=$1 c
	{
		echo "$SETTINGS"
		echo '\o /dev/null'
		# load every function and catalog entry before the clock runs
		echo '\set n 1000'
		for c in "${GEN_CANDS[@]}"; do echo "${GEN_SQL[$c]}"; done
		echo "\\set n $N"
		for c in $(rotate "$round" "${GEN_CANDS[@]}"); do
			if [ "$c" = sno ]; then
				echo "SELECT overflow_waits AS ow0, issued AS is0, overflow_wait_us AS wu0 FROM uid_stats() WHERE type = 'sno' \\gset"
			fi
			echo "\\echo @@ $c"
			echo '\timing on'
			echo "${GEN_SQL[$c]}"
			echo '\timing off'
			if [ "$c" = sno ]; then
				echo "SELECT overflow_waits AS ow1, issued AS is1, overflow_wait_us AS wu1 FROM uid_stats() WHERE type = 'sno' \\gset"
				echo '\echo @@stats :ow0 :ow1 :is0 :is1 :wu0 :wu1'
			fi
		done
	} | run_session gen "$round"
	if [ "$round" -gt 0 ]; then
		local line
		line=$(grep '^@@stats ' "$TMP/session.out")
		set -- $line
		SNO_WAITS+=($(($3 - $2)))
		[ $(($5 - $4)) = "$N" ] || SNO_ISSUED_BAD=1
		# time sno_new() slept for capacity, as a pseudo-candidate of the round
		echo "gen $round sno_wait $(awk -v a="$6" -v b="$7" 'BEGIN { print (b - a) / 1000 }')" >>"$RAW"
	fi
}

if runs gen; then
	for ((r = 0; r <= ROUNDS; r++)); do
		log "generation: round $r of $ROUNDS$([ $r = 0 ] && echo ' (warm-up, not counted)')"
		gen_session "$r"
	done
fi

# ------------------------------------------------------------------ 1b. capacity
# Generators whose format caps IDs per tick: one session in a tight loop, as a share of
# the cap. CAP_N IDs take about 4 s at full capacity.
CAP_CANDS=(snowflake_si revts8 uid60)
declare -A CAP_PER_S=([snowflake_si]=256000 [revts8]=64000 [uid60]=1024)
declare -A CAP_PER_TICK=([snowflake_si]=256 [revts8]=64 [uid60]=1024)
declare -A CAP_LABEL=([snowflake_si]="snowflake_si_new() (k = 8: 256 per ms)" [revts8]="revts8_new() (64 per ms)" [uid60]="uid60_new() (1024 per s)")
declare -A CAP_N=([snowflake_si]=1024000 [revts8]=256000 [uid60]=5120)
CAP_ROUNDS=$((ROUNDS < 3 ? ROUNDS : 3))

if runs gen; then
	for ((r = 0; r <= CAP_ROUNDS; r++)); do
		log "capacity: round $r of $CAP_ROUNDS$([ $r = 0 ] && echo ' (warm-up, not counted)')"
		{
			echo "$SETTINGS"
			echo '\o /dev/null'
			for c in "${CAP_CANDS[@]}"; do
				echo "\\echo @@ $c"
				echo '\timing on'
				echo "CREATE TEMP TABLE cap_ids AS SELECT ${c}_new() AS id FROM generate_series(1, ${CAP_N[$c]}) g;"
				echo '\timing off'
				# the clock ticks the IDs are dated in
				echo "SELECT count(DISTINCT ${c}_timestamp(id)) AS ticks FROM cap_ids \\gset"
				echo "\\echo @@ticks $c :ticks"
				echo "DROP TABLE cap_ids;"
			done
		} | run_session cap "$r"
		if [ "$r" -gt 0 ]; then
			awk -v r="$r" '$1 == "@@ticks" { print "ticks", r, $2, $3 }' "$TMP/session.out" >>"$RAW"
		fi
	done
fi

# ------------------------------------------------------------------ 1c. hot path
# Issue 25's targets, side by side in one run, in two states of the server: (a) as it comes,
# (b) after back-fill and HOT_RELOADS reloads (hot_use_features; superuser only).
#  1. every generator's marginal cost per ID within 2x of clock_timestamp()'s: as in section 1,
#     count(f()) over generate_series(1, n) minus count(g) over the same n in the same round.
#     n is N, except for the capacity-bound formats, which get about 1 s of their capacity
#     (uid60: 4 ticks), so that a round does not take minutes; each n has its own floor.
#  2. two sessions together reach 95% of a capacity-bound format's capacity: two psql
#     processes started together, each making CAP_N / 2 IDs into a table, as in section 1b.
HOT_CANDS=(clock sno muid snowflake_si revts8 uid60 seq uuid)
[ "$UUIDV7" = 1 ] && HOT_CANDS+=(uuidv7)
declare -A HOT_EXPR=(
	[clock]="clock_timestamp()" [sno]="sno_new()" [muid]="muid_new()"
	[snowflake_si]="snowflake_si_new()" [revts8]="revts8_new()" [uid60]="uid60_new()"
	[seq]="nextval('bench_seq')" [uuid]="gen_random_uuid()" [uuidv7]="uuidv7()"
)
# the formats' capacity: IDs per tick and the tick in ns (doc/formats.md); sno's per tick is
# read from sno_snapshot() when the section starts (it follows uid.sno_sequence_min..max)
declare -A HOT_PER_TICK=([sno]=65536 [snowflake_si]=${CAP_PER_TICK[snowflake_si]} [revts8]=${CAP_PER_TICK[revts8]} [uid60]=${CAP_PER_TICK[uid60]})
declare -A HOT_TICK_NS=([sno]=4000000 [snowflake_si]=1000000 [revts8]=1000000 [uid60]=1000000000)
declare -A HOT_N
for c in "${HOT_CANDS[@]}"; do HOT_N[$c]=$N; done
for c in "${CAP_CANDS[@]}"; do
	HOT_N[$c]=$((CAP_PER_S[$c] > 4 * CAP_PER_TICK[$c] ? CAP_PER_S[$c] : 4 * CAP_PER_TICK[$c]))
	[ "${HOT_N[$c]}" -lt "$N" ] || HOT_N[$c]=$N
done
# the timed queries of a round: the candidates and one floor per n
HOT_QUERIES=("${HOT_CANDS[@]}")
for n in $(printf '%s\n' "${HOT_N[@]}" | sort -un); do HOT_QUERIES+=("floor_$n"); done
HOT_STATES=(a)

hot_sql() {
	case $1 in
		floor_*) echo "SELECT count(g) FROM generate_series(1, :n) g;" ;;
		*) echo "SELECT count(${HOT_EXPR[$1]}) FROM generate_series(1, :n) g;" ;;
	esac
}

# A round of part 1: hot_session STATE ROUND.  For the capacity-bound formats it records
# the growth of uid_stats()'s overflow_waits (c_waits) and overflow_wait_us (c_wait, in ms).
hot_session() {
	local section=hot_$1 round=$2 q
	{
		echo "$SETTINGS"
		echo '\o /dev/null'
		echo '\set n 10'
		for q in "${HOT_CANDS[@]}"; do hot_sql "$q"; done
		if [ "$1" = b ]; then
			echo "SELECT pg_reload_conf();"
			echo "SELECT pg_sleep(0.1);"
		fi
		for q in $(rotate "$round" "${HOT_QUERIES[@]}"); do
			echo "\\set n $(case $q in floor_*) echo "${q#floor_}" ;; *) echo "${HOT_N[$q]}" ;; esac)"
			[ -z "${HOT_TICK_NS[$q]:-}" ] ||
				echo "SELECT overflow_waits AS w0, overflow_wait_us AS u0 FROM uid_stats() WHERE type = '$q' \\gset"
			timed "$q" "$(hot_sql "$q")"
			[ -z "${HOT_TICK_NS[$q]:-}" ] || {
				echo "SELECT overflow_waits AS w1, overflow_wait_us AS u1 FROM uid_stats() WHERE type = '$q' \\gset"
				echo "\\echo @@waits $q :w0 :w1 :u0 :u1"
			}
		done
	} | run_session "$section" "$round"
	awk -v s="$section" -v r="$round" '$1 == "@@waits" {
		print s, r, $2 "_waits", $4 - $3; print s, r, $2 "_wait", ($6 - $5) / 1000 }' "$TMP/session.out" >>"$RAW"
}

# A round of part 2: pair_session STATE ROUND.  Per format: both sessions sleep until the same
# server time, then each makes CAP_N / 2 IDs; recorded: the span from the first start to the
# last end (ms), the two starts' distance (c_skew, ms) and the ticks the IDs are dated in.
pair_session() {
	local section=pair_$1 round=$2 c s at pids
	for c in $(rotate "$round" "${CAP_CANDS[@]}"); do
		at=$(sql "SELECT extract(epoch FROM clock_timestamp()) + 1")
		pids=()
		for s in 1 2; do
			{
				echo "$SETTINGS"
				echo '\o /dev/null'
				echo "SET client_min_messages = warning;"
				echo "DROP TABLE IF EXISTS hot_pair_$s;"
				# the library and its state file, without an ID that could share the first tick
				echo "SELECT count(*) FROM uid_stats();"
				echo "SELECT pg_sleep($at - extract(epoch FROM clock_timestamp()));"
				echo "SELECT extract(epoch FROM clock_timestamp()) AS t0 \\gset"
				echo "CREATE UNLOGGED TABLE hot_pair_$s AS SELECT ${c}_new() AS id FROM generate_series(1, $((CAP_N[$c] / 2))) g;"
				echo "SELECT extract(epoch FROM clock_timestamp()) AS t1 \\gset"
				echo '\echo @@span :t0 :t1'
			} | "${PSQL[@]}" >"$TMP/pair_$s.out" &
			pids+=($!)
		done
		wait "${pids[0]}"
		wait "${pids[1]}"
		awk -v s="$section" -v r="$round" -v c="$c" '$1 == "@@span" { t0[NR] = $2; t1[NR] = $3 }
			END { lo = hi = ""; for (i in t0) { if (lo == "" || t0[i] < lo) lo = t0[i]; if (hi == "" || t1[i] > hi) hi = t1[i] }
				d = 0; for (i in t0) for (j in t0) if (t0[i] - t0[j] > d) d = t0[i] - t0[j]
				print s, r, c, (hi - lo) * 1000; print s, r, c "_skew", d * 1000 }' \
			"$TMP/pair_1.out" "$TMP/pair_2.out" >>"$RAW"
		echo "$section $round ${c}_ticks $(sql "SELECT count(DISTINCT $EXTSCHEMA.${c}_timestamp(id))
			FROM (SELECT id FROM $SCHEMA.hot_pair_1 UNION ALL SELECT id FROM $SCHEMA.hot_pair_2) x")" >>"$RAW"
	done
	sql "DROP TABLE $SCHEMA.hot_pair_1, $SCHEMA.hot_pair_2" >/dev/null
}

if runs hot; then
	HOT_PER_TICK[sno]=$(sql "SELECT coalesce(capacity_per_tick, 65536) FROM $EXTSCHEMA.sno_snapshot()")
	HOT_SNO_BEFORE=$(sql "SELECT coalesce(backfill_used_min || '..' || backfill_used_max, 'none') FROM $EXTSCHEMA.sno_snapshot()")
	[ "$HOT_B" = 1 ] && HOT_STATES=(a b)
	for st in "${HOT_STATES[@]}"; do
		[ "$st" = b ] && hot_use_features
		for ((r = 0; r <= ROUNDS; r++)); do
			log "hot path ($st): round $r of $ROUNDS$([ $r = 0 ] && echo ' (warm-up, not counted)')"
			hot_session "$st" "$r"
		done
		for ((r = 0; r <= CAP_ROUNDS; r++)); do
			log "hot path ($st), two sessions: round $r of $CAP_ROUNDS$([ $r = 0 ] && echo ' (warm-up, not counted)')"
			pair_session "$st" "$r"
		done
	done
	if [ "$HOT_ALTERED" = 1 ]; then
		hot_restore
		HOT_AFTER=$(hot_settings_now)
		HOT_NOTES+=("At the end: $(printf '%s\n' "$HOT_RESTORE_SQL" | sed 's/;$//; s/.*/`&`/' | paste -sd, - | sed 's/,/, /g') and a reload. The settings now: $HOT_AFTER; before the run: $HOT_BEFORE ($([ "$HOT_AFTER" = "$HOT_BEFORE" ] && echo "the same" || echo "NOT the same"))")
	fi
fi

# ------------------------------------------------------------------ 2. ORDER BY

SORT_CANDS=()
for t in "${SORT_TABLES[@]}"; do SORT_CANDS+=("sort_$t" "scan_$t"); done

sort_session() {
	local round=$1 c t
	{
		echo "$SETTINGS"
		echo '\o /dev/null'
		for t in "${SORT_TABLES[@]}"; do
			echo "SELECT id FROM (SELECT id FROM sort_$t LIMIT 1000) s ORDER BY id OFFSET 1000;"
		done
		for c in $(rotate "$round" "${SORT_CANDS[@]}"); do
			t=${c#*_}
			echo "\\echo @@ $c"
			echo '\timing on'
			case $c in
				sort_*) echo "SELECT id FROM sort_$t ORDER BY id OFFSET $N;" ;;
				scan_*) echo "SELECT id FROM sort_$t OFFSET $N;" ;;
			esac
			echo '\timing off'
		done
	} | run_session sort "$round"
}

if runs sort; then
	for ((r = 0; r <= ROUNDS; r++)); do
		log "ORDER BY: round $r of $ROUNDS$([ $r = 0 ] && echo ' (warm-up, not counted)')"
		sort_session "$r"
	done
fi

# ------------------------------------------------------------------ 3. text I/O and bulk INSERT
# COPY of the sort tables' N values to /dev/null (text output) and from a file (text input),
# and INSERT of INS_N rows into a table whose primary key defaults to the generator. The
# capacity-bound generators are left out of the INSERT: their format, not the code, sets it.
IO_TABLES=(bigint uuid sno_spread muid_txns snowflake_si revts8 uid60)
INS_CANDS=(bigserial uuid)
[ "$UUIDV7" = 1 ] && INS_CANDS+=(uuidv7)
INS_CANDS+=(${PEERS[@]+"${PEERS[@]}"} sno muid)
INS_N=$((N * 2 / 5))
declare -A INS_DDL=(
	[bigserial]="id bigserial PRIMARY KEY"
	[uuid]="id uuid PRIMARY KEY DEFAULT gen_random_uuid()"
	[uuidv7]="id uuid PRIMARY KEY DEFAULT uuidv7()"
	[sno]="id sno PRIMARY KEY DEFAULT sno_new()"
	[muid]="id muid PRIMARY KEY DEFAULT muid_new()"
	[pg_uuidv7]="id uuid PRIMARY KEY DEFAULT ${PEER_EXPR[pg_uuidv7]:-}"
	[snowflake]="id bigint PRIMARY KEY DEFAULT ${PEER_EXPR[snowflake]:-}"
)
IO_ROUNDS=$((ROUNDS < 3 ? ROUNDS : 3))
COPY_FILE_PREFIX=/tmp/uid_bench_copy

io_session() {
	local round=$1 t c
	{
		echo "$SETTINGS"
		echo '\o /dev/null'
		for t in $(rotate "$round" "${IO_TABLES[@]}"); do
			echo "\\echo @@ out_$t"
			echo '\timing on'
			echo "COPY sort_$t TO '/dev/null';"
			echo '\timing off'
			echo "TRUNCATE copyin_$t;"
			echo "\\echo @@ in_$t"
			echo '\timing on'
			echo "COPY copyin_$t FROM '${COPY_FILE_PREFIX}_$t';"
			echo '\timing off'
		done
		for c in $(rotate "$round" "${INS_CANDS[@]}"); do
			echo "TRUNCATE ins_$c;"
			echo "CHECKPOINT;"
			echo "\\echo @@ ins_$c"
			echo '\timing on'
			echo "INSERT INTO ins_$c (v) SELECT g FROM generate_series(1, $INS_N) g;"
			echo '\timing off'
		done
	} | run_session io "$round"
}

if [ "$ONLY" = all ]; then
	for t in "${IO_TABLES[@]}"; do
		sql "$SETTINGS DROP TABLE IF EXISTS $SCHEMA.copyin_$t; CREATE UNLOGGED TABLE $SCHEMA.copyin_$t (id ${COLTYPE[$t]}); COPY $SCHEMA.sort_$t TO '${COPY_FILE_PREFIX}_$t'" >/dev/null
	done
	for c in "${INS_CANDS[@]}"; do
		sql "$SETTINGS DROP TABLE IF EXISTS $SCHEMA.ins_$c; CREATE TABLE $SCHEMA.ins_$c (${INS_DDL[$c]}, v int)" >/dev/null
	done
	for ((r = 0; r <= IO_ROUNDS; r++)); do
		log "text I/O and INSERT: round $r of $IO_ROUNDS$([ $r = 0 ] && echo ' (warm-up, not counted)')"
		io_session "$r"
	done
	# the primary key index as the last round's INSERT left it (TRUNCATE gave it a new file)
	declare -A INS_INDEX_MB INS_INDEX_BPR
	for c in "${INS_CANDS[@]}"; do
		IFS='|' read -r "INS_INDEX_MB[$c]" "INS_INDEX_BPR[$c]" < <(sql "SELECT round(s / 1048576.0, 1), round(s::numeric / nullif(n, 0), 1)
			FROM (SELECT pg_relation_size('$SCHEMA.ins_${c}_pkey') AS s, (SELECT count(*) FROM $SCHEMA.ins_$c) AS n) x")
	done
	sql "COPY (SELECT 1) TO PROGRAM 'rm -f ${COPY_FILE_PREFIX}_*'" >/dev/null
fi

# ------------------------------------------------------------------ 4. pgbench
# Concurrent clients, one INSERT of a row with a generated key per transaction. Commits do
# not wait for the WAL flush (synchronous_commit = off): with a flush per commit every
# candidate would measure the disk, not the key.
PGB_CLIENTS=(1 2 4 8)
PGB_SECONDS=${PGB_SECONDS:-8}
PGB_ROUNDS=$((ROUNDS < 3 ? ROUNDS : 3))

if [ "$ONLY" = all ] && command -v pgbench >/dev/null; then
	for c in "${INS_CANDS[@]}"; do
		sql "$SETTINGS DROP TABLE IF EXISTS $SCHEMA.pgb_$c; CREATE TABLE $SCHEMA.pgb_$c (${INS_DDL[$c]}, v int)" >/dev/null
		echo "INSERT INTO $SCHEMA.pgb_$c (v) VALUES (1);" >"$TMP/pgb_$c.sql"
	done
	for ((r = 1; r <= PGB_ROUNDS; r++)); do
		log "pgbench: round $r of $PGB_ROUNDS"
		for n in "${PGB_CLIENTS[@]}"; do
			for c in $(rotate "$r" "${INS_CANDS[@]}"); do
				tps=$(PGOPTIONS="-c synchronous_commit=off $PEER_PGOPTIONS" pgbench -n -M prepared -c "$n" -j "$((n < 2 ? n : 2))" \
					-T "$PGB_SECONDS" -f "$TMP/pgb_$c.sql" 2>/dev/null |
					sed -n 's/^tps = \([0-9.]*\).*without initial connection time.*/\1/p')
				echo "pgb $r ${c}_$n ${tps:-nan}" >>"$RAW"
			done
		done
	done
fi

# drop the warm-up round
awk '$2 != 0' "$RAW" >"$TMP/raw.timed" && mv "$TMP/raw.timed" "$RAW"

ELAPSED=$(($(date +%s) - STARTED))
LOAD_END=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')

# ------------------------------------------------------------------ report

source "$SCRIPT_DIR/report.sh" # machine_info, gen_report, ..., raw_report

report() {
	echo "## uid benchmarks"
	echo
	machine_info
	if runs gen; then echo; gen_report; echo; primitives_report; echo; cap_report; fi
	if runs hot; then echo; hot_report; fi
	if runs sort; then echo; sort_report; fi
	if [ "$ONLY" = all ]; then echo; io_report; fi
	if [ "$ONLY" = all ] && command -v pgbench >/dev/null; then echo; pgb_report; fi
	echo
	raw_report
}

report >"$TMP/report.md"
cat "$TMP/report.md"
if [ "$WRITE" = 1 ]; then
	cp "$TMP/report.md" "$OUT"
	log "wrote $OUT"
	# the chart, drawn from the report's own tables (bench/chart.sh draws it again from any report)
	if [ "$ONLY" != all ]; then
		log "no chart: it needs every section (not --only)"
	elif ! command -v gnuplot >/dev/null; then
		log "no chart: gnuplot is not installed (bench/chart.sh $OUT draws it later)"
	else
		bash "$SCRIPT_DIR/chart.sh" "$OUT" "$CHART"
	fi
fi
