#!/usr/bin/env bash
# Builds, installs and starts a throwaway cluster exactly as test/demo.sh does
# (PG_MAJOR, default 15),
# then runs bench/bench.sh against it with the given options (e.g. --write, or
# --out bench/results-pg18.md), and --use-features: the cluster is thrown away.
source "$(dirname "$0")/../test/lib.sh"
use_major "${PG_MAJOR:-15}"
UID_GIT_REV=$(git -C "$UID_SRC" rev-parse --short HEAD 2>/dev/null || echo '?')
[ -z "$(git -C "$UID_SRC" status --porcelain --untracked-files=no 2>/dev/null)" ] ||
	UID_GIT_REV="$UID_GIT_REV (working tree modified)"

# bench.sh runs as postgres in the build copy and writes its report there; the report
# (and chart) are copied to where --write or --out asked for them afterwards.
ARGS=() OUT=
while [ $# -gt 0 ]; do
	case $1 in
		--write) OUT=$UID_SRC/bench/results.md; shift ;;
		--out) OUT=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); shift 2 ;;
		*) ARGS+=("$1"); shift ;;
	esac
done
[ -z "$OUT" ] || ARGS+=(--out "$BUILD/bench/$(basename "$OUT")")

install_packages "$PG_MAJOR"
# the chart (bench.sh draws it when gnuplot is there)
if ! command -v gnuplot >/dev/null; then
	say "installing gnuplot-nox"
	"${SUDO[@]}" apt-get update -qq
	"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends gnuplot-nox >/dev/null
fi
ensure_postgres
copy_sources
build_and_install
start_cluster
trap stop_cluster EXIT
uid_psql -q -c "ALTER SYSTEM SET shared_buffers = '1GB'" >/dev/null
as_pg "$PG_BIN/pg_ctl" -D "$PGDATA_DIR" -w -l "$UID_SCRATCH/server.log" restart >/dev/null
# The peers bench.sh measures where the database has them: created here where this major
# has them installed (each extension's own `make install` with this PG_CONFIG).
for ext in pg_uuidv7 snowflake; do
	if [ "$(uid_psql -Atq -c "SELECT count(*) FROM pg_available_extensions WHERE name = '$ext'")" = 1 ]; then
		uid_psql -q -c "CREATE EXTENSION $ext" >/dev/null && say "peer: CREATE EXTENSION $ext"
	fi
done
say "benchmark"
as_pg env PGHOST="$PGHOST" PGPORT="$PGPORT" PGUSER=postgres PATH="$PG_BIN:$PATH" UID_GIT_REV="$UID_GIT_REV" \
	bash "$BUILD/bench/bench.sh" --use-features ${ARGS[@]+"${ARGS[@]}"}
if [ -n "$OUT" ]; then
	# write into the source tree, not the scratch copy
	cp "$BUILD/bench/$(basename "$OUT")" "$OUT"
	[ ! -f "$BUILD/bench/$(basename "${OUT%.md}").png" ] || cp "$BUILD/bench/$(basename "${OUT%.md}").png" "${OUT%.md}.png"
fi
