#!/usr/bin/env bash
# test/package.sh: the Debian package, from build to purge.
#
# Builds postgresql-15-uid from this checkout with Debian's tooling
# (dpkg-buildpackage; debian/rules runs pg_buildext), in a scratch copy, and
# checks the package: its version is uid.control's, and it holds what
# `make install` installs (the library, the control file, the install script,
# every frozen script of src/upgrade, and any program the Makefile installs).
# Then installs it the way a user would, into a fresh Debian 12 root made by
# debootstrap from the mirror this machine's apt uses: `dpkg -i` (which fails:
# the root has no PostgreSQL), `apt-get -f install` (which brings
# postgresql-15 from the mirror), a cluster, CREATE EXTENSION, one ID of each
# type, an update from the oldest released version, DROP EXTENSION; then
# `apt-get purge` and checks that no file of the package is left and that the
# server no longer offers the extension.
#
# Needs root (chroot, mounts); run as another user it re-runs itself with sudo.
# Installs what it needs with apt-get (build-essential, debhelper, dpkg-dev,
# postgresql-server-dev-all, debootstrap).  The debootstrap result is kept as
# a tarball under UID_PG_CACHE/debootstrap (made again after 30 days or when
# the mirror changes); each run unpacks a fresh root from it.  /proc,
# /dev/shm and a private devpts are mounted in the root while it is used and
# unmounted on every exit.  Any failing step stops the test with its output.
#
# With UID_PACKAGE_HERE=1 it works on this system instead, which must be a
# throwaway one (test/root-check.sh sets it inside 19's Debian sid root, which
# has 18 and 19 with their headers): dpkg-buildpackage builds
# postgresql-N-uid for every major whose headers are installed
# (PG_SUPPORTED_VERSIONS=installed; here 18 and 19), and for each: the same
# checks of version and contents, then `apt-get install` of the .deb here, a
# cluster, the same use, purge and checks.
#
# Settings (environment):
#   UID_SCRATCH   scratch directory; this test works in UID_SCRATCH/package
#                 (default /tmp/uid-scratch)
#   UID_PG_CACHE  where the debootstrap tarball is kept (default /var/cache/uid-pg)
#   UID_KEEP=1    keep the Debian root after the run (unmounted) to look into
set -euo pipefail
umask 022

MAJOR=15
HERE=${UID_PACKAGE_HERE:-0}
# What it installs on this machine when missing (host_packages); --packages
# prints it, for test/check.sh to install before stages run beside each other.
HOST_PACKAGES="git build-essential debhelper dpkg-dev postgresql-server-dev-all postgresql-server-dev-$MAJOR debootstrap"
[ "$HERE" = 0 ] || HOST_PACKAGES="build-essential debhelper dpkg-dev postgresql-server-dev-all"
if [ "${1:-}" = --packages ]; then echo "$HOST_PACKAGES"; exit 0; fi

if [ "$(id -u)" -ne 0 ]; then
	command -v sudo >/dev/null || { echo "package.sh: run as root or install sudo" >&2; exit 1; }
	exec sudo env UID_SCRATCH="${UID_SCRATCH:-}" UID_PG_CACHE="${UID_PG_CACHE:-}" UID_KEEP="${UID_KEEP:-}" \
		UID_PACKAGE_HERE="${UID_PACKAGE_HERE:-}" bash "$0" "$@"
fi
# Every major whose server headers are installed (debian/pgversions: all).
export PG_SUPPORTED_VERSIONS=installed

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
WORK=${UID_SCRATCH:-/tmp/uid-scratch}/package
CACHE=${UID_PG_CACHE:-/var/cache/uid-pg}
SUITE=bookworm
ARCH=$(dpkg --print-architecture)
PKG=postgresql-$MAJOR-uid
ROOT=$WORK/root
LOGS=$WORK/logs
# root_tarball sets it too, but in a step's subshell
TARBALL=$CACHE/debootstrap/$SUITE-minbase-$ARCH.tar.gz

