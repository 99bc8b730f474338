#!/usr/bin/env bash
# test/citus/run.sh: the Citus stage of test/check.sh (check.sh --only citus
# runs it; it also runs on its own).  Builds Citus into a copy of PostgreSQL
# 18's installation (test/citus-build.sh, cached), builds uid from a copy of
# the sources and installs it into a copy of that, this run's own, and runs
# the TAP tests of test/citus/ with prove against it.  Each test starts its own cluster
# of a coordinator and two workers on loopback (test/citus/CitusTest.pm)
# and leaves every uid setting alone.  Needs root, as check.sh.
#
# Settings (environment), besides those of test/lib.sh (UID_SCRATCH,
# UID_PG_CACHE) and test/citus-build.sh (UID_CITUS_TARBALL,
# the Citus sources, default ../shared/citus/citus-14.0.1.tar.gz beside
# this checkout):
#   UID_CITUS_TESTS  the test files (default test/citus/*.pl), e.g.
#                    UID_CITUS_TESTS=test/citus/003_mx_writes.pl
#   UID_CITUS_PORT   the nodes' first port (default 29330; the nodes use it
#                    and the four after it, on 127.0.0.1: test/citus/CitusTest.pm
#                    says why there)
#   PROVE_FLAGS      passed to prove after --timer (e.g. -v)
# The build and the tests' logs are in UID_SCRATCH/citus/build (tmp_check/log).
source "$(dirname "$0")/../lib.sh"

t0=$SECONDS
install_packages
say "Citus on PostgreSQL 18 (test/citus-build.sh)"
CACHED_CONFIG=$("${SUDO[@]}" env UID_PG_CACHE="$UID_PG_CACHE" ${UID_CITUS_TARBALL:+UID_CITUS_TARBALL="$UID_CITUS_TARBALL"} \
	bash "$UID_SRC/test/citus-build.sh")
SCRATCH=$UID_SCRATCH/citus
PG_CONFIG=$CACHED_CONFIG
PG_BIN=$(dirname "$PG_CONFIG")
BUILD=$SCRATCH/build
PGDATA_DIR=$SCRATCH/data
echo "Citus ready: $((SECONDS - t0)) s"

# The servers of the tests still running (a run stopped by a signal, or one
# before it that was): stopped at once.
stop_nodes() {
	local pid
	for pid in "$BUILD"/tmp_check/t_*_data/pgdata/postmaster.pid; do
		[ -f "$pid" ] || continue
		as_pg "$PG_BIN/pg_ctl" -D "$(dirname "$pid")" -m immediate -w stop >/dev/null 2>&1 || true
	done
}
prove_pid=
on_signal() {
	trap - TERM INT
	stop_nodes
	[ -z "$prove_pid" ] || kill "$prove_pid" 2>/dev/null || true
	exit 143
}
trap on_signal TERM INT

stop_nodes
t1=$SECONDS
copy_sources
# uid goes into a copy of the cached installation (40 MB), this run's own:
# runs side by side (other checkouts, other scratch directories) never
# install over each other's.
"${SUDO[@]}" cp -a "$(dirname "$PG_BIN")" "$SCRATCH/pg"
PG_CONFIG=$SCRATCH/pg/bin/pg_config
PG_BIN=$SCRATCH/pg/bin
build_and_install
echo "uid built and installed into $(dirname "$PG_BIN"): $((SECONDS - t1)) s"

say "the Citus tests: ${UID_CITUS_TESTS:-test/citus/*.pl}"
t1=$SECONDS
# In the background, so that a signal reaches on_signal at once.
as_pg env PATH="$PG_BIN:$PATH" ${UID_CITUS_PORT:+UID_CITUS_PORT="$UID_CITUS_PORT"} \
	make -C "$BUILD" -s tapcheck PG_CONFIG="$PG_CONFIG" PROVE_FLAGS="--timer ${PROVE_FLAGS:-}" \
	PROVE_TESTS="${UID_CITUS_TESTS:-test/citus/*.pl}" &
prove_pid=$!
rc=0
wait "$prove_pid" || rc=$?
prove_pid=
echo "the Citus tests: $((SECONDS - t1)) s; the stage: $((SECONDS - t0)) s"
[ $rc -eq 0 ] || echo "the tests' logs: $BUILD/tmp_check/log"
exit $rc
