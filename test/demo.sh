#!/usr/bin/env bash
# Sets everything up, builds, installs, starts a throwaway cluster and shows
# every type the extension has.  UID_KEEP=1 leaves the cluster running.
source "$(dirname "$0")/lib.sh"

install_packages
build_and_install
start_cluster
[ "${UID_KEEP:-0}" = 1 ] || trap stop_cluster EXIT
say "demo"
uid_psql -v ON_ERROR_STOP=1 -e -d postgres -f "$BUILD/test/demo.sql"
if [ "${UID_KEEP:-0}" = 1 ]; then
	say "the cluster keeps running: psql -h $PGHOST -p $PGPORT -U postgres"
fi
