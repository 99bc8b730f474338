#!/usr/bin/env bash
# bench/citus.sh: uid's generators as the key of a distributed table on Citus (issue 37),
# side by side with Citus's own bigserial (node-group sequences) and gen_random_uuid().
#
# It sets up (or, with --reuse, reuses) a Citus cluster of a coordinator and two workers on
# 127.0.0.1, with uid built from a copy of this checkout, no uid setting touched, and the
# metadata synced to the workers (Citus's MX), and measures, for the keys
#   bigserial                                   (each node's sequence, node group << 48)
#   uuid         DEFAULT gen_random_uuid()
#   sno          DEFAULT sno_new()
#   snowflake_si DEFAULT snowflake_si_new()
# of a table (id <key> PRIMARY KEY, v int) hash-distributed by id:
#   1. pgbench INSERT INTO t (v) VALUES (...) through the coordinator, 1 and 8 clients;
#   2. the same through the workers (1 client: worker 1; 8 clients: 4 on each worker);
#   3. INSERT INTO dst (v) SELECT v FROM src, N rows between two distributed tables
#      (Citus repartitions it; the DEFAULT runs on the workers, in each shard's task), with
#      one more key, a volatile bigint DEFAULT of PostgreSQL's own ((random() * 9e18)::bigint:
#      Citus's plan for a volatile DEFAULT without uid's cost), and again for random, sno and
#      snowflake_si with citus.enable_repartitioned_insert_select off (key@pull: Citus pulls
#      the rows to the coordinator, which makes the IDs, as it plans bigserial's);
#   4. the per-row cost of each generator where Citus runs it, without the INSERT:
#      SELECT count(<generator>) FROM src, on the workers in each shard's task, beside
#      count(v);
#   5. with --perf, one more INSERT..SELECT of each key under perf record -a (every node, one
#      machine): the shares of the CPU samples by object (postgres, citus.so, uid.so...) and the
#      top symbols.
# Each pgbench run lasts a fixed time; R rounds, the candidates' order rotated by one a round;
# medians and ratios to bigserial.  At the end it counts duplicate IDs in every table and the
# node groups the IDs carry (a report, not an assertion).  See bench/README.md.
#
# Run as root (or a user with sudo): it builds Citus into a copy of PostgreSQL 18 once
# (test/citus-build.sh, cached in UID_PG_CACHE), copies that installation into its scratch
# directory (so that the Citus test stage's installation is left alone), builds and installs uid
# there, and runs the servers as the postgres OS user.
#
# Environment: UID_SCRATCH (default /tmp/uid-scratch; this script uses UID_SCRATCH/citus-bench),
# UID_PG_CACHE and UID_CITUS_TARBALL (as for test/citus-build.sh).

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
COMMAND=$(printf '%q ' "bench/citus.sh" "$@")
COMMAND=${COMMAND% }
source "$SCRIPT_DIR/../test/lib.sh"	# set -euo pipefail, UID_SRC, SUDO, as_pg, init_cluster, private_installation, build_and_install
source "$SCRIPT_DIR/lib.sh"		# median, minmax, fmt, div, rotate, bench_machine

ROUNDS=5
SECONDS_PER_RUN=5
ROWS=1000000
PORT=29400
WRITE=0
OUT=
KEEP=0
REUSE=0
STOP=0
ONLY=
PERF=0

usage() {
	cat <<EOF
usage: $0 [options]
  -r, --rounds R      timed rounds, candidates interleaved (default $ROUNDS)
  -t, --seconds S     length of each pgbench run in seconds (default $SECONDS_PER_RUN)
  -n, --rows N        rows of the INSERT..SELECT (default $ROWS)
  -p, --port P        the coordinator's port; the workers take P+1 and P+2 (default $PORT)
      --write         also write the report to bench/results-citus.md
      --out FILE.md   like --write, to FILE.md
      --keep          leave the cluster running at the end (and its tables)
      --reuse         use the cluster a --keep run left (started if stopped), without building
                      uid again; implies --keep
      --stop          stop a kept cluster, remove its data, and exit
      --only pgbench|is  run sections 1 and 2 only, or 3 and 4 (INSERT..SELECT) only
      --perf          also profile one INSERT..SELECT of each key with perf (section 5)
  -h, --help          this text
Scratch directory: UID_SCRATCH/citus-bench (UID_SCRATCH default /tmp/uid-scratch).
EOF
}

while [ $# -gt 0 ]; do
	case $1 in
		-r|--rounds) ROUNDS=$2; shift 2 ;;
		-t|--seconds) SECONDS_PER_RUN=$2; shift 2 ;;
		-n|--rows) ROWS=$2; shift 2 ;;
		-p|--port) PORT=$2; shift 2 ;;
		--write) WRITE=1; shift ;;
		--out) WRITE=1; OUT=$2; shift 2 ;;
		--keep) KEEP=1; shift ;;
		--reuse) REUSE=1; KEEP=1; shift ;;
		--stop) STOP=1; shift ;;
		--only) ONLY=$2; shift 2 ;;
		--perf) PERF=1; shift ;;
		-h|--help) usage; exit 0 ;;
		*) echo "unknown argument: $1" >&2; usage >&2; exit 2 ;;
	esac
done
check_rows_rounds "$ROWS" "$ROUNDS"
case $ONLY in ''|pgbench|is) ;; *) echo "--only takes pgbench or is" >&2; exit 2 ;; esac
if [ "$PERF" = 1 ] && ! command -v perf >/dev/null; then echo "--perf: no perf on PATH" >&2; exit 2; fi
for v in "$SECONDS_PER_RUN" "$PORT"; do
	case $v in ''|*[!0-9]*) echo "seconds and port must be positive integers" >&2; exit 2 ;; esac
