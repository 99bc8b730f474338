#!/usr/bin/env bash
# bench/brin.sh: BRIN against btree on append-only tables keyed by an ID, side by side.
#
# Connection: the standard libpq environment, as for bench/bench.sh, e.g.
#   PGHOST=/tmp PGPORT=5498 PGUSER=postgres PGDATABASE=postgres bench/brin.sh --out /tmp/brin.md
# The server must be running with the uid extension installed (make install); the script
# never starts, stops or configures a server (bench/brin.md says how the committed run's
# server was set up).  The machine info it prints is this machine's: run it on the server's.
#
# What it does:
#   1. fills, in time order (append-only), a table of N rows (id, v integer, pad text of 32
#      characters) for sno and for revts8, IDs spread evenly over DAYS days from 2026-10-01
#      UTC (the IDs T_from_parts() gives for those times: what a generator makes, one per
#      time), and a copy of the sno table partitioned by day (uid_create_partitions());
#      VACUUM (FREEZE, ANALYZE) and CHECKPOINT;
#   2. builds on each table a btree, a BRIN with the default pages_per_range (128) and a
#      BRIN with pages_per_range = PPR (default 16), BUILDS times each, in rotated order;
#      reports the build time (server clock around CREATE INDEX) and the size;
#   3. times three lookups per table and index: (a) one row by id, (b) the rows of one hour,
#      (c) the rows of one day, as `id >= T_boundary(a) AND id < T_boundary(b)` folded into
#      ID constants.  Each lookup runs with one index only (the others dropped in a
#      subtransaction that is rolled back) and once with none (a sequential scan); each
#      round takes other keys, the configurations in rotated order, after one warm-up
#      round.  Times are EXPLAIN (ANALYZE, BUFFERS, TIMING OFF)'s execution time (server
#      side, planning excluded); the buffers are the pages the query touched;
#   4. times appending INSERT_N rows (sno) to an empty table with no index, a btree or a
#      BRIN, then a lookup of one hour of them, and for BRIN brin_summarize_new_values() and
#      the lookup again (BRIN leaves new ranges unsummarized until a VACUUM or a summarize).
# Before the lookups it loads every table and index into shared buffers with pg_prewarm
# (contrib; created if it can be, left installed) when it can.
# Tables report medians; the raw runs follow them.  bench/brin.md is one run (this report
# under notes on how its server was set up and what the numbers show); --out writes the
# report alone.
#
# It creates the extension uid if missing and a schema bench_brin (dropped at the end unless
# --keep).  Session settings: max_parallel_workers_per_gather = 0,
# max_parallel_maintenance_workers = 0, jit = off, maintenance_work_mem = 512MB, TimeZone UTC.

set -euo pipefail

N=10000000
DAYS=30
ROUNDS=7
BUILDS=3
PPR=16
INSERT_N=1000000
OUT=
KEEP=0
SCHEMA=bench_brin
START="2026-10-01 00:00:00+00"
COMMAND=$(printf '%q ' "$0" "$@")
COMMAND=${COMMAND% }

usage() {
	cat <<EOF
usage: $0 [options]
  -n, --rows N          rows per table (default $N)
      --days D          the days the IDs span (default $DAYS)
  -r, --rounds R        timed lookup rounds, after one warm-up round (default $ROUNDS)
  -b, --builds B        builds of each index (default $BUILDS)
      --ppr P           pages_per_range of the smaller BRIN (default $PPR)
      --insert-rows M   rows of the append test (default $INSERT_N; 0 skips it)
      --out FILE        also write the report to FILE (.md)
      --keep            keep schema $SCHEMA at the end
  -h, --help            this text
Connection via PGHOST, PGPORT, PGUSER, PGDATABASE (libpq environment).
EOF
}

while [ $# -gt 0 ]; do
	case $1 in
		-n|--rows) N=$2; shift 2 ;;
		--days) DAYS=$2; shift 2 ;;
		-r|--rounds) ROUNDS=$2; shift 2 ;;
		-b|--builds) BUILDS=$2; shift 2 ;;
		--ppr) PPR=$2; shift 2 ;;
		--insert-rows) INSERT_N=$2; shift 2 ;;
		--out) OUT=$2; shift 2 ;;
		--keep) KEEP=1; shift ;;
		-h|--help) usage; exit 0 ;;
		*) echo "unknown argument: $1" >&2; usage >&2; exit 2 ;;
	esac