T0=$SECONDS
say() { printf '\n== %s\n' "$*"; }
source "$(dirname "$0")/steps.sh" # die, step, descendants

source "$(dirname "$0")/root.sh" # in_root, release_root, root_tarball, unpack_root
if [ "$HERE" = 1 ]; then
	# This system is the root.
	ROOT=
	# psql --cluster, not a cluster of the caller's environment
	in_root() { env -u PGHOST -u PGPORT -u PGUSER -u PGDATABASE DEBIAN_FRONTEND=noninteractive "$@"; }
fi
root_psql() {
	in_root runuser -u postgres -- psql --cluster "$MAJOR/uidtest" -X -q -v ON_ERROR_STOP=1 -At "$@"
}

# ---------------------------------------------------------------- cleanup

# Before release_root kills what runs in the root: the test's cluster.
root_stop() {
	in_root pg_ctlcluster "$MAJOR" uidtest stop -m fast >/dev/null 2>&1
}

cleanup() {
	local rc=$?
	if [ -n "$STEP_PID" ]; then
		# the interrupted step and what it started
		kill $(descendants "$STEP_PID") "$STEP_PID" 2>/dev/null || true
		wait "$STEP_PID" 2>/dev/null || true
	fi
	trap - EXIT INT TERM
	if [ "$HERE" = 1 ]; then
		root_stop || true
	else
		release_root || rc=1
	fi
	# --one-file-system: never into a mount that survived
	if [ "$HERE" != 1 ] && [ "${UID_KEEP:-0}" != 1 ] && [ -z "$(mounted_under "$ROOT")" ]; then
		rm -rf --one-file-system "$ROOT"
	fi
	printf '\npackage.sh: %s in %d s (logs: %s)\n' "$([ $rc -eq 0 ] && echo passed || echo failed)" \
		$((SECONDS - T0)) "$LOGS"
	exit $rc
}

# ---------------------------------------------------------------- the host

