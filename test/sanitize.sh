#!/usr/bin/env bash
# The extension built with AddressSanitizer and UndefinedBehaviorSanitizer,
# loaded in an unchanged server: pg_regress and the TAP tests that run the
# generators from many sessions and the coordinator's client code, then a
# count of the sanitizers' reports (it must be 0).
#
# Sets up like test/check.sh, on UID_SAN_MAJOR (default: the newest major of
# UID_MATRIX that is not a Debian 12 package; test/check.sh runs it for 19
# inside 19's Debian sid root, and
# 18 would be built from source), then works in a private copy of that
# major's installation under UID_SCRATCH/san-N, so the instrumented uid.so
# never reaches the real one.  In the copy, bin/postgres
# is a small script that preloads gcc's ASan runtime (which must be the first
# library of an uninstrumented program) and runs the real binary, so only the
# server's processes carry the runtime, whoever starts them (pg_ctl, initdb,
# the TAP framework).  Leak detection is off: a backend frees its memory by
# dropping memory contexts and exiting.
#
# Not Debian's PostgreSQL 15: its postgres links libsystemd, whose
# libgpg-error calls bindtextdomain() from a constructor that runs before the
# preloaded runtime's; the runtime then initialises inside that call (its
# first malloc), reads a translated message under the lock bindtextdomain
# holds, and leaves the lock broken: every start hangs.  The majors built from
# source link no such library, and sid's libsystemd (under Debian's 19) no
# longer links libgcrypt: 19's package runs under the runtime.
# The TAP tests that step the clock are not among them: a server started
# with libfaketime preloaded beside the runtime hangs at start (seen with
# PostgreSQL 18's postgres -V), so these run on the real clock.
#
#   UID_SAN_TAP  the TAP files to run (default: the concurrency tests, the
#                fair share, the lease pool, the fleet, sno's back-fill, the
#                secrets and sno's ranges through reloads: the SIGHUP watcher,
#                parallel workers, the state file's takeover)
source "$(dirname "$0")/lib.sh"

UID_SAN_TAP=${UID_SAN_TAP:-test/t/001_sno_concurrency.pl test/t/007_snowflake_si_concurrency.pl
test/t/009_revts8_concurrency.pl test/t/012_muid_concurrency.pl test/t/014_uid60_concurrency.pl
test/t/022_pool.pl test/t/023_fleet.pl test/t/024_coordinator_down.pl test/t/026_fair_share.pl
test/t/029_sno_backfill.pl test/t/030_secrets.pl test/t/032_sno_reload.pl}

major=${UID_SAN_MAJOR:-$(san_major $UID_MATRIX)}
[ -n "$major" ] || { echo "no major of UID_MATRIX ($UID_MATRIX) can run the sanitizers: Debian 12's postgres hangs under ASan" >&2; exit 2; }
use_major "$major"
# 19: the same, inside its Debian sid root (test/root-check.sh)
if rooted "$PG_MAJOR"; then
	exec "${SUDO[@]}" env UID_SCRATCH="$UID_SCRATCH" UID_PG_CACHE="$UID_PG_CACHE" UID_SAN_TAP="$UID_SAN_TAP" \
		bash "$UID_SRC/test/root-check.sh" "$PG_MAJOR" --only sanitize
fi
install_packages "$PG_MAJOR"
ensure_postgres

SAN=$UID_SCRATCH/san-$PG_MAJOR
ROOT=$SAN/root
REPORTS=$SAN/reports
SAN_BUILD=$SAN/build
SAN_DATA=$SAN/data
SAN_PORT=$((PORT + 100))
ASAN_LIB=$(gcc -print-file-name=libasan.so)

# The installation, copied to the same paths under ROOT (test/lib.sh), its
# postgres wrapped to run with the sanitizers' runtime.
copy_installation() {
	private_installation "$ROOT"
	"${SUDO[@]}" mkdir -p "$REPORTS"
	local bin=$COPY_BIN
	"${SUDO[@]}" mv "$bin/postgres" "$bin/postgres.bin"
	# ASan first, then whatever the caller preloads.  The real binary runs
	# under this script's name: the postmaster records it in postmaster.opts,
	# and "pg_ctl restart" starts that again, preload and all.
	"${SUDO[@]}" tee "$bin/postgres" >/dev/null <<-EOF
		#!/bin/bash
		LD_PRELOAD="$ASAN_LIB\${LD_PRELOAD:+ \$LD_PRELOAD}" \\
		ASAN_OPTIONS="detect_leaks=0:log_path=$REPORTS/asan" \\
		UBSAN_OPTIONS="print_stacktrace=1:log_path=$REPORTS/ubsan" \\
		exec -a "\$0" "\$(dirname "\$0")/postgres.bin" "\$@"
	EOF
	"${SUDO[@]}" chmod 755 "$bin/postgres"
	SAN_BIN=$bin
	SAN_CONFIG=$bin/pg_config
}

