#!/usr/bin/env bash
# Sets everything up like test/demo.sh, then runs every test on every major
# of the matrix (UID_MATRIX, default "15 17 18 19"; PG_MAJOR=N for one major):
# per major pg_regress and TAP (concurrency, clock jumps, restart, crash,
# replication, pg_upgrade), each against that major's server (19's inside a
# Debian sid root, test/root-check.sh); once, beside the others in a copy
# built against the first major, the unit tests (the codecs, uid-inspect,
# the core's rules, a sixth type added to a copy: test/newtype.sh), the
# generator core's deterministic simulator (make simcheck), the mutants of
# the core's rules (make mutatecheck) and the decoder fuzzers, which are plain C and use no server; once, on the newest major (19, in its
# root), pg_regress and the concurrency TAP tests against uid.so built with
# sanitizers (test/sanitize.sh; UID_SAN_MAJOR picks another);
# once, the Debian package (test/package.sh) and the PGXN zip (test/dist.sh);
# once, beside the others from when PostgreSQL 18 is built, the Citus stage
# (test/citus/run.sh): Citus built against 18 from UID_CITUS_TARBALL
# (test/citus-build.sh), a coordinator and two workers on loopback, the
# tests of test/citus; once, beside the others from the start, the
# integration suite (test/integration/run.sh): uid under Patroni with etcd,
# pgBackRest and pg_auto_failover, Debian 12's packages for 15, one seed per
# tool (printed; UID_INT_SEED=N replays), in a private copy of 15; on 15
# and 18, after pg_regress on the same cluster, the client packages' tests
# (test/clients.sh: clients/python, clients/js, clients/go, clients/java and
# clients/rust, each adapter against the server, the shared vectors, the
# offline installs).
# Exits non-zero if any suite fails.
#
# Usage: test/check.sh [--only STAGE[,STAGE...]] [MAJOR...]
#   STAGE  unit, sim, regress, tap, sanitize, package, dist, fuzz, citus,
#          integration, clients (default: all)
#   MAJOR  the majors to test (default: PG_MAJOR, else UID_MATRIX; citus is
#          on 18 and integration on Debian 12's 15 whatever they are)
# e.g. "test/check.sh --only tap 17" reruns the TAP suite on 17, and with
# PROVE_TESTS=test/t/032_sno_reload.pl only that file.
#   UID_TAP_JOBS   TAP files a major runs at once (default 3: most of a TAP
#                  file's time is spent waiting on its servers); PROVE_FLAGS
#                  adds to prove's flags (-j, --timer)
#   UID_FUZZ_TIME  seconds per fuzz target (default 15)
#   UID_SIM_SEEDS  the simulator's seeds (default 1-2000)
#   UID_SEAMS_RUNS seeds of the seams test (TAP 033) per major (default 1; each
#                  prints its seed, UID_SEAMS_SEEDS=<seeds> replays them)
#   UID_CITUS_TARBALL the Citus sources (default
#                  ../shared/citus/citus-14.0.1.tar.gz beside this checkout,
#                  else fetched and checked: test/citus-build.sh);
#                  UID_CITUS_TESTS=test/citus/003_mx_writes.pl runs one file
STAGES="unit sim regress tap sanitize package dist fuzz citus integration clients"
ONLY=
args=()
while [ $# -gt 0 ]; do
	case $1 in
	--only)
		[ $# -ge 2 ] || { echo "--only needs stages: ${STAGES// /, }" >&2; exit 2; }
		ONLY=${2//,/ }
		shift 2
		;;
	--only=*) ONLY=${1#--only=}; ONLY=${ONLY//,/ }; shift ;;
	-h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
	-*) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
	*) args+=("$1"); shift ;;
	esac
done
for st in $ONLY; do
	case " $STAGES " in *" $st "*) ;; *) echo "unknown stage '$st': one of ${STAGES// /, }" >&2; exit 2 ;; esac
done
# want STAGE: is the stage to run?
want() { [ -z "$ONLY" ] || [[ " $ONLY " == *" $1 "* ]]; }

source "$(dirname "$0")/lib.sh"

