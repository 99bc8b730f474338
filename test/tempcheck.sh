#!/usr/bin/env bash
# test/tempcheck.sh [FILE...]: pg_regress files of sql/ (default: every one,
# as "make installcheck" runs them) against a server made for them in a
# temporary directory and removed after: no server need be running.  "make
# tempcheck REGRESS=sno_io" runs it.  The extension must be installed into
# PG_CONFIG's installation (make install); setup runs first, as always.
#
# The server runs as the postgres OS user when this runs as root (initdb
# refuses root), else as the user running it; on a socket in the temporary
# directory only (no TCP), so it meets no other server.  Its settings are
# initdb's (fsync on: the lease pool refuses a coordinator without it,
# which pg_regress's own --temp-instance turns off).  results/ and
# regression.diffs are left in the checkout, as by installcheck.
#   PG_CONFIG   the installation (default: pg_config on PATH)
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
PG_CONFIG=${PG_CONFIG:-pg_config}
bin=$("$PG_CONFIG" --bindir)
dir=$(mktemp -d "${TMPDIR:-/tmp}/uid-tempcheck.XXXXXX")
if [ "$(id -u)" -eq 0 ]; then
	srv=(runuser -u postgres --)
	chown postgres: "$dir"
else
	srv=()
fi
stop() {
	[ ! -f "$dir/data/postmaster.pid" ] ||
		"${srv[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null || true
	rm -rf "$dir"
}
trap stop EXIT
"${srv[@]}" "$bin/initdb" -D "$dir/data" -A trust -U postgres --no-sync >/dev/null
if ! "${srv[@]}" "$bin/pg_ctl" -D "$dir/data" -w -l "$dir/server.log" \
	-o "-p 5432 -k $dir -c listen_addresses=''" start >/dev/null; then
	cat "$dir/server.log" >&2
	exit 1
fi
make -C "$src" -s installcheck PG_CONFIG="$PG_CONFIG" PGHOST="$dir" PGPORT=5432 PGUSER=postgres \
	${1:+REGRESS="$*"}
