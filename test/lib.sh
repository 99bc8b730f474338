# test/lib.sh: the set-up shared by test/demo.sh and test/check.sh.
# Sourced, not run.  Works as root (CI) and as a normal user with sudo.
#
# Settings (environment):
#   PG_MAJOR      one PostgreSQL major to use (check.sh: default all of UID_MATRIX;
#                 demo.sh: default 15)
#   UID_MATRIX    the majors check.sh tests (default "15 17 18 19")
#   UID_SCRATCH   scratch directory; major N builds the extension in a copy
#                 under UID_SCRATCH/N and runs its cluster there
#                 (default /tmp/uid-scratch)
#   UID_PORT      port of 15's throwaway cluster; major N's is UID_PORT + N - 15
#                 (default 54329: 15 54329, 17 54331, 18 54332)
#   UID_PG_CACHE  where test/pg-build.sh keeps the PostgreSQL builds of the
#                 majors Debian 12 has no packages of (default /var/cache/uid-pg)
#
# Majors in PG_PACKAGED (15; UID_PG_PACKAGED) come from Debian's packages
# (postgresql-N, postgresql-server-dev-N, in /usr/lib/postgresql/N); majors in
# PG_ROOTED (19; UID_ROOTED) from Debian's packages in a Debian sid root, where
# check.sh runs its suites through test/root-check.sh (which sets
# UID_PG_PACKAGED=N inside); every other major from test/pg-build.sh, which
# builds it from source once into UID_PG_CACHE/N.

set -euo pipefail

UID_MATRIX=${UID_MATRIX:-15 17 18 19}
UID_SCRATCH=${UID_SCRATCH:-/tmp/uid-scratch}
UID_PORT=${UID_PORT:-54329}
UID_PG_CACHE=${UID_PG_CACHE:-/var/cache/uid-pg}
UID_SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PG_PACKAGED=${UID_PG_PACKAGED:-15}
PG_ROOTED=${UID_ROOTED-19}

say() { printf '\n== %s\n' "$*"; }

if [ "$(id -u)" -eq 0 ]; then
	SUDO=()
	as_pg() { runuser -u postgres -- "$@"; }
else
	command -v sudo >/dev/null || { echo "run as root or install sudo" >&2; exit 1; }
	SUDO=(sudo)
	as_pg() { sudo -u postgres -- "$@"; }
fi

# san_major N...: the major the sanitizer run uses by default: the newest of
# those given that is not a Debian 12 package (Debian 12's postgres hangs at
# start under the ASan runtime, test/sanitize.sh); empty if there is none.
# Inside 19's root, root-check.sh names 19 with UID_SAN_MAJOR.
san_major() {
	local m
	for m in "$@"; do packaged "$m" || echo "$m"; done | sort -n | tail -n 1
}

packaged() { case " $PG_PACKAGED " in *" $1 "*) return 0 ;; esac; return 1; }
rooted() {
	packaged "$1" && return 1
	case " $PG_ROOTED " in *" $1 "*) return 0 ;; esac
	return 1
}

# use_major N: point PG_BIN, PG_CONFIG, SCRATCH, BUILD, PGDATA_DIR and PORT at major N.
use_major() {
	case $1 in *[!0-9]* | "") echo "not a PostgreSQL major version: '$1'" >&2; exit 1 ;; esac
	PG_MAJOR=$1
	if packaged "$PG_MAJOR"; then
		PG_BIN=/usr/lib/postgresql/$PG_MAJOR/bin
	else
		PG_BIN=$UID_PG_CACHE/$PG_MAJOR/bin
	fi
	PG_CONFIG=$PG_BIN/pg_config
	SCRATCH=$UID_SCRATCH/$PG_MAJOR
	BUILD=$SCRATCH/build
	PGDATA_DIR=$SCRATCH/data
	PORT=$((UID_PORT + PG_MAJOR - 15))
}

# Debian packages: the packaged servers among the majors given, their headers,
# what the tests need.  (test/pg-build.sh installs what building the others needs.)
uid_packages() {
	local m
	for m in "$@"; do
		if packaged "$m"; then echo "postgresql-$m postgresql-server-dev-$m"; fi
		# pg_cron for TAP 034: Debian 12 packages it for its 15; the sid root's
		# experimental 19 has none ("Unable to locate package postgresql-19-cron")
		if packaged "$m" && [ "$m" = 15 ]; then echo "postgresql-15-cron"; fi
		if rooted "$m"; then echo "debootstrap"; fi
		# test/pg-build.sh's tools, here before its build runs beside others
		# (two apt-gets at once fail on dpkg's lock)
		if ! packaged "$m" && ! rooted "$m"; then echo "bison flex zlib1g-dev bzip2 xz-utils"; fi
	done
	echo "make gcc clang libclang-rt-dev libipc-run-perl faketime procps"
	# the client packages' tests (test/clients.sh): Debian's python3 drivers
	# and ORMs, pytest, venv and pip for the offline install
	echo "python3-psycopg python3-psycopg2 python3-asyncpg python3-sqlalchemy python3-django"
	echo "python3-pytest python3-venv python3-pip python3-setuptools"
	# and Go's: the compiler, pgx v4 and lib/pq, from /usr/share/gocode
	echo "golang-go golang-github-jackc-pgx-v4-dev golang-github-lib-pq-dev"
	# and Java's: the JDK and pgJDBC
	echo "default-jdk-headless libpostgresql-jdbc-java"
	# and Rust's: cargo, and the crates it builds with offline
	echo "cargo librust-tokio-postgres-dev librust-postgres-types-dev librust-serde-json-dev"
	# (and Node.js 20.10+ with npm, which Debian 12 has not: its nodejs is
	# 18; ensure_node, below)
}