done
[ "$SECONDS_PER_RUN" -ge 1 ] || { echo "seconds must be at least 1" >&2; exit 2; }
[ "$PORT" -ge 1024 ] && [ "$PORT" -le 65533 ] || { echo "port must be in 1024..65533" >&2; exit 2; }
OUT=${OUT:-$SCRIPT_DIR/results-citus.md}
case $OUT in *.md) ;; *) echo "--out takes a file name ending in .md" >&2; exit 2 ;; esac
[ -d "$(dirname "$OUT")" ] || { echo "--out: no directory $(dirname "$OUT")" >&2; exit 2; }

export LC_ALL=C	# psql prints \timing with the locale's decimal separator
T0=$SECONDS
log() { printf '[%4d s] %s\n' $((SECONDS - T0)) "$*" >&2; }
die() { log "$*"; exit 1; }

DIR=$UID_SCRATCH/citus-bench
ENV_FILE=$DIR/cluster.env	# what a --keep run leaves for --reuse
NODES=(coordinator worker1 worker2)
declare -A NODE_PORT=([coordinator]=$PORT [worker1]=$((PORT + 1)) [worker2]=$((PORT + 2)))
HOST=127.0.0.1

# ------------------------------------------------------------------ the cluster

node_data() { echo "$DIR/$1"; }
node_up() { [ -f "$(node_data "$1")/postmaster.pid" ]; }
start_node() {
	as_pg "$PG_BIN/pg_ctl" -D "$(node_data "$1")" -w -t 120 -l "$DIR/$1.log" start >/dev/null
}
stop_nodes() {
	local n
	for n in "${NODES[@]}"; do
		node_up "$n" || continue
		as_pg "$PG_BIN/pg_ctl" -D "$(node_data "$n")" -m fast -w stop >/dev/null || true
	done
}
# a port something on 127.0.0.1 listens on
port_taken() { (exec 3<>"/dev/tcp/$HOST/$1") 2>/dev/null; }

if [ "$STOP" = 1 ]; then
	[ -f "$ENV_FILE" ] || { echo "no kept cluster in $DIR" >&2; exit 0; }
	source "$ENV_FILE"
	stop_nodes
	"${SUDO[@]}" rm -rf "$DIR"
	echo "stopped the cluster and removed $DIR" >&2
	exit 0
fi