build_instrumented() {
	copy_tree "$SAN_BUILD"
	"${SUDO[@]}" chown -R postgres: "$SAN"
	# with_llvm=no: no JIT bitcode, which would be built by clang with these flags
	as_pg make -C "$SAN_BUILD" -s PG_CONFIG="$SAN_CONFIG" with_llvm=no \
		COPT='-fsanitize=address,undefined -fno-omit-frame-pointer' clean all &&
		as_pg make -C "$SAN_BUILD" -s PG_CONFIG="$SAN_CONFIG" with_llvm=no install
}

san_psql() { as_pg "$SAN_BIN/psql" -X -h "$SAN" -p "$SAN_PORT" -U postgres -d postgres "$@"; }

# The server's backends carry the runtime and load the instrumented uid.so:
# otherwise a clean result would prove nothing.
check_instrumented() {
	local maps
	maps=$(san_psql -Atq -c "CREATE EXTENSION uid" \
		-c "SELECT sno_new(1) IS NOT NULL" -c "SELECT pg_read_file('/proc/' || pg_backend_pid() || '/maps')" \
		-c "DROP EXTENSION uid" | sed -n '2,$p')
	grep -q "libasan" <<<"$maps" || { echo "the backend has no ASan runtime" >&2; return 1; }
	grep -q "$ROOT.*/uid.so" <<<"$maps" || { echo "the backend did not load $ROOT's uid.so" >&2; return 1; }
	# (not "nm | grep -q": under pipefail nm's SIGPIPE would fail the test)
	[ "$(nm -D "$ROOT$("$PG_CONFIG" --pkglibdir)/uid.so" | grep -c __asan_report)" -gt 0 ] ||
		{ echo "uid.so is not instrumented" >&2; return 1; }
	echo "a backend runs with $(grep -o '[^ ]*libasan[^ ]*' <<<"$maps" | head -n 1) and the instrumented uid.so"
}

run_suites() {
	local rc=0
	init_cluster "$SAN_BIN" "$SAN_DATA" || return 1
	start_server "$SAN_BIN" "$SAN_DATA" "$SAN" "$SAN_PORT" "$SAN/server.log" || return 1
	check_instrumented || rc=1
	say "pg_regress against the instrumented uid.so"
	as_pg env PGHOST="$SAN" PGPORT="$SAN_PORT" PGUSER=postgres PATH="$SAN_BIN:$PATH" \
		make -C "$SAN_BUILD" -s installcheck TAP_TESTS= PG_CONFIG="$SAN_CONFIG" with_llvm=no ||
		{ cat "$SAN_BUILD/regression.diffs" 2>/dev/null; rc=1; }
	stop_server "$SAN_BIN" "$SAN_DATA" || rc=1
	say "TAP against the instrumented uid.so: $(echo $UID_SAN_TAP)"
	as_pg env PATH="$SAN_BIN:$PATH" UID_FAKETIME_LIB="$(faketime_lib)" UID_REQUIRE_FAKETIME=1 \
		make -C "$SAN_BUILD" -s tapcheck PG_CONFIG="$SAN_CONFIG" with_llvm=no \
		PROVE_TESTS="$(echo $UID_SAN_TAP)" PROVE_FLAGS="${PROVE_FLAGS:-}" ||
		{ tail -n 50 "$SAN_BUILD"/tmp_check/log/regress_log_* 2>/dev/null; rc=1; }
	return $rc
}

count_reports() {
	local n
	n=$(find "$REPORTS" -type f | wc -l)
	if [ "$n" -gt 0 ]; then
		echo "$n sanitizer reports:" >&2
		find "$REPORTS" -type f -exec sh -c 'echo "--- $1"; head -n 40 "$1"' _ {} \; >&2
		return 1
	fi
	echo "0 sanitizer reports"
}

say "sanitizer build of uid on $(pg_version), in $SAN"
stop_server "$ROOT$("$PG_CONFIG" --bindir)" "$SAN_DATA" immediate 2>/dev/null || true
"${SUDO[@]}" rm -rf "$SAN"
copy_installation
build_instrumented
rc=0
run_suites || rc=1
count_reports || rc=1
exit $rc