# install_packages MAJOR...
# install_missing PACKAGE...: those not installed yet, with apt-get.
install_missing() {
	local p missing=()
	for p in "$@"; do
		[[ " ${missing[*]-} " != *" $p "* ]] || continue # named twice
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
	done
	if [ ${#missing[@]} -gt 0 ]; then
		say "installing ${missing[*]}"
		"${SUDO[@]}" apt-get update -qq
		"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			--no-install-recommends "${missing[@]}" >/dev/null
	fi
}

install_packages() {
	# shellcheck disable=SC2046
	install_missing $(uid_packages "$@")
	# The servers run as postgres.  Debian's postgresql packages make the user;
	# a run with built majors alone makes it the same way.
	if ! id postgres >/dev/null 2>&1; then
		say "creating the postgres OS user"
		"${SUDO[@]}" useradd --system --user-group --create-home --home-dir /var/lib/postgresql \
			--shell /bin/bash --comment "PostgreSQL administrator" postgres
	fi
}

# node_new_enough: the node on PATH is Node.js 20.10 or later, and an npm runs
# (the client packages' tests: `node --test --test-concurrency` came in 20.10).
node_new_enough() {
	local v
	v=$(node --version 2>/dev/null) || return 1
	[[ $v =~ ^v([0-9]+)\.([0-9]+)\. ]] || return 1
	((BASH_REMATCH[1] > 20 || (BASH_REMATCH[1] == 20 && BASH_REMATCH[2] >= 10))) || return 1
	npm --version >/dev/null 2>&1
}

# ensure_node: a Node.js for test/clients.sh.  The one on PATH when it is new
# enough (NODE_BIN empty: nothing installed); else test/node.sh's, pinned,
# from the npm registry once into UID_PG_CACHE/node-VERSION and from there
# later (NODE_BIN: its bin directory, to put first on PATH).  Fails with
# test/node.sh's one line when it has none to give.
# shellcheck disable=SC2034 # NODE_BIN is the caller's
ensure_node() {
	NODE_BIN=
	if node_new_enough; then
		echo "Node.js $(node --version), npm $(npm --version): $(command -v node), on PATH"
		return 0
	fi
	NODE_BIN=$("${SUDO[@]}" env UID_PG_CACHE="$UID_PG_CACHE" PATH="$PATH" bash "$UID_SRC/test/node.sh") || return 1
}

# The current major's server: nothing to do for a packaged one; the others are
# built once into UID_PG_CACHE (a fresh machine takes about 4 minutes a major on 2 cores).
ensure_postgres() {
	if ! packaged "$PG_MAJOR"; then
		"${SUDO[@]}" env UID_PG_CACHE="$UID_PG_CACHE" UID_PG_CONFIGURE="${UID_PG_CONFIGURE:-}" \
			UID_PG_REBUILD="${UID_PG_REBUILD:-0}" ${UID_PG_JOBS:+UID_PG_JOBS="$UID_PG_JOBS"} \
			bash "$UID_SRC/test/pg-build.sh" "$PG_MAJOR" >/dev/null || return 1
	fi
	[ -x "$PG_CONFIG" ] || { echo "no $PG_CONFIG" >&2; return 1; }
}

pg_origin() {
	if packaged "$PG_MAJOR"; then
		echo "Debian package"
	elif rooted "$PG_MAJOR"; then
		echo "Debian package in a Debian sid root, cached in $UID_PG_CACHE/debootstrap"
	else
		echo "built from source, cached in $UID_PG_CACHE/$PG_MAJOR"
	fi
}

# "PostgreSQL 15.20", without Debian's "(Debian 15.20-0+deb12u1)".
pg_version() { "$PG_CONFIG" --version | sed 's/ (.*//'; }

# A copy of the sources owned by postgres: the tests write into the build tree
# and run as postgres (initdb refuses root).
copy_sources() {
	say "copying the sources to $BUILD"
	stop_cluster
	# The scratch layout before the matrix: one cluster in UID_SCRATCH/data.
	if [ -f "$UID_SCRATCH/data/postmaster.pid" ] && [ -x /usr/lib/postgresql/15/bin/pg_ctl ]; then
		as_pg /usr/lib/postgresql/15/bin/pg_ctl -D "$UID_SCRATCH/data" -m fast -w stop >/dev/null || true
	fi
	"${SUDO[@]}" rm -rf "$SCRATCH" "$UID_SCRATCH/build" "$UID_SCRATCH/data" &&
		copy_tree "$BUILD" &&
		"${SUDO[@]}" chown postgres: "$UID_SCRATCH" &&
		# this major's directory only: UID_SCRATCH also holds other majors'
		# and the Debian roots of root-check.sh and package.sh
		"${SUDO[@]}" chown -R postgres: "$SCRATCH"
}

# copy_tree DIR: the checkout's files, without what a build or a test
# leaves, copied into DIR (made if missing); its git history too (TAP 047
# builds the last release from it).
copy_tree() {
	"${SUDO[@]}" mkdir -p "$1" &&
		tar -C "$UID_SRC" --exclude='*.o' --exclude='*.so' \
			--exclude=./results --exclude=./tmp_check -cf - . | "${SUDO[@]}" tar -C "$1" -xf -
}

# Build the copy against the current major and install into its server.
build_and_install() {
	say "building in $BUILD against $(pg_version)"
	as_pg make -C "$BUILD" -s PG_CONFIG="$PG_CONFIG" clean all &&
		"${SUDO[@]}" make -C "$BUILD" -s PG_CONFIG="$PG_CONFIG" install
}

# private_installation DIR: a copy of the current major's installation (PG_CONFIG's)
# under DIR, each directory at its own path below DIR (PostgreSQL finds its
# share and lib directories relative to its binaries, so the copy runs from
# where it is, and its pg_config builds against it), without any uid files
# (check.sh installs uid into the original).  Sets COPY_BIN and COPY_CONFIG.
private_installation() {
	local dir=$1 cfg=$PG_CONFIG d dirs=() top=
	for d in "$($cfg --bindir)/.." "$($cfg --pkglibdir)" "$($cfg --sharedir)" "$($cfg --includedir)" \
		"$($cfg --pkgincludedir)"; do
		dirs+=("$(readlink -f "$d")")
	done
	"${SUDO[@]}" rm -rf "$dir"
	for d in $(printf '%s\n' "${dirs[@]}" | sort -u); do
		# a directory inside one copied already (a prefix installation)
		if [ -n "$top" ] && [[ $d == "$top"/* ]]; then continue; fi
		top=$d
		"${SUDO[@]}" mkdir -p "$dir$d"
		"${SUDO[@]}" cp -a "$d/." "$dir$d/"
	done
	COPY_BIN=$dir$($cfg --bindir)
	COPY_CONFIG=$COPY_BIN/pg_config
	"${SUDO[@]}" rm -rf "$("$COPY_CONFIG" --pkglibdir)"/uid.so "$("$COPY_CONFIG" --pkglibdir)"/bitcode/uid* \
		"$("$COPY_CONFIG" --sharedir)"/extension/uid[.-]* "$COPY_BIN/uid-inspect"
	"${SUDO[@]}" chown -R postgres: "$dir"
}

# init_cluster BIN DATA [INITDB-OPTION...]: a new cluster in DATA (a directory the postgres OS
# user may make), with BIN's initdb, trusting local connections.
init_cluster() {
	as_pg "$1/initdb" -D "$2" -A trust -U postgres --no-sync "${@:3}" >/dev/null
}

# start_server BIN DATA SOCKDIR PORT LOG [NAME=VALUE...]: starts DATA's server
# with BIN's pg_ctl on PORT, on a socket in SOCKDIR only (no TCP), its log in
# LOG, with the environment given (e.g. LD_PRELOAD); waits until it is up.
start_server() {
	local bin=$1 data=$2 sock=$3 port=$4 log=$5
	shift 5
	as_pg env "$@" "$bin/pg_ctl" -D "$data" -w -l "$log" \
		-o "-p $port -k $sock -c listen_addresses=''" start >/dev/null
}

# stop_server BIN DATA [MODE]: stops DATA's server if it runs (MODE: fast).
stop_server() {
	[ -f "$2/postmaster.pid" ] || return 0
	as_pg "$1/pg_ctl" -D "$2" -m "${3:-fast}" -w stop >/dev/null
}

# The current major's throwaway cluster, in SCRATCH; psql finds it from the environment.
start_cluster() {
	say "starting a throwaway $(pg_version) cluster in $PGDATA_DIR (port $PORT)"
	init_cluster "$PG_BIN" "$PGDATA_DIR" &&
		start_server "$PG_BIN" "$PGDATA_DIR" "$SCRATCH" "$PORT" "$SCRATCH/server.log" || return 1
	export PGHOST=$SCRATCH PGPORT=$PORT PGUSER=postgres PGDATABASE=postgres
}

stop_cluster() {
	[ -z "${PGDATA_DIR:-}" ] || stop_server "$PG_BIN" "$PGDATA_DIR" || true
}

uid_psql() {
	as_pg env PGHOST="$PGHOST" PGPORT="$PGPORT" "$PG_BIN/psql" -X -U postgres "$@"
}

faketime_lib() {
	dpkg -L libfaketime 2>/dev/null | grep '/libfaketime.so.1$' | head -n 1
}