STARTED_HERE=0
cleanup() {
	local rc=$?
	rm -rf "${TMP:-}"
	if [ "$KEEP" = 0 ] && [ "$STARTED_HERE" = 1 ]; then
		stop_nodes
		"${SUDO[@]}" rm -rf "$(node_data coordinator)" "$(node_data worker1)" "$(node_data worker2)" "$ENV_FILE"
	elif [ "$KEEP" = 1 ] && [ -f "$ENV_FILE" ]; then
		log "the cluster runs on with --keep: psql -h $DIR -p $PORT -U postgres; bench/citus.sh --stop stops it"
	fi
	exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM
TMP=$(mktemp -d "${TMPDIR:-/tmp}/uid-citus-bench.XXXXXX")

# psql as the postgres role on NODE's socket: q NODE SQL...
q() {
	local n=$1; shift
	"$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -At -h "$DIR" -p "${NODE_PORT[$n]}" -U postgres -d postgres \
		-c "SET client_min_messages = warning" "${@/#/-c}"
}

# The sources that go into the build, and whether the working tree changes any of them.
build_rev() {
	local rev changed
	rev=$(git -C "$UID_SRC" rev-parse --short HEAD 2>/dev/null || echo '?')
	changed=$(git -C "$UID_SRC" status --porcelain --untracked-files=no -- src sql '*.sql' Makefile uid.control 2>/dev/null |
		awk '{ print $NF }' | tr '\n' ' ' | sed 's/ $//')
	if [ -n "$changed" ]; then
		echo "$rev, built with uncommitted changes to: $changed"
	else
		echo "$rev (the build's sources as committed)"
	fi
}

setup_cluster() {
	local pg_config n p
	for n in "${NODES[@]}"; do
		p=${NODE_PORT[$n]}
		! port_taken "$p" || die "port $p on $HOST is taken (-p moves the nodes' ports; a kept cluster: --reuse or --stop)"
	done
	install_packages >&2	# the postgres OS user, make, gcc
	log "Citus on PostgreSQL 18 (test/citus-build.sh, cached)"
	pg_config=$("${SUDO[@]}" env UID_PG_CACHE="$UID_PG_CACHE" ${UID_CITUS_TARBALL:+UID_CITUS_TARBALL="$UID_CITUS_TARBALL"} \
		bash "$UID_SRC/test/citus-build.sh" 2>"$TMP/citus-build.log") ||
		{ cat "$TMP/citus-build.log" >&2; die "test/citus-build.sh failed"; }
	# what an earlier run left (its servers were stopped: their ports are free)
	"${SUDO[@]}" rm -rf "$DIR"
	"${SUDO[@]}" mkdir -p "$DIR/build"
	# a copy of the Citus installation, uid installed into it: the Citus test stage installs
	# its own uid into the cached one, maybe at the same time
	log "copying the Citus installation to $DIR/install, and the sources to $DIR/build"
	PG_CONFIG=$pg_config private_installation "$DIR/install"
	PG_BIN=$COPY_BIN
	BUILT_REV=$(build_rev)
	tar -C "$UID_SRC" --exclude=.git --exclude='*.o' --exclude='*.so' --exclude='*.bc' \
		--exclude=./results --exclude=./tmp_check -cf - . | "${SUDO[@]}" tar -C "$DIR/build" -xf -
	"${SUDO[@]}" chown -R postgres: "$DIR"
	write_env
	log "building uid ($BUILT_REV)"
	BUILD=$DIR/build PG_CONFIG=$COPY_CONFIG build_and_install >"$DIR/build.log" 2>&1 ||
		{ tail -n 40 "$DIR/build.log" >&2; die "building uid failed; the whole log is $DIR/build.log"; }

	for n in "${NODES[@]}"; do
		init_cluster "$PG_BIN" "$(node_data "$n")"
		# listen on 127.0.0.1 (Citus connects to the nodes over TCP) and on a socket in DIR (the
		# clients); synchronous_commit off: the commit's WAL flush is the same for every key and
		# would hide its cost (as in bench.sh's pgbench section)
		as_pg tee -a "$(node_data "$n")/postgresql.conf" >/dev/null <<-EOF
			port = ${NODE_PORT[$n]}
			listen_addresses = '$HOST'
			unix_socket_directories = '$DIR'
			shared_preload_libraries = 'citus'
			shared_buffers = 256MB
			max_connections = 200
			max_worker_processes = 20
			synchronous_commit = off
			max_wal_size = 4GB
		EOF
		start_node "$n"
		STARTED_HERE=1
		q "$n" "CREATE EXTENSION citus" >/dev/null
	done
	q coordinator "CREATE EXTENSION uid" "SELECT citus_set_coordinator_host('$HOST', $PORT)" >/dev/null
	for n in worker1 worker2; do
		q coordinator "SELECT citus_add_node('$HOST', ${NODE_PORT[$n]})" >/dev/null
	done
	for ((i = 0; i < 600; i++)); do
		[ "$(q coordinator "SELECT count(*) FROM pg_dist_node WHERE noderole = 'primary' AND hasmetadata AND metadatasynced")" = 3 ] && break
		sleep 0.1
	done
	[ "$i" -lt 600 ] || die "the workers' metadata is not synced after 60 s"
}

# what --reuse and --stop need of the cluster (written before any node starts)
write_env() {
	cat >"$TMP/env" <<-EOF
		PG_BIN=$(printf '%q' "$PG_BIN")
		KEPT_PORT=$PORT
		BUILT_REV=$(printf '%q' "$BUILT_REV")
		BUILT_AT=$(printf '%q' "$(date -u '+%Y-%m-%d %H:%M UTC')")
	EOF
	"${SUDO[@]}" cp "$TMP/env" "$ENV_FILE"
}

reuse_cluster() {
	local n
	[ -f "$ENV_FILE" ] || die "--reuse: no kept cluster in $DIR (run once with --keep)"
	source "$ENV_FILE"
	[ "$KEPT_PORT" = "$PORT" ] || die "--reuse: the kept cluster's coordinator is on port $KEPT_PORT, not $PORT (-p $KEPT_PORT)"
	for n in "${NODES[@]}"; do
		node_up "$n" || { log "starting $n"; start_node "$n"; }
	done
	[ "$(q coordinator "SELECT count(*) FROM pg_dist_node WHERE hasmetadata AND metadatasynced")" = 3 ] ||
		die "--reuse: the kept cluster does not have three nodes with synced metadata; --stop and run again"
	log "reusing the cluster kept in $DIR (uid $BUILT_REV, built $BUILT_AT)"
}

LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')
START_DATE=$(date -u '+%Y-%m-%d %H:%M:%S UTC')
if [ "$REUSE" = 1 ]; then reuse_cluster; else setup_cluster; fi
SETUP_S=$((SECONDS - T0))

PGVERSION=$(q coordinator "SELECT version()")
CITUS_VERSION=$(q coordinator "SELECT citus_version()")
UID_VERSION=$(q coordinator "SELECT extversion FROM pg_extension WHERE extname = 'uid'")
SHARD_COUNT=$(q coordinator "SHOW citus.shard_count")
NODE_LIST=$(q coordinator "SELECT string_agg(format('%s (group %s, port %s%s)', CASE groupid WHEN 0 THEN 'coordinator' ELSE 'worker' END,
	groupid, nodeport, CASE WHEN shouldhaveshards AND groupid > 0 THEN ', holds shards' WHEN groupid > 0 THEN '' ELSE ', no shards' END), '; ' ORDER BY groupid)
	FROM pg_dist_node")
# what each node embeds, and where from: no uid setting is touched, so the node group (citus)
IDENTITY=$(for n in "${NODES[@]}"; do
	printf '%s: %s; ' "$n" "$(q "$n" "SELECT string_agg(format('%s %s = %s (%s)', type, field, value, source), ', ' ORDER BY type)
		FROM uid_identity() WHERE type IN ('sno', 'snowflake_si')")"
done | sed 's/; $//')
# uid.* settings set on any node (a uid function first: pg_settings lists them once uid is loaded)
SF_BITS=$(q coordinator "SELECT effective FROM uid_config() WHERE name = 'uid.snowflake_si_index_bits'")
UID_SETTINGS=$(for n in "${NODES[@]}"; do
	q "$n" "SELECT count(*) FROM uid_config()" \
		"SELECT count(*) FROM pg_settings WHERE name LIKE 'uid.%' AND source NOT IN ('default', 'override')" | tail -n 1
done | awk '{ s += $1 } END { print s + 0 }')

# ------------------------------------------------------------------ tables

CANDS=(bigserial uuid sno snowflake_si)
# the keys of the INSERT..SELECT, and its runs: a key, or key@pull (the rows pulled to the coordinator)
IS_KEYS=(bigserial random uuid sno snowflake_si)
IS_RUNS=("${IS_KEYS[@]}" random@pull sno@pull snowflake_si@pull)
declare -A KEY_DDL=(
	[bigserial]="id bigserial PRIMARY KEY"
	[random]="id bigint PRIMARY KEY DEFAULT (random() * 9e18)::bigint"
	[uuid]="id uuid PRIMARY KEY DEFAULT gen_random_uuid()"
	[sno]="id sno PRIMARY KEY DEFAULT sno_new()"
	[snowflake_si]="id snowflake_si PRIMARY KEY DEFAULT snowflake_si_new()"
)
# the node group an ID carries, as SQL over id (uuid: none)
declare -A GROUP_OF=(
	[bigserial]="(id >> 48)::int"
	[sno]="sno_partition(id)"
	[snowflake_si]="snowflake_si_machine(id)"
)

log "tables: ins_<key> (pgbench), dst_<key> (INSERT..SELECT), src ($ROWS rows); citus.shard_count $SHARD_COUNT"
{
	echo "SET client_min_messages = warning;"
	echo "DROP TABLE IF EXISTS src$(for c in "${CANDS[@]}"; do printf ', ins_%s' "$c"; done)$(for c in "${IS_KEYS[@]}"; do printf ', dst_%s' "$c"; done);"
	for c in "${CANDS[@]}"; do
		echo "CREATE TABLE ins_$c (${KEY_DDL[$c]}, v int);"
		echo "SELECT create_distributed_table('ins_$c', 'id');"
	done
	for c in "${IS_KEYS[@]}"; do
		echo "CREATE TABLE dst_$c (${KEY_DDL[$c]}, v int);"
		echo "SELECT create_distributed_table('dst_$c', 'id');"
	done
	echo "CREATE TABLE src (k bigint, v int);"
	echo "SELECT create_distributed_table('src', 'k');"
	echo "INSERT INTO src SELECT g, g FROM generate_series(1, $ROWS) g;"
	echo "VACUUM ANALYZE src;"
} | "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -h "$DIR" -p "$PORT" -U postgres -d postgres >/dev/null

# an INSERT..SELECT run's statement: its key's table, and for key@pull the setting first
is_sql() {
	local k=${1%@pull} set=
	[ "$k" = "$1" ] || set="SET citus.enable_repartitioned_insert_select = off; "
	echo "${set}INSERT INTO dst_$k (v) SELECT v FROM src;"
}
# how Citus runs each INSERT..SELECT (EXPLAIN alone does not run it)
declare -A IS_METHOD
for c in "${IS_RUNS[@]}"; do
	IS_METHOD[$c]=$(q coordinator "$(is_sql "$c" | sed 's/INSERT INTO/EXPLAIN (COSTS OFF) INSERT INTO/')" |
		sed -n 's/^ *INSERT\/SELECT method: *//p' | head -n 1)
	IS_METHOD[$c]=${IS_METHOD[$c]:-pushdown}
done

# ------------------------------------------------------------------ 1, 2. pgbench

RAW=$TMP/raw	# lines: section round candidate value
ERRS=$TMP/errors	# lines: section round candidate "failed/aborted counts" first-error
: >"$RAW"
: >"$ERRS"
for c in "${CANDS[@]}"; do
	printf '%s\n' '\set v random(1, 1000000000)' "INSERT INTO ins_$c (v) VALUES (:v);" >"$TMP/ins_$c.sql"
done

# pgbench on NODE with N clients and J threads for S seconds into candidate C's table; writes
# its output to FILE.out and FILE.err: pgb NODE N J S C FILE
pgb() {
	"$PG_BIN/pgbench" -n -M prepared -h "$DIR" -p "${NODE_PORT[$1]}" -U postgres -c "$2" -j "$3" -T "$4" \
		-f "$TMP/ins_$5.sql" postgres >"$6.out" 2>"$6.err" || true
}
# tps, failed transactions and aborted clients of the runs FILE...: the sum of their tps
pgb_result() {
	local f tps=0 t failed=0 aborted=0 err=
	for f in "$@"; do
		t=$(sed -n 's/^tps = \([0-9.]*\) .*/\1/p' "$f.out" | head -n 1)
		tps=$(awk -v a="$tps" -v b="${t:-nan}" 'BEGIN { if (a == "nan" || b == "nan") print "nan"; else print a + b }')
		failed=$((failed + $(sed -n 's/^number of failed transactions: \([0-9]*\).*/\1/p' "$f.out" | head -n 1 | grep . || echo 0)))
		aborted=$((aborted + $(grep -c 'aborted in command' "$f.err" || true)))
		[ -n "$err" ] || err=$(grep -m 1 -E 'ERROR|error' "$f.err" || true)
	done
	echo "$tps $failed $aborted $err"
}
# one measured run: pgb_run SECTION ROUND CANDIDATE CLIENTS (SECTION: coord or workers)
pgb_run() {
	local s=$1 r=$2 c=$3 n=$4 res tps failed aborted err
	if [ "$s" = coord ]; then
		pgb coordinator "$n" "$((n < 2 ? n : 2))" "$SECONDS_PER_RUN" "$c" "$TMP/run1"
		res=$(pgb_result "$TMP/run1")
	elif [ "$n" = 1 ]; then
		pgb worker1 1 1 "$SECONDS_PER_RUN" "$c" "$TMP/run1"
		res=$(pgb_result "$TMP/run1")
	else
		# half the clients on each worker, one thread each (two in all, as through the coordinator)
		pgb worker1 "$((n / 2))" 1 "$SECONDS_PER_RUN" "$c" "$TMP/run1" &
		pgb worker2 "$((n - n / 2))" 1 "$SECONDS_PER_RUN" "$c" "$TMP/run2" &
		wait
		res=$(pgb_result "$TMP/run1" "$TMP/run2")
	fi
	read -r tps failed aborted err <<<"$res"
	echo "${s}_$n $r $c $tps" >>"$RAW"
	if [ "$failed" != 0 ] || [ "$aborted" != 0 ] || [ "$tps" = nan ]; then
		echo "${s}_$n $r $c $failed $aborted ${err:-no tps in the output of pgbench}" >>"$ERRS"
		log "  ${s}_$n $c: $failed failed transactions, $aborted clients aborted: $err"
	fi
	printf '%s' "$tps"
}

# ------------------------------------------------------------------ how quiet the machine was

# CPU time in clock ticks: "busy steal" of the whole machine (/proc/stat), and "ours": this shell
# and its children (pgbench, psql), and every node's postmaster, its live children and those it
# reaped.  What the machine was busy with beside ours is other work.
HZ=$(getconf CLK_TCK)
machine_ticks() { awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8, $9 }' /proc/stat; }
proc_ticks() { { sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null || echo; } | awk '{ print $12 + $13 + $14 + $15 }'; }
our_ticks() {
	local n pm c t
	t=$(proc_ticks $$)
	for n in "${NODES[@]}"; do
		pm=$(head -n 1 "$(node_data "$n")/postmaster.pid" 2>/dev/null) || continue
		for c in "$pm" $(ps -o pid= --ppid "$pm"); do t=$((t + $(proc_ticks "$c"))); done
	done
	echo "$t"
}
read -r BUSY0 STEAL0 <<<"$(machine_ticks)"
OURS0=$(our_ticks)
MEASURE_T0=$(date +%s.%N)

PGB_CONFIGS=("coord 1" "coord 8" "workers 1" "workers 8")
[ "$ONLY" != is ] || PGB_CONFIGS=()
WARMUP_S=2
[ "$ONLY" = is ] || log "pgbench warm-up: each key, ${WARMUP_S} s through the coordinator and through the workers, 8 clients (not counted)"
for c in $([ "$ONLY" = is ] || echo "${CANDS[@]}"); do
	pgb coordinator 8 2 "$WARMUP_S" "$c" "$TMP/warm"
	pgb worker1 4 1 "$WARMUP_S" "$c" "$TMP/warm1" & pgb worker2 4 1 "$WARMUP_S" "$c" "$TMP/warm2" & wait
done
for ((r = 1; r <= ROUNDS; r++)); do
	for cfg in ${PGB_CONFIGS[@]+"${PGB_CONFIGS[@]}"}; do
		set -- $cfg
		line=
		for c in $(rotate "$r" "${CANDS[@]}"); do
			line="$line $c $(pgb_run "$1" "$r" "$c" "$2")"
		done
		log "pgbench round $r of $ROUNDS, through the ${1/coord/coordinator}, $2 client(s), tps:$line"
	done
done

# ------------------------------------------------------------------ 3. INSERT..SELECT

# uid_stats() of every node for the uid candidates: "node type issued overflow_waits" lines
stats() {
	local n
	for n in "${NODES[@]}"; do
		q "$n" "SELECT '$n', type, issued, overflow_waits FROM uid_stats() WHERE type IN ('sno', 'snowflake_si')" | tr '|' ' '
	done
}
IS_ERRS=$TMP/is_errors	# lines: run first-error
: >"$IS_ERRS"
# One INSERT..SELECT of run C (untimed before it: TRUNCATE, a CHECKPOINT on every node); prints
# its ms (nan if it failed): is_once C
is_once() {
	local c=$1 k=${1%@pull} out ms n
	q coordinator "TRUNCATE dst_$k" >/dev/null
	for n in "${NODES[@]}"; do q "$n" "CHECKPOINT" >/dev/null; done
	if out=$(printf '%s\n' '\timing on' "$(is_sql "$c")" |
		"$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -h "$DIR" -p "$PORT" -U postgres -d postgres 2>&1); then
		ms=$(printf '%s\n' "$out" | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | tail -n 1)
	else
		ms=nan
		out=$(printf '%s\n' "$out" | grep -m 1 ERROR || echo "$out" | head -n 1)
		echo "$c $out" >>"$IS_ERRS"
		log "  INSERT..SELECT $c failed: $out"
	fi
	echo "${ms:-nan}"
}
for ((r = 1; r <= ROUNDS; r++)); do
	[ "$ONLY" != pgbench ] || break
	line=
	for c in $(rotate "$r" "${IS_RUNS[@]}"); do
		k=${c%@pull}
		stats >"$TMP/stats0"
		ms=$(is_once "$c")
		echo "is $r $c $ms" >>"$RAW"
		stats >"$TMP/stats1"
		# the IDs each node issued in this statement, and the waits for the next tick
		if [ -n "${GROUP_OF[$k]:-}" ] && [ "$k" != bigserial ]; then
			awk -v c="$c" -v k="$k" -v r="$r" 'NR == FNR { i[$1] = $3; w[$1] = $4; next }
				$2 == k { printf "is %s %s_issued_%s %d\n", r, c, $1, $3 - i[$1]; ow += $4 - w[$1] }
				END { printf "is %s %s_waits %d\n", r, c, ow }' \
				<(awk -v k="$k" '$2 == k' "$TMP/stats0") "$TMP/stats1" >>"$RAW"
		fi
		line="$line $c $(fmt "$ms" 0)"
	done
	log "INSERT..SELECT round $r of $ROUNDS, ms:$line"
done

# ------------------------------------------------------------------ 4. per-row cost

# SELECT count(<expression>) FROM src: Citus runs it on the workers, a task a shard, as the
# SELECT of a repartitioned INSERT..SELECT runs the DEFAULT
declare -A ROW_EXPR=(
	[floor]="v"
	[random]="(random() * 9e18)::bigint"
	[uuid]="gen_random_uuid()"
	[sno]="sno_new()"
	[snowflake_si]="snowflake_si_new()"
)
ROW_CANDS=(floor random uuid sno snowflake_si)
for ((r = 1; r <= ROUNDS; r++)); do
	[ "$ONLY" != pgbench ] || break
	line=
	for c in $(rotate "$r" "${ROW_CANDS[@]}"); do
		ms=$(printf '%s\n' '\timing on' "SELECT count(${ROW_EXPR[$c]}) FROM src;" |
			"$PG_BIN/psql" -X -q -At -v ON_ERROR_STOP=1 -h "$DIR" -p "$PORT" -U postgres -d postgres 2>&1 |
			sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | tail -n 1)
		echo "row $r $c ${ms:-nan}" >>"$RAW"
		line="$line $c $(fmt "${ms:-nan}" 0)"
	done
	log "per-row round $r of $ROUNDS, ms:$line"
done

# ------------------------------------------------------------------ 5. perf

# perf record -a over one INSERT..SELECT of each key: the shares of the samples by object, and
# the top symbols
PERF_RUNS=(bigserial random sno snowflake_si)
if [ "$PERF" = 1 ] && [ "$ONLY" != pgbench ]; then
	for c in "${PERF_RUNS[@]}"; do
		# system-wide until interrupted
		"${SUDO[@]}" perf record -a -F 997 -o "$TMP/perf.$c" >/dev/null 2>&1 &
		perf_pid=$!
		sleep 1
		ms=$(is_once "$c")
		# (sudo passes the signal on to perf, which then writes its data and exits)
		"${SUDO[@]}" kill -INT "$perf_pid" 2>/dev/null || true
		wait "$perf_pid" 2>/dev/null || true
		"${SUDO[@]}" perf report -i "$TMP/perf.$c" --stdio --sort dso --percent-limit 1 2>/dev/null |
			grep -E '^ +[0-9.]+%' >"$TMP/perf.$c.dso" || true
		"${SUDO[@]}" perf report -i "$TMP/perf.$c" --stdio --sort dso,sym --percent-limit 1 2>/dev/null |
			grep -E '^ +[0-9.]+%' | head -n 15 >"$TMP/perf.$c.sym" || true
		log "perf: INSERT..SELECT $c, $(fmt "$ms" 0) ms; by object: $(awk '{ printf "%s %s, ", $2, $1 }' "$TMP/perf.$c.dso" | sed 's/, $//')"
	done
fi

# ------------------------------------------------------------------ duplicates, node groups

declare -A ROWS_OF DUPS_OF GROUPS_OF
TABLES=($(for c in "${CANDS[@]}"; do echo "ins_$c"; done) $(for c in "${IS_KEYS[@]}"; do echo "dst_$c"; done))
for k in "${TABLES[@]}"; do
	c=${k#*_}
	IFS='|' read -r rows dups <<<"$(q coordinator "SELECT count(*), count(*) - count(DISTINCT id) FROM $k")"
	ROWS_OF[$k]=$rows DUPS_OF[$k]=$dups
	if [ -n "${GROUP_OF[$c]:-}" ]; then
		GROUPS_OF[$k]=$(q coordinator "SELECT string_agg(format('group %s: %s', g, n), ', ' ORDER BY g)
			FROM (SELECT ${GROUP_OF[$c]} AS g, count(*) AS n FROM $k GROUP BY 1) s")
	else
		GROUPS_OF[$k]="– (no node group in the key)"
	fi
done
read -r BUSY1 STEAL1 <<<"$(machine_ticks)"
OURS1=$(our_ticks)
MEASURE_T1=$(date +%s.%N)
LOAD_END=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')
# shares of the machine's CPU time over the measurements: other work, this run, steal
read -r MEASURE_S OTHER_PCT OURS_PCT STEAL_PCT <<<"$(awk -v t0="$MEASURE_T0" -v t1="$MEASURE_T1" -v hz="$HZ" -v cpus="$(nproc)" \
	-v b="$((BUSY1 - BUSY0))" -v o="$((OURS1 - OURS0))" -v st="$((STEAL1 - STEAL0))" 'BEGIN {
	cap = (t1 - t0) * hz * cpus; other = b - o; if (other < 0) other = 0
	printf "%.0f %.1f %.1f %.1f\n", t1 - t0, 100 * other / cap, 100 * o / cap, 100 * st / cap }')"
ELAPSED=$((SECONDS - T0))

# ------------------------------------------------------------------ report

declare -A LABEL=(
	[bigserial]="bigserial"
	[uuid]="uuid gen_random_uuid()"
	[sno]="sno sno_new()"
	[snowflake_si]="snowflake_si snowflake_si_new()"
	[random]="bigint (random() * 9e18)::bigint"
	[random@pull]="bigint (random() * 9e18)::bigint, pulled"
	[sno@pull]="sno sno_new(), pulled"
	[snowflake_si@pull]="snowflake_si snowflake_si_new(), pulled"
	[floor]="count(v)"
)
vals() { awk -v s="$1" -v c="$2" '$1 == s && $3 == c { print $4 }' "$RAW"; }

pgb_table() {
	local s=$1 n c bs
	echo "| clients | $(for c in "${CANDS[@]}"; do printf '%s | ' "${LABEL[$c]}"; done)$(for c in "${CANDS[@]:1}"; do printf '%s vs bigserial | ' "$c"; done)"
	echo "|---:|$(for c in "${CANDS[@]}" "${CANDS[@]:1}"; do printf -- '---:|'; done)"
	for n in 1 8; do
		bs=$(vals "${s}_$n" bigserial | median)
		printf '| %s | ' "$n"
		for c in "${CANDS[@]}"; do printf '%s | ' "$(fmt "$(vals "${s}_$n" "$c" | median)" 0)"; done
		for c in "${CANDS[@]:1}"; do printf '%s | ' "$(div "$(vals "${s}_$n" "$c" | median)" "$bs")"; done
		echo
		printf '| %s, min–max | ' "$n"
		for c in "${CANDS[@]}"; do printf '%s | ' "$(vals "${s}_$n" "$c" | minmax)"; done
		for c in "${CANDS[@]:1}"; do printf ' | '; done
		echo
	done
}

is_table() {
	local c med bs n issued waits
	bs=$(vals is bigserial | median)
	echo "| key | ms (median) | min–max | rows/s | vs bigserial | INSERT/SELECT method | IDs issued per node (uid_stats(), median) | waits for the next tick (median) |"
	echo "|---|---:|---:|---:|---:|---|---|---:|"
	for c in "${IS_RUNS[@]}"; do
		med=$(vals is "$c" | median)
		issued="–" waits="–"
		if [ "${c%@pull}" = sno ] || [ "${c%@pull}" = snowflake_si ]; then
			issued=$(for n in "${NODES[@]}"; do printf '%s %s, ' "$n" "$(fmt "$(vals is "${c}_issued_$n" | median)" 0)"; done | sed 's/, $//')
			waits=$(fmt "$(vals is "${c}_waits" | median)" 0)
		fi
		echo "| ${LABEL[$c]} | $(fmt "$med" 0) | $(vals is "$c" | minmax) | $(awk -v n="$ROWS" -v m="$med" 'BEGIN { if (m == "nan" || m <= 0) print "–"; else printf "%.0f\n", n / m * 1000 }') | $(div "$med" "$bs") | ${IS_METHOD[$c]} | $issued | $waits |"
	done
}

report() {
	local c t
	echo "## uid on Citus: distributed INSERT throughput (bench/citus.sh)"
	echo
	echo "- date: $START_DATE"
	echo "- command: \`$COMMAND\`"
	UID_GIT_REV="$BUILT_REV" bench_machine /nonexistent	# the revision of the build, not of the tree now
	echo "- load average (1/5/15 min) at start: $LOAD_START; at end: $LOAD_END"
	echo "- PostgreSQL: $PGVERSION"
	echo "- Citus: $CITUS_VERSION; citus.shard_count $SHARD_COUNT; nodes: $NODE_LIST; metadata synced to the workers (MX)"
	echo "- uid extension $UID_VERSION; uid settings set on the nodes: $UID_SETTINGS; identities: $IDENTITY"
	echo "- every node: shared_buffers 256MB, synchronous_commit off; the clients on the same machine, over Unix sockets; Citus between the nodes over TCP on $HOST"
	echo "- $ROUNDS rounds, candidates' order rotated by one a round; pgbench runs of $SECONDS_PER_RUN s; wall time ${ELAPSED} s (set-up ${SETUP_S} s)"
	echo
	echo "All nodes and the clients share one machine: absolute numbers are low; compare the ratios."
	echo "Over the ${MEASURE_S} s of measurements (pgbench and INSERT..SELECT) this run's processes (nodes, pgbench, psql) used $OURS_PCT% of the"
	echo "machine's CPU time, other processes $OTHER_PCT%, and the hypervisor took $STEAL_PCT% (steal; /proc/stat and /proc/PID/stat)."
	if awk -v o="$OTHER_PCT" -v s="$STEAL_PCT" 'BEGIN { exit !(o + s > 10) }'; then
		echo "The machine was not quiet: other work ran beside the benchmark and took CPU time from it, unevenly; the spread (min–max) shows how much."
	fi
	echo
	echo "Table: \`CREATE TABLE t (<key>, v int)\`, \`SELECT create_distributed_table('t', 'id')\`; key \`id bigserial PRIMARY KEY\` or \`id <type> PRIMARY KEY DEFAULT <generator>\`."
	echo
	if [ "$ONLY" != is ]; then
	echo "### 1. INSERT through the coordinator: pgbench tps (median of $ROUNDS runs of $SECONDS_PER_RUN s)"
	echo
	pgb_table coord
	echo
	echo "\`pgbench -n -M prepared -c N -j min(N, 2) -T $SECONDS_PER_RUN\`, one \`INSERT INTO t (v) VALUES (:v)\` (v random) a transaction, to the coordinator:"
	echo "it evaluates the DEFAULT itself (bigserial: its own sequence; sno, snowflake_si: node group 0 in the ID), then sends the row to its shard's worker."
	echo
	echo "### 2. INSERT through the workers: pgbench tps (median of $ROUNDS runs of $SECONDS_PER_RUN s)"
	echo
	pgb_table workers
	echo
	echo "1 client: on worker 1. 8 clients: 4 on each worker, two pgbench processes at once (\`-j 1\` each), their tps added."
	echo "Each worker evaluates the DEFAULT itself (its own node group) and writes the row to its shard, on itself or the other worker."
	echo
	fi
	if [ "$ONLY" != pgbench ]; then
	echo "### 3. INSERT INTO dst (v) SELECT v FROM src, $ROWS rows (median of $ROUNDS rounds)"
	echo
	is_table
	echo
	echo "src (k bigint, v int) is distributed by k, dst by its generated id, so Citus cannot push the statement down to colocated shards."
	echo "*repartition*: each worker runs the SELECT on its shards of src and evaluates the DEFAULT there, in each shard's task, then sends each row"
	echo "to the shard of its id. *pull to coordinator*: the coordinator gathers src's rows, evaluates the DEFAULT itself (bigserial: its own"
	echo "sequence, node group 0) and sends the rows to their shards; Citus plans bigserial's INSERT..SELECT this way (nextval() stays on the"
	echo "coordinator), not the others'. *key, pulled*: the same statement with \`SET citus.enable_repartitioned_insert_select = off\`, which makes"
	echo "Citus pull the rows to the coordinator for every key: the coordinator then makes the IDs (node group 0), as it does bigserial's."
	echo "bigint (random() * 9e18)::bigint: a volatile DEFAULT of PostgreSQL's own, which Citus plans as uid's: the plan's cost without uid's."
	echo "Before each statement (untimed): TRUNCATE dst and a CHECKPOINT on every node. Time: psql's \\timing at the coordinator."
	echo "IDs issued per node: the growth of uid_stats().issued on each node in the statement. Waits: the growth of uid_stats().overflow_waits"
	echo "on all nodes: a generator that used up its tick's IDs waited for the next one. snowflake_si_new() makes at most $((1 << SF_BITS)) IDs per ms per"
	echo "node (uid.snowflake_si_index_bits $SF_BITS): $ROWS rows made by two workers need at least $(awk -v n="$ROWS" -v b="$SF_BITS" 'BEGIN { printf "%.0f", n / (2 * 2^b) }') ms of its ticks; sno's limit is 65,536 per 4 ms per node."
	sed 's/^\([^ ]*\) \(.*\)/- \1: failed: \2/' "$IS_ERRS"
	echo
	echo "### 4. The generators alone: SELECT count(<generator>) FROM src, $ROWS rows (median of $ROUNDS rounds)"
	echo
	echo "| expression | ms (median) | min–max | ms above count(v) | ns a row above count(v), per worker |"
	echo "|---|---:|---:|---:|---:|"
	fl=$(vals row floor | median)
	for c in "${ROW_CANDS[@]}"; do
		med=$(vals row "$c" | median)
		echo "| \`count(${ROW_EXPR[$c]})\` | $(fmt "$med" 0) | $(vals row "$c" | minmax) | $(awk -v m="$med" -v f="$fl" 'BEGIN { if (m == "nan" || f == "nan") print "–"; else printf "%.0f\n", m - f }') | $(awk -v m="$med" -v f="$fl" -v n="$ROWS" 'BEGIN { if (m == "nan" || f == "nan") print "–"; else printf "%.0f\n", (m - f) * 1e6 / (n / 2) }') |"
	done
	echo
	echo "Citus runs the count on the workers, a task a shard, as it runs the SELECT of a repartitioned INSERT..SELECT and its DEFAULT;"
	echo "the two workers each make half the rows' values, at once. ns a row: the time above count(v), over the rows one worker makes."
	if [ "$PERF" = 1 ]; then
		echo
		echo "### 5. Where the time goes: perf record -a over one INSERT..SELECT of each key"
		echo
		echo "Every node and the client on one machine: the samples of all of them (and of other work on the machine), at 997 Hz."
		for c in "${PERF_RUNS[@]}"; do
			echo
			echo "**${LABEL[$c]}** (${IS_METHOD[$c]}). By object (≥ 1%): $(awk '{ printf "%s %s, ", $2, $1 }' "$TMP/perf.$c.dso" 2>/dev/null | sed 's/, $//')."
			echo
			echo '```'
			cat "$TMP/perf.$c.sym" 2>/dev/null || true
			echo '```'
		done
	fi
	echo
	fi
	echo "### Duplicate IDs and node groups at the end of the run"
	echo
	echo "| table | rows | duplicate IDs (count(*) − count(DISTINCT id)) | rows by the node group in the ID |"
	echo "|---|---:|---:|---|"
	for k in "${TABLES[@]}"; do
		echo "| $k | ${ROWS_OF[$k]} | ${DUPS_OF[$k]} | ${GROUPS_OF[$k]} |"
	done
	echo
	echo "ins_*: every pgbench run's rows (warm-up included), through the coordinator and both workers; dst_*: the last round's INSERT..SELECT."
	echo "The primary key refuses a duplicate in its shard (equal IDs hash to one shard), so a duplicate would also show as a failed transaction:"
	if [ -s "$ERRS" ]; then
		echo
		echo "| run | round | key | failed transactions | aborted clients | first error |"
		echo "|---|---:|---|---:|---:|---|"
		awk '{ e = ""; for (i = 6; i <= NF; i++) e = e (i > 6 ? " " : "") $i; printf "| %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, e }' "$ERRS"
	else
		echo "no pgbench run had a failed transaction or an aborted client."
	fi
	echo
	echo "<details><summary>per-round values (tps; INSERT..SELECT ms)</summary>"
	echo
	echo "| run | key | per round |"
	echo "|---|---|---|"
	for s in coord_1 coord_8 workers_1 workers_8 is row; do
		case $s in is) set -- "${IS_RUNS[@]}" ;; row) set -- "${ROW_CANDS[@]}" ;; *) set -- "${CANDS[@]}" ;; esac
		for c in "$@"; do
			[ -n "$(vals "$s" "$c")" ] || continue
			echo "| $s | $c | $(vals "$s" "$c" | awk '{ printf "%s%.0f", (NR > 1 ? " " : ""), $1 }') |"
		done
	done
	echo
	echo "</details>"
}

report >"$TMP/report.md"
cat "$TMP/report.md"
if [ "$WRITE" = 1 ]; then
	cp "$TMP/report.md" "$OUT"
	log "wrote $OUT"
fi
log "done in $((SECONDS - T0)) s"
