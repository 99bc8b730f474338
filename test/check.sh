#!/usr/bin/env bash
# Sets everything up like test/demo.sh, then runs every test: codec unit
# tests, pg_regress, TAP (concurrency, clock jumps, restart, crash) and the
# decoder fuzzers.  Exits non-zero if any suite fails.
#   UID_FUZZ_TIME  seconds per fuzz target (default 15)
source "$(dirname "$0")/lib.sh"

install_packages
build_and_install
start_cluster
trap stop_cluster EXIT

passed=0
failed=0
failures=()
suite() {
	local name=$1
	shift
	say "$name"
	if "$@"; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		failures+=("$name")
	fi
}

run_regress() {
	as_pg env PGHOST="$PGHOST" PGPORT="$PGPORT" PATH="$PG_BIN:$PATH" \
		make -C "$BUILD" -s installcheck TAP_TESTS= PG_CONFIG="$PG_BIN/pg_config" && return 0
	cat "$BUILD/regression.diffs" 2>/dev/null || true
	return 1
}

run_tap() {
	as_pg env PATH="$PG_BIN:$PATH" UID_FAKETIME_LIB="$(faketime_lib)" UID_REQUIRE_FAKETIME=1 \
		make -C "$BUILD" -s tapcheck PG_CONFIG="$PG_BIN/pg_config" PROVE_FLAGS="${PROVE_FLAGS:-}" && return 0
	tail -n 50 "$BUILD"/tmp_check/log/regress_log_* 2>/dev/null || true
	return 1
}

suite "codec unit tests" as_pg make -C "$BUILD" -s unitcheck
suite "pg_regress" run_regress
suite "TAP" run_tap
suite "fuzz" as_pg make -C "$BUILD" -s fuzzcheck FUZZ_TIME="${UID_FUZZ_TIME:-15}"

say "summary"
[ ${#failures[@]} -eq 0 ] || echo "failed suites: ${failures[*]}"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