if [ ${#args[@]} -gt 0 ]; then majors="${args[*]}"; elif [ -n "${PG_MAJOR:-}" ]; then majors=$PG_MAJOR; else majors=$UID_MATRIX; fi
for m in $majors; do use_major "$m"; done # check them all before the long part

install_packages $majors ${UID_UPGRADE_FROM_MAJOR:-}
# The integration suite's packages, before anything runs beside: two apt-gets
# at once would fail on dpkg's lock.
if want integration && packaged 15; then
	source "$UID_SRC/test/integration/lib.sh"
	install_packages 15
	# shellcheck disable=SC2046
	install_missing $(int_package_list 15)
fi
# What the Debian package's test, the zip's and Citus's build install when
# missing, now: they run beside each other, where two apt-gets at once would
# fail on apt's locks.
# shellcheck disable=SC2046
install_missing $(! want package || bash "$UID_SRC/test/package.sh" --packages) \
	$(! want dist || bash "$UID_SRC/test/dist.sh" --packages) \
	$(! want citus || bash "$UID_SRC/test/citus-build.sh" --packages)
# On exit: the last major's cluster, and a run still going beside the others:
# a rooted major (test/root-check.sh releases its root on TERM) or the Citus
# stage (test/citus/run.sh stops its nodes on TERM).
beside_pids=()
stop_all() {
	stop_cluster
	local p
	for p in ${beside_pids[@]+"${beside_pids[@]}"}; do
		[ -z "$p" ] || { pkill -TERM -P "$p" 2>/dev/null; kill "$p" 2>/dev/null; } || true
	done
	wait 2>/dev/null || true
}
trap stop_all EXIT

passed=0
failed=0
notrun=0
results=()
record() { results+=("$(printf '%-6s %s' "$1" "$2")"); }
suite() {
	local name=$1 t0=$SECONDS
	shift
	say "$name"
	if "$@"; then
		passed=$((passed + 1))
		record ok "$name ($((SECONDS - t0)) s)"
		return 0
	fi
	failed=$((failed + 1))
	record FAIL "$name ($((SECONDS - t0)) s)"
	return 1
}
# A set-up step: timed and shown in the summary, not counted as a suite; when
# it fails, the suites that need it are "not run".
step() {
	local name=$1 t0=$SECONDS
	shift
	say "$name"
	if "$@"; then
		record ok "$name ($((SECONDS - t0)) s)"
		return 0
	fi
	record FAIL "$name ($((SECONDS - t0)) s)"
	return 1
}
not_run() {
	notrun=$((notrun + 1))
	record "-" "$1: not run ($2)"
}

# The client packages' tests need Node.js 20.10+ with npm: the one on PATH,
# else one from the npm registry, pinned and cached (test/node.sh, which may
# apt-get Debian's npm to fetch it with: before anything runs beside).  The
# clients suites alone get it first on PATH; without one they fail with its
# line.
NODE_BIN=
if want clients; then
	step "Node.js 20.10+ with npm for the client packages' tests" ensure_node || true
fi

run_regress() {
	as_pg env PGHOST="$PGHOST" PGPORT="$PGPORT" PATH="$PG_BIN:$PATH" \
		make -C "$BUILD" -s installcheck PG_CONFIG="$PG_CONFIG" && return 0
	cat "$BUILD/regression.diffs" 2>/dev/null || true
	return 1
}

# TAP 021 runs pg_upgrade from the major before this one in the matrix
# (upgrade_from, that installation's prefix) when this run installed uid
# there; UID_UPGRADE_FROM_MAJOR names a major outside the matrix to install
# uid on first, for that (test/root-check.sh: 18 in 19's root).
# Only where PostgreSQL's own pg_upgrade of a cluster without uid works
# between the two installations (upgrade_probe): Debian 12's 15.20
# writes a column option into its catalogs (pg_attver, from its November 2026
# security release) that the 17.11 built here does not know, so pg_upgrade
# from 15.20 to 17.11 fails before uid is involved.
upgrade_from=
tap_from=
run_tap() {
	as_pg env PATH="$PG_BIN:$PATH" UID_FAKETIME_LIB="$(faketime_lib)" UID_REQUIRE_FAKETIME=1 \
		UID_REQUIRE_PG_CRON="$(packaged "$PG_MAJOR" && [ "$PG_MAJOR" = 15 ] && echo 1)" \
		${tap_from:+UID_UPGRADE_FROM="$tap_from"} \
		UID_SEAMS_RUNS="${UID_SEAMS_RUNS:-1}" ${UID_SEAMS_SEEDS:+UID_SEAMS_SEEDS="$UID_SEAMS_SEEDS"} \
		make -C "$BUILD" -s tapcheck PG_CONFIG="$PG_CONFIG" \
		PROVE_FLAGS="-j${UID_TAP_JOBS:-3} --timer ${PROVE_FLAGS:-}" \
		${PROVE_TESTS:+PROVE_TESTS="$PROVE_TESTS"} && return 0
	tail -n 50 "$BUILD"/tmp_check/log/regress_log_* 2>/dev/null || true
	return 1
}

# upgrade_probe OLD-PREFIX: pg_upgrade of a cluster with one table from
# OLD-PREFIX's installation to the current major's, in SCRATCH/upgrade-probe
# (log in PROBE_LOG); on failure PROBE_REASON holds the first error it printed.
upgrade_probe() {
	local old=$1 dir=$SCRATCH/upgrade-probe
	PROBE_LOG=$dir/log PROBE_REASON=
	"${SUDO[@]}" rm -rf "$dir"
	as_pg mkdir -p "$dir"
	# The table is made by a running server: in single-user mode right after
	# initdb it would take an OID of the range initdb uses, which the new
	# cluster's own objects hold (pg_upgrade then fails on pg_type_oid_index).
	if (cd "$dir" && init_cluster "$old/bin" "$dir/old" -k &&
		start_server "$old/bin" "$dir/old" "$dir" $((PORT + 200)) "$dir/old.log" &&
		as_pg "$old/bin/psql" -X -q -h "$dir" -p $((PORT + 200)) -U postgres -d postgres \
			-c 'CREATE TABLE probe (id bigint PRIMARY KEY, note text)' &&
		stop_server "$old/bin" "$dir/old" &&
		init_cluster "$PG_BIN" "$dir/new" -k &&
		as_pg "$PG_BIN/pg_upgrade" --no-sync -d "$dir/old" -D "$dir/new" -b "$old/bin" -B "$PG_BIN" \
			-s "$dir" -p $((PORT + 200)) -P $((PORT + 201))) >"$PROBE_LOG" 2>&1; then
		return 0
	fi
	PROBE_REASON=$( (grep -rh 'ERROR:' "$dir/new/pg_upgrade_output.d" 2>/dev/null || true) | head -n 1)
	PROBE_REASON="${PROBE_REASON:-$(tail -n 1 "$PROBE_LOG")}; see $PROBE_LOG"
	return 1
}

# The server-independent suites (unit, sim and its mutants, fuzz) run
# once, in a copy of their own built against the first major's pg_config,
# beside the others from there (UID_SIDE_BY_SIDE=0: then, before them):
# they use the CPU that the majors' suites leave while they wait on their
# servers.  Each one's line is in the run's output, printed at the end.
nosrv_build=
nosrv_config=
run_nosrv() {
	local lines=() rc=0
	# A suite's command may set suite_note: said after its line.
	nosrv_suite() {
		local name=$1 t0=$SECONDS
		shift
		say "$name"
		suite_note=
		if "$@"; then
			lines+=("$(printf '%-6s %s' ok "$name ($((SECONDS - t0)) s)${suite_note:+: $suite_note}")")
		else
			lines+=("$(printf '%-6s %s' FAIL "$name ($((SECONDS - t0)) s)${suite_note:+: $suite_note}")")
			rc=1
		fi
	}
	# make simcheck, whose plants that cannot be planted (their function or
	# text gone: they need updating to the code) are said apart from a bug
	# the simulator missed (test/sim/plant.sh, the Makefile's simcheck).
	simcheck_stage() {
		local out src=0
		out=$(mktemp)
		as_pg make -C "$nosrv_build" -s simcheck SIM_SEEDS="${UID_SIM_SEEDS:-1-2000}" \
			PG_CONFIG="$nosrv_config" 2>&1 | tee "$out" || src=${PIPESTATUS[0]}
		if grep -q '^simcheck: no plant missed, but plants CANNOT PLANT' "$out"; then
			suite_note="no bug missed, but plants CANNOT PLANT:$(sed -n 's/^plant \([^ ]*\): CANNOT PLANT: .*/ \1/p' "$out" | tr -d '\n') (update them to the code)"
		fi
		rm -f "$out"
		return "$src"
	}
	say "copying the sources to $nosrv_build"
	"${SUDO[@]}" rm -rf "$(dirname "$nosrv_build")"
	copy_tree "$nosrv_build" && "${SUDO[@]}" chown -R postgres: "$(dirname "$nosrv_build")" || return 1
	if want unit; then
		nosrv_suite "unit tests: codecs, uid-inspect, the core's rules" \
			as_pg make -C "$nosrv_build" -s unitcheck PG_CONFIG="$nosrv_config"
		nosrv_suite "a sixth type added to a copy: make, layercheck, unitcheck, simulator" \
			as_pg env PG_CONFIG="$nosrv_config" bash "$nosrv_build/test/newtype.sh"
	fi
	if want sim; then
		nosrv_suite "generator core simulator, seeds ${UID_SIM_SEEDS:-1-2000}, and its planted bugs" simcheck_stage
		nosrv_suite "mutants of the core's rules, each killed by the unit tests or the simulator" \
			as_pg make -C "$nosrv_build" -s mutatecheck SIM_SEEDS="${UID_SIM_SEEDS:-1-2000}" PG_CONFIG="$nosrv_config"
	fi
	if want fuzz; then
		nosrv_suite "fuzz" \
			as_pg make -C "$nosrv_build" -s fuzzcheck FUZZ_TIME="${UID_FUZZ_TIME:-15}" PG_CONFIG="$nosrv_config"
	fi
	say "the suites without a server"
	printf '%s\n' "${lines[@]}"
	return $rc
}

# A major in a Debian sid root (19): its pg_regress and TAP run inside the
# root (test/root-check.sh), side by side with the other majors' suites
# (UID_SIDE_BY_SIDE=0: before them), its output in a log printed at the end.
# With no other major to build them in, the server-independent suites (unit,
# fuzz) run in the root too.
rooted_only=1
for m in $majors; do rooted "$m" || rooted_only=0; done
# The sanitizer run is on the newest major of the matrix that is not a Debian
# 12 package (UID_SAN_MAJOR picks one): in its root when that major is rooted.
san_major=${UID_SAN_MAJOR:-$(san_major $majors)}
rooted_stages=
for st in regress tap $([ $rooted_only = 0 ] || echo unit sim fuzz); do
	want $st && rooted_stages=${rooted_stages:+$rooted_stages,}$st
done
# beside NAME LOG-PREFIX COMMAND...: runs COMMAND in the background, its
# output in a log (LOG-PREFIX.XXXXXX) printed at the end by wait_beside, with
# its own time in LOG.time: the wait for it comes after the others.
beside_runs=()
beside() {
	local name=$1 log
	log=$(mktemp "${TMPDIR:-/tmp}/$2.XXXXXX")
	shift 2
	say "$name: started beside the others; its log: $log"
	(
		t0=$SECONDS rc=0
		"$@" || rc=$?
		echo $((SECONDS - t0)) >"$log.time"
		exit $rc
	) >"$log" 2>&1 &
	beside_pids+=($!)
	beside_runs+=("$name|$log")
}
# alongside NAME LOG-PREFIX COMMAND...: beside the others, or with
# UID_SIDE_BY_SIDE=0 a suite run now, before them.
alongside() {
	if [ "${UID_SIDE_BY_SIDE:-1}" = 1 ]; then
		beside "$@"
	else
		local name=$1
		shift 2
		suite "$name" "$@" || true
	fi
}
# The majors built from source (17, 18) that the cache lacks: built beside
# the others from the start, one after the other in the majors' loop's
# order, under the cache's lock (test/pg-build.sh), so that a fresh machine
# builds 17 while 15's suites run and 18 while 17's do; the majors' loop
# below finds them built, or waits on that lock for the one still building.
# (Built 18 first, for the Citus stage, the loop waited 12 minutes for 17
# after 15's suites in a cold run; Citus starts once 18 is built.)
prebuild() {
	local m
	for m in "$@"; do
		use_major "$m"
		ensure_postgres || return 1
		echo "PostgreSQL $m: $(pg_version), $PG_CONFIG"
	done
}
to_build=()
for m in $majors; do
	use_major "$m"
	if ! packaged "$m" && ! rooted "$m" && [ ! -f "$UID_PG_CACHE/$m/uid-pg.stamp" ]; then
		to_build+=("$m")
	fi
done
if [ ${#to_build[@]} -gt 0 ] && { want regress || want tap || want unit || want sim || want fuzz || want clients; }; then
	beside "PostgreSQL ${to_build[*]} built from source into $UID_PG_CACHE" uid-pg-build prebuild "${to_build[@]}"
fi
# The client packages' compilers (test/clients.sh --prepare: Go's and
# Rust's dependencies, npm's cache), beside the others from the start, so
# that the clients stage on 15 runs tests rather than compilers.
if want clients && [[ " $majors " == *" 15 "* || " $majors " == *" 18 "* ]]; then
	alongside "client packages' dependencies compiled (test/clients.sh --prepare)" uid-clients-prepare \
		env PATH="${NODE_BIN:+$NODE_BIN:}$PATH" bash "$UID_SRC/test/clients.sh" --prepare
fi
run_rooted() {
	"${SUDO[@]}" env UID_SCRATCH="$UID_SCRATCH" UID_PG_CACHE="$UID_PG_CACHE" \
		PROVE_TESTS="${PROVE_TESTS:-}" PROVE_FLAGS="${PROVE_FLAGS:-}" UID_TAP_JOBS="${UID_TAP_JOBS:-}" \
		UID_SEAMS_RUNS="${UID_SEAMS_RUNS:-}" UID_SEAMS_SEEDS="${UID_SEAMS_SEEDS:-}" \
		UID_SAN_TAP="${UID_SAN_TAP:-}" bash "$UID_SRC/test/root-check.sh" "$1" --only "$2"
}
for m in $majors; do
	use_major "$m"
	rooted "$m" || continue
	stages=$rooted_stages
	if want sanitize && [ "$m" = "$san_major" ]; then stages=${stages:+$stages,}sanitize; fi
	# the Debian packages of uid for the root's majors (test/package.sh)
	if want package; then stages=${stages:+$stages,}package; fi
	[ -n "$stages" ] || continue
	name="${stages//,/, } on $m ($(pg_origin))"
	alongside "$name" "uid-root-$m" run_rooted "$m" "$stages"
done
# The integration suite (test/integration/run.sh), once, beside the others
# from here on (UID_SIDE_BY_SIDE=0: before them): Debian 12's tools are
# packaged for its 15 only.  Its own scratch and a private copy of 15, so
# that nothing of the majors' suites is shared with it.
run_integration() {
	env PG_MAJOR=15 UID_SCRATCH="$UID_SCRATCH/integration" UID_INT_LOGS="$UID_SCRATCH/integration/logs" \
		bash "$UID_SRC/test/integration/run.sh"
}
if ! want integration; then
	:
elif ! packaged 15; then
	not_run "integration suite" "Debian 12's PostgreSQL 15 is not packaged here"
else
	name="integration suite on 15: Patroni, pgBackRest, pg_auto_failover (test/integration)"
	alongside "$name" uid-integration run_integration
fi

# Waits for the runs started beside the others (rooted majors, Citus): each
# one's output, and a suite in the summary.
wait_beside() {
	local i name log rc took
	for i in "${!beside_pids[@]}"; do
		IFS='|' read -r name log <<<"${beside_runs[$i]}"
		rc=0
		wait "${beside_pids[$i]}" || rc=$?
		say "$name (side by side): its output"
		cat "$log"
		took=$(cat "$log.time" 2>/dev/null || echo '?')
		beside_pids[$i]=
		if [ $rc -eq 0 ]; then
			passed=$((passed + 1))
			record ok "$name ($took s, side by side)"
		else
			failed=$((failed + 1))
			record FAIL "$name ($took s, side by side)"
		fi
	done
}

# The Citus stage (test/citus/run.sh), once, on 18 whatever the majors: it
# starts once PostgreSQL 18 is built (test/citus-build.sh copies 18's
# installation), beside the other stages (UID_SIDE_BY_SIDE=0: then, before
# them).  That is before the majors when 18 is built already or when no
# major's suites here build it (citus-build.sh builds it then, taking the
# cache's lock as any build does), else right after the majors' loop
# builds 18.
run_citus() {
	"${SUDO[@]}" env UID_SCRATCH="$UID_SCRATCH" UID_PG_CACHE="$UID_PG_CACHE" \
		${UID_CITUS_TARBALL:+UID_CITUS_TARBALL="$UID_CITUS_TARBALL"} \
		${UID_CITUS_TESTS:+UID_CITUS_TESTS="$UID_CITUS_TESTS"} \
		${UID_CITUS_PORT:+UID_CITUS_PORT="$UID_CITUS_PORT"} PROVE_FLAGS="${PROVE_FLAGS:-}" \
		bash "$UID_SRC/test/citus/run.sh"
}
citus_started=0
start_citus() {
	want citus && [ $citus_started = 0 ] || return 0
	citus_started=1
	local name="Citus stage: Citus on PostgreSQL 18, a coordinator and two workers (test/citus)"
	alongside "$name" uid-citus run_citus
}
if [ -f "$UID_PG_CACHE/18/uid-pg.stamp" ] || [[ " $majors " != *" 18 "* ]] || rooted 18 || packaged 18 ||
	! { want unit || want sim || want regress || want tap || want fuzz; }; then
	start_citus
fi

# Once: the Debian package of 15 (pg_buildext; installed into a fresh Debian
# 12 root, used, purged) and the PGXN zip of `make dist` (from a git clone of
# this checkout, so not in a tree without git, such as an unpacked zip):
# beside the others once the majors' loop is past its first major (they need
# 15's installation only), else after the loop.
run_package() {
	local as=("${SUDO[@]}")
	[ "${UID_PACKAGE_HERE:-0}" = 1 ] && as=()
	${as[@]+"${as[@]}"} env UID_SCRATCH="$UID_SCRATCH" UID_PG_CACHE="$UID_PG_CACHE" bash "$UID_SRC/test/package.sh"
}
packaging_started=0
start_packaging() {
	[ $packaging_started = 0 ] || return 0
	packaging_started=1
	if ! want package; then
		:
	elif [ "${UID_PACKAGE_HERE:-0}" = 1 ]; then
		alongside "Debian packages of $(PG_SUPPORTED_VERSIONS=installed /usr/share/postgresql-common/supported-versions | sort -n | tr '\n' ' ')(PG_SUPPORTED_VERSIONS=installed): build, install here, use, purge" \
			uid-package run_package
	else
		alongside "Debian package: build, install into a fresh Debian 12 root, use, purge" uid-package run_package
	fi
	if ! want dist; then
		:
	elif git -C "$UID_SRC" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		alongside "PGXN zip: make dist, META.json, build and CREATE EXTENSION from it" uid-dist \
			env UID_SCRATCH="$UID_SCRATCH" UID_PORT="$UID_PORT" bash "$UID_SRC/test/dist.sh"
	else
		record "-" "PGXN zip: skipped ($UID_SRC is not a git checkout)"
	fi
}

install_old_major() { ensure_postgres && copy_sources && build_and_install; }
if [ -n "${UID_UPGRADE_FROM_MAJOR:-}" ] && want tap; then
	use_major "$UID_UPGRADE_FROM_MAJOR"
	if step "uid on PostgreSQL $PG_MAJOR ($(pg_origin)), to pg_upgrade from" install_old_major; then
		upgrade_from=$(dirname "$PG_BIN")
	fi
fi
for m in $majors; do
	use_major "$m"
	rooted "$m" && continue
	want unit || want sim || want regress || want tap || want fuzz || want clients || continue
	if ! step "PostgreSQL $m ($(pg_origin))" ensure_postgres; then
		not_run "pg_regress on $m" "no server"
		not_run "TAP on $m" "no server"
		continue
	fi
	# Citus as soon as 18 is built (by the build beside, or here)
	if [ "$m" = 18 ] || [ -f "$UID_PG_CACHE/18/uid-pg.stamp" ]; then start_citus; fi
	ver=$(pg_version)
	if ! step "copy the sources for $m" copy_sources; then
		not_run "pg_regress on $ver" "no copy"
		not_run "TAP on $ver" "no copy"
		continue
	fi
	if [ -z "$nosrv_build" ] && { want unit || want sim || want fuzz; }; then
		nosrv_build=$UID_SCRATCH/nosrv/build nosrv_config=$PG_CONFIG
		name="unit tests, simulator, mutants, fuzz (no server; built against $ver)"
		alongside "$name" uid-nosrv run_nosrv
	fi
	want regress || want tap || want clients || continue
	if ! step "build and install the extension on $ver" build_and_install; then
		not_run "pg_regress on $ver" "the build failed"
		not_run "TAP on $ver" "the build failed"
		continue
	fi
	clients_here=
	if want clients && { [ "$m" = 15 ] || [ "$m" = 18 ]; }; then clients_here=1; fi
	if ! want regress && [ -z "$clients_here" ]; then
		:
	elif ! step "throwaway cluster on $ver" start_cluster; then
		not_run "pg_regress on $ver" "no cluster; see $SCRATCH/server.log"
	else
		if want regress; then suite "pg_regress on $ver" run_regress || true; fi
		if [ -n "$clients_here" ]; then
			suite "client packages (Python, JavaScript, Go, Java, Rust) on $ver" \
				env PGHOST="$PGHOST" PGPORT="$PGPORT" PGUSER=postgres PGDATABASE=postgres \
				PATH="${NODE_BIN:+$NODE_BIN:}$PATH" bash "$UID_SRC/test/clients.sh" "$BUILD" || true
		fi
	fi
	stop_cluster
	tap_from=
	if want tap && [ -n "$upgrade_from" ]; then
		if upgrade_probe "$upgrade_from"; then
			tap_from=$upgrade_from
		else
			record "-" "pg_upgrade from $upgrade_from to $ver: not tested, TAP 021 upgrades within $ver (PostgreSQL's own pg_upgrade of a cluster without uid fails between them: $PROBE_REASON)"
		fi
	fi
	if want tap; then
		suite "TAP on $ver${tap_from:+ (pg_upgrade from $tap_from)}" run_tap || true
	fi
	upgrade_from=$(dirname "$PG_BIN")
	start_packaging
done

# uid.so built with AddressSanitizer and UBSan, in a private copy of the
# newest major's installation (test/sanitize.sh says why not 15); a rooted
# major's runs in its root, above.
if ! want sanitize; then
	:
elif rooted "$san_major" && [[ " $majors " == *" $san_major "* ]]; then
	: # in the root, with its major's suites
elif [[ " $majors " == *" $san_major "* ]]; then
	suite "sanitizers (ASan, UBSan) on $san_major: pg_regress, concurrency TAP" \
		env UID_SAN_MAJOR="$san_major" UID_SCRATCH="$UID_SCRATCH" UID_PORT="$UID_PORT" \
		bash "$UID_SRC/test/sanitize.sh" || true
else
	if [ -n "$san_major" ]; then why="major $san_major is not in the matrix ($majors)"; else
		why="no major of $majors can run them: Debian 12's postgres hangs under ASan"; fi
	not_run "sanitizers" "$why"
fi

if ! want unit && ! want sim && ! want fuzz; then
	:
elif [ $rooted_only = 1 ]; then
	: # in the root, with its major's suites
elif [ -n "$nosrv_build" ]; then
	: # beside the others, above
else
	not_run "unit tests" "no server of any major to build with"
	not_run "generator core simulator" "no server of any major to build with"
	not_run "mutants of the core's rules" "no server of any major to build with"
	not_run "fuzz" "no server of any major to build with"
fi

# (when the majors' loop did not build 18 after all, or ran no major here)
start_citus
start_packaging
wait_beside

say "summary (PostgreSQL majors: $majors)"
printf '%s\n' "${results[@]}"
echo
if [ "$notrun" -gt 0 ]; then
	echo "$passed passed, $failed failed, $notrun not run"
else
	echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ] && [ "$notrun" -eq 0 ]