done
for v in N DAYS ROUNDS BUILDS PPR INSERT_N; do
	case ${!v} in ''|*[!0-9]*) echo "$v must be a non-negative integer" >&2; exit 2 ;; esac
done
[ "$ROUNDS" -ge 1 ] && [ "$BUILDS" -ge 1 ] && [ "$DAYS" -ge 2 ] && [ "$PPR" -ge 1 ] ||
	{ echo "rounds, builds and ppr must be at least 1, days at least 2" >&2; exit 2; }
# One ID per time, and sno's time has 4 ms steps: the rows must be at least 4 ms apart.
[ $((DAYS * 86400000 / 4)) -ge "$N" ] || { echo "$N rows in $DAYS days are closer than 4 ms" >&2; exit 2; }
case $OUT in '' | *.md) ;; *) echo "--out takes a file name ending in .md" >&2; exit 2 ;; esac

export LC_ALL=C
export PGOPTIONS="${PGOPTIONS:-} -c max_parallel_workers_per_gather=0 -c max_parallel_maintenance_workers=0 -c jit=off -c maintenance_work_mem=512MB -c TimeZone=UTC -c client_min_messages=warning"
PSQL=(psql -X -q -v ON_ERROR_STOP=1 -At)
log() { printf '%s  %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }
sql() { "${PSQL[@]}" -c "$1"; }

cleanup() {
	if [ "$KEEP" = 0 ]; then
		sql "DROP SCHEMA IF EXISTS $SCHEMA CASCADE" >/dev/null 2>&1 || true
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

log "connecting: PGHOST=${PGHOST:-} PGPORT=${PGPORT:-} PGUSER=${PGUSER:-} PGDATABASE=${PGDATABASE:-}"
sql "CREATE EXTENSION IF NOT EXISTS uid" >/dev/null
EXTSCHEMA=$(sql "SELECT quote_ident(extnamespace::regnamespace::text) FROM pg_extension WHERE extname = 'uid'")
EXTVERSION=$(sql "SELECT extversion FROM pg_extension WHERE extname = 'uid'")
PGVERSION=$(sql "SELECT version()")
SERVER_SETTINGS=$(sql "SELECT string_agg(name || ' = ' || setting || coalesce(' ' || unit, ''), ', ' ORDER BY name)
	FROM pg_settings WHERE name IN ('shared_buffers', 'effective_cache_size', 'random_page_cost', 'work_mem',
	                                'max_wal_size', 'checkpoint_timeout', 'wal_level', 'effective_io_concurrency')")
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')
STARTED=$(date +%s)
START_DATE=$(date -u '+%Y-%m-%d %H:%M:%S UTC')

sql "DROP SCHEMA IF EXISTS $SCHEMA CASCADE" >/dev/null
sql "CREATE SCHEMA $SCHEMA" >/dev/null
export PGOPTIONS="$PGOPTIONS -c search_path=$SCHEMA,$EXTSCHEMA"

# The tables, their ID expressions for row g (0-based) and their index configurations.
TABLES=(t_sno t_revts8 t_sno_daily)
declare -A TYPE=([t_sno]=sno [t_revts8]=revts8 [t_sno_daily]=sno)
declare -A IDEXPR=(
	[sno]="sno_from_parts(timestamptz '$START' + g * \$step, 0, 1, 0)"
	[revts8]="revts8_from_parts(timestamptz '$START' + g * \$step, 0, 1, 0)"
)
CONFIGS=(btree brin brin$PPR)
declare -A INDEXDEF=(
	[btree]="(id)"
	[brin]="USING brin (id)"
	[brin$PPR]="USING brin (id) WITH (pages_per_range = $PPR)"
)
STEP_US=$((DAYS * 86400 * 1000000 / N))
STEP="interval '$STEP_US us'"

sql "
CREATE TABLE build_result (round int, tbl text, cfg text, ms float8, bytes bigint);
CREATE TABLE lookup_result (round int, tbl text, kind text, cfg text, ms float8, blocks bigint,
                            scan text, rows bigint, recheck bigint);
CREATE TABLE insert_result (round int, cfg text, ms float8, summarize_ms float8, bytes bigint);
CREATE TABLE load_result (tbl text, ms float8, bytes bigint);

-- the size of an index, or of a partitioned index with its partitions
CREATE FUNCTION index_bytes(ix regclass) RETURNS bigint LANGUAGE sql AS \$\$
    SELECT coalesce((SELECT sum(pg_relation_size(relid))::bigint FROM pg_partition_tree(ix)), pg_relation_size(ix))
\$\$;

-- builds one index on tbl, after dropping the one of the same configuration
CREATE FUNCTION build(r int, tbl text, cfg text, def text) RETURNS void LANGUAGE plpgsql AS \$\$
DECLARE
    t0 timestamptz;
    ms float8;
BEGIN
    EXECUTE format('DROP INDEX IF EXISTS %I', tbl || '_' || cfg);
    t0 := clock_timestamp();
    EXECUTE format('CREATE INDEX %I ON %I %s', tbl || '_' || cfg, tbl, def);
    ms := extract(epoch FROM clock_timestamp() - t0) * 1000;
    INSERT INTO build_result VALUES (r, tbl, cfg, ms, index_bytes((tbl || '_' || cfg)::regclass));
END \$\$;

-- runs query with the index tbl_cfg alone (cfg 'seqscan': none); the other indexes are
-- dropped in a subtransaction that is rolled back
CREATE FUNCTION lookup(r int, tbl text, kind text, cfg text, query text) RETURNS void LANGUAGE plpgsql AS \$\$
DECLARE
    ix text;
    plan jsonb;
BEGIN
    BEGIN
        FOR ix IN SELECT i.indexrelid::regclass::text FROM pg_index i
                  WHERE i.indrelid = tbl::regclass AND i.indexrelid::regclass::text <> tbl || '_' || cfg LOOP
            EXECUTE 'DROP INDEX ' || ix;
        END LOOP;
        IF cfg = 'seqscan' THEN
            SET LOCAL enable_seqscan = on;
        ELSE
            SET LOCAL enable_seqscan = off;
        END IF;
        EXECUTE 'EXPLAIN (ANALYZE, BUFFERS, TIMING OFF, FORMAT JSON) ' || query INTO plan;
        RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = 'roll back';
    EXCEPTION WHEN raise_exception THEN
        NULL;
    END;
    INSERT INTO lookup_result
    SELECT r, tbl, kind, cfg, (plan->0->>'Execution Time')::float8,
           (plan->0->'Plan'->>'Shared Hit Blocks')::bigint + (plan->0->'Plan'->>'Shared Read Blocks')::bigint,
           (SELECT n->>'Node Type' FROM jsonb_path_query(plan, 'strict \$.**') WITH ORDINALITY x (n, k)
            WHERE jsonb_typeof(n) = 'object' AND n->>'Node Type' LIKE '%Scan' ORDER BY k LIMIT 1),
           (SELECT sum((n->>'Actual Rows')::bigint) FROM jsonb_path_query(plan, 'strict \$.**') n
            WHERE jsonb_typeof(n) = 'object' AND n->>'Node Type' IN ('Seq Scan', 'Index Scan', 'Index Only Scan', 'Bitmap Heap Scan')),
           (SELECT sum((n->>'Rows Removed by Index Recheck')::bigint) FROM jsonb_path_query(plan, 'strict \$.**') n
            WHERE jsonb_typeof(n) = 'object' AND n->>'Node Type' = 'Bitmap Heap Scan');
END \$\$;
" >/dev/null

# ------------------------------------------------------------------ 1. load

load() {
	local tbl=$1 typ=${TYPE[$1]} t0 t1
	t0=$(date +%s%N)
	sql "INSERT INTO $tbl (id, v, pad)
	     SELECT ${IDEXPR[$typ]//\$step/$STEP}, g, md5(g::text)
	     FROM generate_series(0, $N - 1) g" >/dev/null
	t1=$(date +%s%N)
	sql "INSERT INTO load_result SELECT '$tbl', $(((t1 - t0) / 1000000)),
	     coalesce((SELECT sum(pg_table_size(relid)) FROM pg_partition_tree('$tbl')), pg_table_size('$tbl'))" >/dev/null
}
for tbl in t_sno t_revts8; do
	sql "CREATE TABLE $tbl (id ${TYPE[$tbl]} NOT NULL, v integer NOT NULL, pad text NOT NULL)" >/dev/null
done
sql "CREATE TABLE t_sno_daily (id sno NOT NULL, v integer NOT NULL, pad text NOT NULL) PARTITION BY RANGE (id)" >/dev/null
sql "SELECT count(*) FROM uid_create_partitions('t_sno_daily', $DAYS, '$START', '1 day')" >/dev/null
for tbl in "${TABLES[@]}"; do
	log "loading $N rows into $tbl"
	load "$tbl"
	sql "VACUUM (FREEZE, ANALYZE) $tbl" >/dev/null
done
sql "CHECKPOINT" >/dev/null

# ------------------------------------------------------------------ 2. builds

for ((b = 1; b <= BUILDS; b++)); do
	for tbl in "${TABLES[@]}"; do
		for ((i = 0; i < ${#CONFIGS[@]}; i++)); do
			cfg=${CONFIGS[$(((i + b) % ${#CONFIGS[@]}))]}
			log "build $b/$BUILDS: $tbl $cfg"
			sql "SELECT build($b, '$tbl', '$cfg', '${INDEXDEF[$cfg]}')" >/dev/null
			sql "CHECKPOINT" >/dev/null
		done
	done
done

# ------------------------------------------------------------------ 3. lookups

# Every table and index in shared buffers if pg_prewarm (contrib) is there; else the
# warm-up round reads what the lookups need into the OS cache.
PREWARM="no (pg_prewarm missing): pages come from the OS cache until shared buffers hold them"
if sql "CREATE EXTENSION IF NOT EXISTS pg_prewarm" >/dev/null 2>&1; then
	log "pg_prewarm"
	PWSCHEMA=$(sql "SELECT quote_ident(extnamespace::regnamespace::text) FROM pg_extension WHERE extname = 'pg_prewarm'")
	PAGES=$(sql "SELECT sum($PWSCHEMA.pg_prewarm(c.oid)) FROM pg_class c
	             WHERE c.relnamespace = '$SCHEMA'::regnamespace AND c.relkind IN ('r', 'i')")
	PREWARM="yes, $PAGES pages (pg_prewarm) before the warm-up round"
fi

# The keys of round r (0 = warm-up): spread over the span, another place each round.
keys() {
	local r=$1 tbl=$2 typ=${TYPE[$2]} frac
	# row for the point lookup; hour and day starts
	sql "SELECT ${IDEXPR[$typ]//\$step/$STEP}::text,
	            ${typ}_boundary(h)::text, ${typ}_boundary(h + interval '1 hour')::text,
	            ${typ}_boundary(d)::text, ${typ}_boundary(d + interval '1 day')::text
	     FROM (SELECT ($N::bigint * (2 * $r + 1) / (2 * ($ROUNDS + 1)))::bigint AS g) p,
	          LATERAL (SELECT date_trunc('hour', timestamptz '$START' + g * interval '$STEP_US us') AS h,
	                          timestamptz '$START' + ($DAYS - 1) * (2 * $r + 1) / (2 * ($ROUNDS + 1)) * interval '1 day' AS d) t" |
		tr '|' ' '
}
for ((r = 0; r <= ROUNDS; r++)); do
	[ "$r" = 0 ] && log "warm-up round" || log "lookup round $r/$ROUNDS"
	script=""
	for tbl in "${TABLES[@]}"; do
		read -r point hlo hhi dlo dhi < <(keys "$r" "$tbl")
		declare -A Q=(
			[point]="SELECT v FROM $tbl WHERE id = '$point'"
			[hour]="SELECT count(*), sum(v) FROM $tbl WHERE id >= '$hlo' AND id < '$hhi'"
			[day]="SELECT count(*), sum(v) FROM $tbl WHERE id >= '$dlo' AND id < '$dhi'"
		)
		all=(seqscan "${CONFIGS[@]}")
		for kind in point hour day; do
			for ((i = 0; i < ${#all[@]}; i++)); do
				cfg=${all[$(((i + r) % ${#all[@]}))]}
				script+="SELECT lookup($r, '$tbl', '$kind', '$cfg', \$q\$${Q[$kind]}\$q\$);"$'\n'
			done
		done
	done
	printf '%s' "$script" | "${PSQL[@]}" >/dev/null
done

# ------------------------------------------------------------------ 4. appends

if [ "$INSERT_N" -gt 0 ]; then
	all=(none "${CONFIGS[@]}")
	# the hour in the middle of the appended rows
	read -r alo ahi < <(sql "SELECT sno_boundary(h)::text, sno_boundary(h + interval '1 hour')::text
	                         FROM date_trunc('hour', timestamptz '$START' + $INSERT_N / 2 * $STEP) h" | tr '|' ' ')
	AQ="SELECT count(*), sum(v) FROM t_append WHERE id >= '$alo' AND id < '$ahi'"
	for ((b = 1; b <= BUILDS; b++)); do
		for ((i = 0; i < ${#all[@]}; i++)); do
			cfg=${all[$(((i + b) % ${#all[@]}))]}
			lcfg=$cfg
			[ "$cfg" != none ] || lcfg=seqscan
			log "append $b/$BUILDS: $INSERT_N rows, index $cfg"
			sql "DROP TABLE IF EXISTS t_append" >/dev/null
			sql "CREATE TABLE t_append (id sno NOT NULL, v integer NOT NULL, pad text NOT NULL)" >/dev/null
			[ "$cfg" = none ] || sql "CREATE INDEX t_append_$cfg ON t_append ${INDEXDEF[$cfg]}" >/dev/null
			sql "CHECKPOINT" >/dev/null
			sql "DO \$\$
			DECLARE
			    t0 timestamptz := clock_timestamp();
			BEGIN
			    INSERT INTO t_append (id, v, pad)
			    SELECT ${IDEXPR[sno]//\$step/$STEP}, g, md5(g::text)
			    FROM generate_series(0, $INSERT_N - 1) g;
			    INSERT INTO insert_result VALUES ($b, '$cfg', extract(epoch FROM clock_timestamp() - t0) * 1000, NULL,
			        coalesce(pg_relation_size(to_regclass('t_append_$cfg')), 0));
			END \$\$" >/dev/null
			# hint bits and statistics, without VACUUM (which would summarize the BRIN)
			sql "SELECT count(*) FROM t_append" >/dev/null
			sql "ANALYZE t_append" >/dev/null
			# one hour, as the rows were appended: a BRIN has no summary of the new ranges yet
			sql "SELECT lookup($b, 't_append', 'hour', '$lcfg', \$q\$$AQ\$q\$)" >/dev/null
			if [ "${cfg#brin}" != "$cfg" ]; then
				sql "DO \$\$
				DECLARE
				    t0 timestamptz := clock_timestamp();
				BEGIN
				    PERFORM brin_summarize_new_values('t_append_$cfg');
				    UPDATE insert_result SET summarize_ms = extract(epoch FROM clock_timestamp() - t0) * 1000
				    WHERE round = $b AND cfg = '$cfg';
				END \$\$" >/dev/null
				sql "SELECT lookup($b, 't_append', 'hour summarized', '$lcfg', \$q\$$AQ\$q\$)" >/dev/null
			fi
		done
	done
	sql "DROP TABLE IF EXISTS t_append" >/dev/null
fi

# ------------------------------------------------------------------ report

LOAD_END=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')
ELAPSED=$(($(date +%s) - STARTED))
REPORT=$(mktemp "${TMPDIR:-/tmp}/uid-brin.XXXXXX")
trap 'rm -f "$REPORT"; cleanup' EXIT

machine() {
	local cpu cores mem kernel
	cpu=$(sed -n 's/^model name[[:space:]]*: *//p' /proc/cpuinfo 2>/dev/null | head -n 1)
	cores=$(nproc 2>/dev/null || echo '?')
	mem=$(awk '/^MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo 2>/dev/null)
	kernel=$(uname -srm)
	printf '%s, %s cores, %s RAM, %s' "${cpu:-?}" "$cores" "${mem:-?}" "$kernel"
}

{
	echo "# BRIN against btree on append-only tables of IDs"
	echo
	echo "- date: $START_DATE; $((ELAPSED / 60)) min $((ELAPSED % 60)) s"
	echo "- machine: $(machine); load average $LOAD_START at the start, $LOAD_END at the end"
	echo "- server: $PGVERSION; uid $EXTVERSION"
	echo "- server settings: $SERVER_SETTINGS"
	echo "- session: max_parallel_workers_per_gather = 0, max_parallel_maintenance_workers = 0, jit = off, maintenance_work_mem = 512MB"
	echo "- command: \`$COMMAND\`"
	echo "- data: $N rows per table (id, v integer, pad text of 32 characters), appended in ID order, IDs spread evenly over $DAYS days from $START (one every $STEP_US µs: $((N / DAYS / 24)) rows an hour, $((N / DAYS)) a day); t_sno_daily is t_sno partitioned by day ($DAYS partitions, uid_create_partitions())"
	echo "- shared buffers prewarmed: $PREWARM"
	echo "- method: builds are the server's clock around CREATE INDEX, median of $BUILDS; lookups are EXPLAIN (ANALYZE, BUFFERS, TIMING OFF) execution times (planning excluded), median of $ROUNDS rounds after a warm-up, each round other keys, each with one index present (the others dropped in a rolled-back subtransaction), enable_seqscan off except for \"seqscan\" (no index); \"pages\" are the buffers a query touched (shared hit + read)"
	echo
	echo "## Index size and build time"
	echo
	echo "| table | rows | table MB | index | index MB | bytes per row | build ms (median) | builds ms |"
	echo "|---|---:|---:|---|---:|---:|---:|---|"
	sql "SELECT format('| %s | %s | %s | %s | %s | %s | %s | %s |', b.tbl, $N,
	            round(l.bytes / 1048576.0, 1), b.cfg,
	            CASE WHEN max(b.bytes) < 1048576 THEN round(max(b.bytes) / 1048576.0, 3) ELSE round(max(b.bytes) / 1048576.0, 1) END,
	            round(max(b.bytes)::numeric / $N, 3),
	            round(percentile_cont(0.5) WITHIN GROUP (ORDER BY b.ms)::numeric),
	            string_agg(round(b.ms::numeric)::text, ', ' ORDER BY b.round))
	     FROM build_result b JOIN load_result l USING (tbl)
	     GROUP BY b.tbl, b.cfg, l.bytes
	     ORDER BY array_position(array['t_sno', 't_revts8', 't_sno_daily'], b.tbl),
	              array_position(array['btree', 'brin', 'brin$PPR'], b.cfg)"
	echo
	echo "## Lookups"
	echo
	echo "Median execution time in ms (pages touched), per table and lookup; rows: what the lookup returns."
	echo
	echo "| table | lookup | rows | seqscan | btree | brin (128) | brin$PPR | brin (128) / btree |"
	echo "|---|---|---:|---:|---:|---:|---:|---:|"
	sql "WITH m AS (
	         SELECT tbl, kind, cfg, percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS ms,
	                percentile_cont(0.5) WITHIN GROUP (ORDER BY blocks) AS blocks,
	                percentile_cont(0.5) WITHIN GROUP (ORDER BY rows) AS rows
	         FROM lookup_result WHERE round > 0 AND tbl <> 't_append' GROUP BY 1, 2, 3),
	     c AS (
	         SELECT tbl, kind, cfg, format('%s (%s)', CASE WHEN ms < 10 THEN round(ms::numeric, 3) ELSE round(ms::numeric, 1) END,
	                                        round(blocks::numeric)) AS cell, ms, rows
	         FROM m)
	     SELECT format('| %s | %s | %s | %s | %s | %s | %s | %s |', tbl,
	                   CASE kind WHEN 'point' THEN 'one id' WHEN 'hour' THEN 'one hour' ELSE 'one day' END,
	                   round(max(rows) FILTER (WHERE cfg = 'btree')::numeric),
	                   max(cell) FILTER (WHERE cfg = 'seqscan'), max(cell) FILTER (WHERE cfg = 'btree'),
	                   max(cell) FILTER (WHERE cfg = 'brin'), max(cell) FILTER (WHERE cfg = 'brin$PPR'),
	                   round((max(ms) FILTER (WHERE cfg = 'brin') / max(ms) FILTER (WHERE cfg = 'btree'))::numeric, 2))
	     FROM c GROUP BY tbl, kind
	     ORDER BY array_position(array['t_sno', 't_revts8', 't_sno_daily'], tbl),
	              array_position(array['point', 'hour', 'day'], kind)"
	echo
	echo "Plans (scan node) and rows BRIN's recheck removed (median):"
	echo
	echo "| table | lookup | index | scan | rows removed by recheck |"
	echo "|---|---|---|---|---:|"
	sql "SELECT format('| %s | %s | %s | %s | %s |', tbl, kind, cfg, string_agg(DISTINCT scan, ', '),
	                   coalesce(round(percentile_cont(0.5) WITHIN GROUP (ORDER BY recheck)::numeric)::text, '–'))
	     FROM lookup_result WHERE round > 0 AND tbl <> 't_append' GROUP BY tbl, kind, cfg
	     ORDER BY array_position(array['t_sno', 't_revts8', 't_sno_daily'], tbl),
	              array_position(array['point', 'hour', 'day'], kind),
	              array_position(array['seqscan', 'btree', 'brin', 'brin$PPR'], cfg)"
	if [ "$INSERT_N" -gt 0 ]; then
		echo
		echo "## Appending $INSERT_N rows (sno) to an empty table"
		echo
		echo "Then one hour of those rows (as in the lookups: ms (pages), median), before and after"
		echo "brin_summarize_new_values(): BRIN summarizes no range while rows are appended."
		echo
		echo "| index | INSERT ms (median) | vs no index | one hour, as appended | brin_summarize_new_values ms | one hour, summarized | index MB | INSERT runs ms |"
		echo "|---|---:|---:|---:|---:|---:|---:|---|"
		sql "WITH m AS (
		         SELECT cfg, percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS ms,
		                percentile_cont(0.5) WITHIN GROUP (ORDER BY summarize_ms) AS sms,
		                max(bytes) AS bytes, string_agg(round(ms::numeric)::text, ', ' ORDER BY round) AS runs
		         FROM insert_result GROUP BY cfg),
		     l AS (
		         SELECT CASE cfg WHEN 'seqscan' THEN 'none' ELSE cfg END AS cfg, kind,
		                format('%s (%s)', round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms)::numeric, 3),
		                       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY blocks)::numeric)) AS cell
		         FROM lookup_result WHERE tbl = 't_append' GROUP BY 1, 2)
		     SELECT format('| %s | %s | %s | %s | %s | %s | %s | %s |', m.cfg, round(m.ms::numeric),
		                   round((m.ms / (SELECT ms FROM m WHERE cfg = 'none'))::numeric, 2),
		                   (SELECT cell FROM l WHERE l.cfg = m.cfg AND kind = 'hour'),
		                   coalesce(round(m.sms::numeric, 1)::text, '–'),
		                   coalesce((SELECT cell FROM l WHERE l.cfg = m.cfg AND kind = 'hour summarized'), '–'),
		                   round(m.bytes / 1048576.0, 2), m.runs)
		     FROM m ORDER BY array_position(array['none', 'btree', 'brin', 'brin$PPR'], m.cfg)"
	fi
	echo
	echo "## Raw lookup runs"
	echo
	echo "ms per round 1..$ROUNDS (pages touched are the same in every round up to a page or two)."
	echo
	echo "| table | lookup | index | ms |"
	echo "|---|---|---|---|"
	sql "SELECT format('| %s | %s | %s | %s |', tbl, kind, cfg,
	                   string_agg(CASE WHEN ms < 10 THEN round(ms::numeric, 3) ELSE round(ms::numeric, 1) END::text, ', ' ORDER BY round))
	     FROM lookup_result WHERE round > 0 AND tbl <> 't_append' GROUP BY tbl, kind, cfg
	     ORDER BY array_position(array['t_sno', 't_revts8', 't_sno_daily'], tbl),
	              array_position(array['point', 'hour', 'day'], kind),
	              array_position(array['seqscan', 'btree', 'brin', 'brin$PPR'], cfg)"
} >"$REPORT"

cat "$REPORT"
[ -z "$OUT" ] || cp "$REPORT" "$OUT"
