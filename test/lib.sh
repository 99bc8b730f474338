# test/lib.sh: the set-up shared by test/demo.sh and test/check.sh.
# Sourced, not run.  Works as root (CI) and as a normal user with sudo.
#
# Settings (environment):
#   PG_MAJOR     PostgreSQL major version to build against (default 15)
#   UID_SCRATCH  scratch directory for the build copy and the cluster (default /tmp/uid-scratch)
#   UID_PORT     port of the throwaway cluster (default 54329)

set -euo pipefail

PG_MAJOR=${PG_MAJOR:-15}
UID_SCRATCH=${UID_SCRATCH:-/tmp/uid-scratch}
UID_PORT=${UID_PORT:-54329}
UID_SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PG_BIN=/usr/lib/postgresql/$PG_MAJOR/bin
BUILD=$UID_SCRATCH/build
PGDATA_DIR=$UID_SCRATCH/data

say() { printf '\n== %s\n' "$*"; }

if [ "$(id -u)" -eq 0 ]; then
	SUDO=()
	as_pg() { runuser -u postgres -- "$@"; }
else
	command -v sudo >/dev/null || { echo "run as root or install sudo" >&2; exit 1; }
	SUDO=(sudo)
	as_pg() { sudo -u postgres -- "$@"; }
fi

# Debian packages: the server, its headers, what the tests need.
uid_packages() {
	echo "postgresql-$PG_MAJOR postgresql-server-dev-$PG_MAJOR make gcc clang libclang-rt-14-dev" \
		"libipc-run-perl faketime"
}

install_packages() {
	local missing=()
	for p in $(uid_packages) "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
	done
	if [ ${#missing[@]} -gt 0 ]; then
		say "installing ${missing[*]}"
		"${SUDO[@]}" apt-get update -qq
		"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			--no-install-recommends "${missing[@]}" >/dev/null
	fi
}

# Build in a copy owned by postgres: the tests write into the build tree and
# run as postgres (initdb refuses root).
build_and_install() {
	say "building in $BUILD"
	stop_cluster
	"${SUDO[@]}" rm -rf "$UID_SCRATCH"
	"${SUDO[@]}" mkdir -p "$BUILD"
	tar -C "$UID_SRC" --exclude=.git --exclude='*.o' --exclude='*.so' \
		--exclude=./results --exclude=./tmp_check -cf - . | "${SUDO[@]}" tar -C "$BUILD" -xf -
	"${SUDO[@]}" chown -R postgres: "$UID_SCRATCH"
	as_pg make -C "$BUILD" -s PG_CONFIG="$PG_BIN/pg_config" clean all
	"${SUDO[@]}" make -C "$BUILD" -s PG_CONFIG="$PG_BIN/pg_config" install
}

start_cluster() {
	say "starting a throwaway cluster in $PGDATA_DIR (port $UID_PORT)"
	as_pg "$PG_BIN/initdb" -D "$PGDATA_DIR" -A trust -U postgres --no-sync >/dev/null
	as_pg "$PG_BIN/pg_ctl" -D "$PGDATA_DIR" -w -l "$UID_SCRATCH/server.log" \
		-o "-p $UID_PORT -k $UID_SCRATCH -c listen_addresses=''" start >/dev/null
	export PGHOST=$UID_SCRATCH PGPORT=$UID_PORT PGUSER=postgres PGDATABASE=postgres
}

stop_cluster() {
	if [ -f "$PGDATA_DIR/postmaster.pid" ]; then
		as_pg "$PG_BIN/pg_ctl" -D "$PGDATA_DIR" -m fast -w stop >/dev/null || true
	fi
}

uid_psql() {
	as_pg env PGHOST="$PGHOST" PGPORT="$PGPORT" "$PG_BIN/psql" -X -U postgres "$@"
}

faketime_lib() {
	dpkg -L libfaketime 2>/dev/null | grep '/libfaketime.so.1$' | head -n 1
}