host_packages() {
	local p missing=()
	for p in $HOST_PACKAGES; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
	done
	[ ${#missing[@]} -gt 0 ] || return 0
	echo "installing ${missing[*]}"
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=600 \
		--no-install-recommends "${missing[@]}"
}

# ---------------------------------------------------------------- build

copy_tree() {
	rm -rf "$WORK/tree" "$WORK/build" "$WORK/plain"
	copy_checkout "$SRC" "$WORK/tree"
	mkdir -p "$WORK/build" "$WORK/plain"
	cp -a "$WORK/tree" "$WORK/build/src"
	cp -a "$WORK/tree/." "$WORK/plain"
	ls -la "$WORK/tree"
}

build_deb() {
	(cd "$WORK/build/src" && dpkg-buildpackage -us -uc -b) || return 1
	ls -la "$WORK/build"
}

# What `make install` puts in place for MAJOR, to compare with the package.
make_install() {
	rm -rf "$WORK/install"
	mkdir -p "$WORK/install"
	# clean first: the tree may hold another major's build
	make -C "$WORK/plain" -s PG_CONFIG=/usr/lib/postgresql/$MAJOR/bin/pg_config clean all &&
		make -C "$WORK/plain" -s PG_CONFIG=/usr/lib/postgresql/$MAJOR/bin/pg_config \
			install DESTDIR="$WORK/install" &&
		(cd "$WORK/install" && find . ! -type d | sed 's|^\./|/|' | sort) >"$WORK/make-install.files"
	cat "$WORK/make-install.files"
}

check_deb() {
	local deb=$1 version upstream want f missing=0
	version=$(dpkg-deb -f "$deb" Version)
	upstream=${version%-*}
	want=$(sed -n "s/^default_version = '\(.*\)'/\1/p" "$SRC/uid.control")
	echo "package version $version, upstream $upstream; uid.control: $want"
	[ -n "$want" ] || { echo "no default_version in uid.control"; return 1; }
	[ "$upstream" = "$want" ] || { echo "the package's version $upstream is not uid.control's $want"; return 1; }
	dpkg-deb -c "$deb" | awk '{ print $6 }' | sed 's|^\./|/|' | grep -v '/$' | sort >"$WORK/deb.files"
	cat "$WORK/deb.files"
	# Named explicitly: the library, the control file, this version's script
	# and every frozen script of src/upgrade.
	want="/usr/lib/postgresql/$MAJOR/lib/uid.so /usr/share/postgresql/$MAJOR/extension/uid.control"
	want="$want /usr/share/postgresql/$MAJOR/extension/uid--$upstream.sql"
	for f in "$SRC"/src/upgrade/uid--*.sql; do
		want="$want /usr/share/postgresql/$MAJOR/extension/$(basename "$f")"
	done
	for f in $want; do
		grep -qxF "$f" "$WORK/deb.files" || { echo "missing from the package: $f"; missing=1; }
	done
	# And exactly what `make install` installs (uid-inspect too, once the
	# Makefile installs it), plus Debian's documentation.
	if ! diff -u "$WORK/make-install.files" <(grep -v "^/usr/share/doc/$PKG/" "$WORK/deb.files"); then
		echo "the package's files differ from make install's (- make install, + package)"
		missing=1
	fi
	if grep -q '/bin/' "$WORK/make-install.files"; then
		echo "programs: $(grep '/bin/' "$WORK/deb.files" | tr '\n' ' ')"
		if grep '/bin/' "$WORK/deb.files" | grep -v "^/usr/lib/postgresql/$MAJOR/bin/"; then
			echo "a program outside /usr/lib/postgresql/$MAJOR/bin"
			missing=1
		fi
	fi
	[ $missing -eq 0 ]
}

# ---------------------------------------------------------------- the root

install_deb() {
	local deb=$1 out
	cp "$deb" "$ROOT/tmp/"
	# Expected to fail: the root has no PostgreSQL.
	if out=$(in_root dpkg -i "/tmp/$(basename "$deb")" 2>&1); then
		echo "$out"
		echo "dpkg -i succeeded in a root without PostgreSQL: the package declares no dependency on it"
		return 1
	fi
	echo "$out"
	grep -q "dependency problems" <<<"$out" || { echo "dpkg -i failed, but not on dependencies"; return 1; }
	echo "(dpkg -i failed on dependencies, as expected)"
	in_root apt-get -f install -y --no-install-recommends
	out=$(in_root dpkg-query -W -f='${Status} ${Version}' "$PKG")
	echo "$PKG: $out"
	[[ $out == "install ok installed "* ]] || { echo "$PKG is not installed"; return 1; }
	in_root dpkg-query -W -f='${Package} ${Version}\n' "postgresql-$MAJOR"
}

# Here: the server is installed, so apt-get installs the .deb at once.
install_here() {
	local deb=$1 out
	cp "$deb" /tmp/
	apt-get install -y --no-install-recommends "/tmp/$(basename "$deb")"
	out=$(dpkg-query -W -f='${Status} ${Version}' "$PKG")
	echo "$PKG: $out"
	[[ $out == "install ok installed "* ]] || { echo "$PKG is not installed"; return 1; }
	dpkg-query -W -f='${Package} ${Version}\n' "postgresql-$MAJOR"
}

start_cluster() {
	in_root pg_createcluster "$MAJOR" uidtest -- --no-sync
	# No TCP: the root shares this machine's network; the socket lives in
	# the root's /var/run/postgresql.
	echo "listen_addresses = ''" >"$ROOT/etc/postgresql/$MAJOR/uidtest/conf.d/uidtest.conf"
	in_root pg_ctlcluster "$MAJOR" uidtest start
	in_root pg_lsclusters
	[ "$(root_psql -c 'SHOW listen_addresses')" = "" ] || { echo "the cluster listens on TCP"; return 1; }
}

use_extension() {
	local version oldest out
	version=$(sed -n "s/^default_version = '\(.*\)'/\1/p" "$SRC/uid.control")
	# the oldest released version, from the frozen install scripts
	oldest=$(ls "$SRC"/src/upgrade/ | sed -n 's/^uid--\([0-9.]*\)\.sql$/\1/p' | sort -V | head -n 1)
	out=$(root_psql -c "SELECT name, default_version FROM pg_available_extensions WHERE name = 'uid'")
	echo "available: $out"
	[ "$out" = "uid|$version" ] || { echo "expected uid|$version"; return 1; }
	root_psql <<-EOF
		CREATE EXTENSION uid;
		SELECT 'installed ' || extversion FROM pg_extension WHERE extname = 'uid';
		SELECT 'sno          ' || sno_new();
		SELECT 'muid         ' || muid_new();
		SELECT 'snowflake_si ' || snowflake_si_new();
		SELECT 'revts8       ' || revts8_new();
		SELECT 'uid60        ' || uid60_new();
		DO \$\$BEGIN
			IF (SELECT extversion FROM pg_extension WHERE extname = 'uid') <> '$version' THEN
				RAISE EXCEPTION 'CREATE EXTENSION installed another version than $version';
			END IF;
			IF sno_new() IS NULL OR muid_new() IS NULL OR snowflake_si_new() IS NULL
				OR revts8_new() IS NULL OR uid60_new() IS NULL THEN
				RAISE EXCEPTION 'a generator returned NULL';
			END IF;
		END\$\$;
		DROP EXTENSION uid;
	EOF
	# the upgrade scripts are in the package and lead to this version
	if [ -n "$oldest" ] && [ "$oldest" != "$version" ]; then
		root_psql <<-EOF
			CREATE EXTENSION uid VERSION '$oldest';
			ALTER EXTENSION uid UPDATE;
			SELECT 'updated $oldest to ' || extversion FROM pg_extension WHERE extname = 'uid';
			DO \$\$BEGIN
				IF (SELECT extversion FROM pg_extension WHERE extname = 'uid') <> '$version' THEN
					RAISE EXCEPTION 'ALTER EXTENSION uid UPDATE from $oldest did not reach $version';
				END IF;
			END\$\$;
			DROP EXTENSION uid;
		EOF
	fi
}

# Each program the package installs runs in the root (its libraries are
# there): --help exits 0.
run_programs() {
	local p
	for p in $(in_root dpkg -L "$PKG" | grep '/bin/'); do
		[ -f "$ROOT$p" ] || continue
		echo "$p --help:"
		in_root "$p" --help || { echo "$p --help failed (exit $?)"; return 1; }
	done
	return 0
}

purge_deb() {
	local f left=0 owner out
	in_root dpkg -L "$PKG" | sort >"$WORK/installed.list"
	in_root apt-get purge -y "$PKG"
	if in_root dpkg-query -W -f='${Status}\n' "$PKG" 2>/dev/null | grep -v 'not-installed'; then
		echo "$PKG is still known to dpkg after purge"
		left=1
	fi
	while read -r f; do
		[ -n "$f" ] && [ "$f" != "/." ] || continue
		if [ -d "$ROOT$f" ] && [ ! -L "$ROOT$f" ]; then
			# a directory may stay when another package has files in it
			if ! owner=$(in_root dpkg-query -S "$f" 2>/dev/null); then
				echo "left behind: directory $f, which no other package owns"
				left=1
			fi
		elif [ -e "$ROOT$f" ] || [ -L "$ROOT$f" ]; then
			echo "left behind: $f"
			left=1
		fi
	done <"$WORK/installed.list"
	echo "$(wc -l <"$WORK/installed.list") paths of the package checked"
	out=$(root_psql -c "SELECT count(*) FROM pg_available_extensions WHERE name = 'uid'")
	echo "pg_available_extensions rows for uid after purge: $out"
	[ "$out" = 0 ] || { echo "the server still offers uid"; left=1; }
	[ $left -eq 0 ]
}

# ---------------------------------------------------------------- main

mkdir -p "$WORK"
# the real path: a chrooted process's /proc/PID/root names it so
WORK=$(realpath "$WORK") LOGS=$WORK/logs
[ "$HERE" = 1 ] || ROOT=$WORK/root
# one run at a time in WORK (a second waits)
exec 9>"$WORK.lock"
flock 9
rm -rf "$LOGS"
mkdir -p "$LOGS"
trap cleanup EXIT
trap 'exit 130' INT TERM

if [ "$HERE" = 1 ]; then
	say "Debian packages of every installed major: build, install here, use, purge"
	step "packages (debhelper, pg_buildext)" host_packages
	step "copy the checkout to $WORK/build/src" copy_tree
	# debian/control is made for Debian 12's 15: for other majors, again.
	step "pg_buildext updatecontrol (debian/control for these majors)" \
		sh -c "cd '$WORK/build/src' && pg_buildext updatecontrol && grep '^Package:' debian/control"
	step "dpkg-buildpackage -us -uc -b (PG_SUPPORTED_VERSIONS=installed)" build_deb
	built=$(cd "$WORK/build" && ls postgresql-*-uid_*_"$ARCH".deb 2>/dev/null | sed 's/^postgresql-\([0-9]*\)-uid_.*/\1/' | sort -n)
	want=$(/usr/share/postgresql-common/supported-versions | sort -n) # PG_SUPPORTED_VERSIONS=installed
	echo "built for: $(echo $built); server headers installed for: $(echo $want)"
	[ "$(echo $built)" = "$(echo $want)" ] || die "dpkg-buildpackage built for '$(echo $built)', not for every installed major ('$(echo $want)')"
	for MAJOR in $built; do
		PKG=postgresql-$MAJOR-uid
		DEB=$(ls "$WORK/build/${PKG}_"*"_$ARCH.deb" | head -n 1)
		say "$PKG"
		step "$MAJOR: make install into a directory (to compare)" make_install
		step "$MAJOR: package: version and contents" check_deb "$DEB"
		step "$MAJOR: apt-get install the .deb" install_here "$DEB"
		step "$MAJOR: cluster $MAJOR/uidtest" start_cluster
		step "$MAJOR: CREATE EXTENSION, one ID of each type, update, DROP" use_extension
		step "$MAJOR: programs of the package run" run_programs
		step "$MAJOR: apt-get purge: no file left, uid no longer available" purge_deb
		step "$MAJOR: drop the cluster" pg_dropcluster --stop "$MAJOR" uidtest
	done
	exit 0
fi

say "Debian package $PKG: build, install into a fresh Debian 12 root, use, purge"
step "host packages (debhelper, pg_buildext, debootstrap)" host_packages
SOURCES=$(host_sources "$SUITE")
MIRROR=$(awk '$3 == "'$SUITE'" { print $2; exit }' <<<"$SOURCES")
[ -n "$MIRROR" ] || die "no '$SUITE' entry in this machine's apt sources (/etc/apt/sources.list{,.d})"
echo "mirror: $MIRROR"
step "copy the checkout to $WORK/build/src" copy_tree
step "dpkg-buildpackage -us -uc -b" build_deb
DEB=$(ls "$WORK/build/${PKG}_"*"_$ARCH.deb" 2>/dev/null | head -n 1)
[ -n "$DEB" ] || die "dpkg-buildpackage made no $PKG package"
echo "built: $DEB"
step "make install into a directory (to compare)" make_install
step "package: version and contents" check_deb "$DEB"
step "Debian $SUITE root (debootstrap, cached)" root_tarball "$SUITE-minbase" "$SUITE" "$MIRROR"
step "unpack a fresh root, mount /proc etc., apt-get update" unpack_root "$SOURCES"
step "dpkg -i (fails on dependencies), apt-get -f install" install_deb "$DEB"
step "cluster $MAJOR/uidtest in the root" start_cluster
step "CREATE EXTENSION, one ID of each type, update, DROP" use_extension
step "programs of the package run" run_programs
step "apt-get purge: no file left, uid no longer available" purge_deb
