#!/usr/bin/env bash
# Builds, installs and starts a throwaway cluster exactly as test/demo.sh does,
# then runs bench/bench.sh against it with the given options (e.g. --write).
source "$(dirname "$0")/../test/lib.sh"
UID_GIT_REV=$(git -C "$UID_SRC" rev-parse --short HEAD 2>/dev/null || echo '?')
[ -z "$(git -C "$UID_SRC" status --porcelain --untracked-files=no 2>/dev/null)" ] ||
	UID_GIT_REV="$UID_GIT_REV (working tree modified)"

install_packages gnuplot-nox
build_and_install
start_cluster
trap stop_cluster EXIT
uid_psql -q -c "ALTER SYSTEM SET shared_buffers = '1GB'" >/dev/null
as_pg "$PG_BIN/pg_ctl" -D "$PGDATA_DIR" -w -l "$UID_SCRATCH/server.log" restart >/dev/null
say "benchmark"
if [[ " $* " == *" --write "* ]]; then
	# write into the source tree, not the scratch copy
	as_pg env PGHOST="$PGHOST" PGPORT="$PGPORT" PGUSER=postgres PATH="$PG_BIN:$PATH" UID_GIT_REV="$UID_GIT_REV" \
		bash "$BUILD/bench/bench.sh" "$@"
	cp "$BUILD/bench/results.md" "$BUILD/bench/results.png" "$UID_SRC/bench/"
else
	as_pg env PGHOST="$PGHOST" PGPORT="$PGPORT" PGUSER=postgres PATH="$PG_BIN:$PATH" UID_GIT_REV="$UID_GIT_REV" \
		bash "$BUILD/bench/bench.sh" "$@"
fi
