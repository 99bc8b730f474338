#!/usr/bin/env bash
# Sets everything up, builds, installs, starts a throwaway cluster and shows
# every type the extension has.  UID_KEEP=1 leaves the cluster running.
# PG_MAJOR=N picks the server (default 15; 17 and 18 are built from source
# into UID_PG_CACHE the first time, about 4 minutes each on 2 cores).
source "$(dirname "$0")/lib.sh"

use_major "${PG_MAJOR:-15}"
install_packages "$PG_MAJOR"
ensure_postgres
copy_sources
build_and_install
start_cluster
[ "${UID_KEEP:-0}" = 1 ] || trap stop_cluster EXIT
say "demo"
uid_psql -v ON_ERROR_STOP=1 -e -d postgres -f "$BUILD/test/demo.sql"
if [ "${UID_KEEP:-0}" = 1 ]; then
	say "the cluster keeps running: psql -h $PGHOST -p $PGPORT -U postgres"
fi
