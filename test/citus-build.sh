#!/usr/bin/env bash
# test/citus-build.sh: builds Citus from its release sources into a copy of
# PostgreSQL 18's installation, once, for the Citus stage of the tests
# (test/citus/run.sh); later calls reuse the cached build.  Needs root.
#
# PostgreSQL 18 comes from test/pg-build.sh (built once into UID_PG_CACHE/18).
# A PostgreSQL installation is relocatable (it finds its share and lib
# directories from where its binaries are), so a copy of it, without any uid
# files, is a server of its own: Citus is installed there and not into
# UID_PG_CACHE/18, which the other stages test without Citus.
#
# Settings (environment):
#   UID_CITUS_TARBALL  the Citus release sources (default
#                      ../shared/citus/citus-14.0.1.tar.gz beside this
#                      checkout; Citus 14 supports PostgreSQL 16 to 18).
#                      Where it is not set and that file is absent, the
#                      release archive is fetched once from UID_CITUS_URL
#                      (default GitHub's archive of tag v14.0.1) into
#                      UID_PG_CACHE/src/citus-14.0.1.tar.gz and used only
#                      if its tar (uncompressed: the same bytes however it
#                      was compressed) has the sha256 pinned here, that of
#                      git archive --prefix=citus-14.0.1/ v14.0.1
#   UID_PG_CACHE       the cache of test/pg-build.sh (default /var/cache/uid-pg)
#   UID_CITUS_REBUILD=1  build again even if the cache has a build
#   UID_PG_JOBS        make -j (default: the number of CPUs)
#
# Cache layout (beside pg-build.sh's):
#   18-citus/                 PostgreSQL 18 with Citus installed; its
#                             uid-citus.stamp, written last, names the
#                             tarball's sha256 and 18's uid-pg.stamp: a
#                             changed tarball or a rebuilt 18 builds again,
#                             and so does a tree without it (an interrupted
#                             build)
#   18-citus.build.log        the last build's log
#   .lock                     taken while building, as by pg-build.sh
# Prints the prefix's pg_config on stdout; what it did on stderr.
set -euo pipefail
umask 022

UID_SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${UID_PG_CACHE:-/var/cache/uid-pg}
CITUS_VERSION=14.0.1
TARBALL=${UID_CITUS_TARBALL:-$UID_SRC/../shared/citus/citus-$CITUS_VERSION.tar.gz}
CITUS_URL=${UID_CITUS_URL:-https://github.com/citusdata/citus/archive/refs/tags/v$CITUS_VERSION.tar.gz}
CITUS_TAR_SHA256=9365b2262e01f688f7126867e297bda2ac7f8cd15ad1d5f2e15ad6af45ab0878
JOBS=${UID_PG_JOBS:-$(nproc)}
MAJOR=18
PREFIX=$CACHE/$MAJOR-citus
STAMP=$PREFIX/uid-citus.stamp
LOG=$CACHE/$MAJOR-citus.build.log
# Without libcurl: Citus uses it for nothing but its anonymous usage reports
# (off unless a packager turns them on), and the tests send nothing out.
# with_llvm=no: no JIT bitcode (18 is built without LLVM).
CONFIGURE_ARGS="--without-libcurl with_llvm=no"
BUILD_PACKAGES="gcc make liblz4-dev libzstd-dev libkrb5-dev libselinux1-dev libpam0g-dev libxslt1-dev
	libreadline-dev flex bison"

# --packages: what it installs when missing (test/check.sh installs it first)
if [ "${1:-}" = --packages ]; then echo $BUILD_PACKAGES; exit 0; fi
say() { printf '\n== %s\n' "$*" >&2; }
die() { printf 'citus-build.sh: %s\n' "$*" >&2; exit 1; }

[ "$(id -u)" -eq 0 ] || die "run as root (it installs build packages and writes $CACHE)"
# fetch_citus: the pinned release into the cache (once), checked; TARBALL
# names it.  One line and a failure where it cannot be had.
fetch_citus() {
	local dest=$CACHE/src/citus-$CITUS_VERSION.tar.gz tmp err sha
	if [ ! -f "$dest" ]; then
		mkdir -p "$CACHE/src"
		tmp=$(mktemp "$CACHE/src/.citus.XXXXXX")
		say "no Citus sources at $TARBALL: fetching $CITUS_URL"
		if ! err=$(curl -fsSL --retry 2 --connect-timeout 20 --max-time 300 -o "$tmp" "$CITUS_URL" 2>&1); then
			rm -f "$tmp"
			err=${err##*$'\n'} # curl's last line
			die "no Citus sources: $TARBALL is absent and $CITUS_URL could not be fetched (${err:-curl failed}); UID_CITUS_TARBALL names a copy"
		fi
		sha=$(gzip -dc "$tmp" 2>/dev/null | sha256sum | cut -d' ' -f1)
		if [ "$sha" != "$CITUS_TAR_SHA256" ]; then
			rm -f "$tmp"
			die "no Citus sources: $CITUS_URL is not Citus $CITUS_VERSION's release (its tar's sha256 is $sha, not $CITUS_TAR_SHA256)"
		fi
		mv "$tmp" "$dest"
	fi
	TARBALL=$dest
}
if [ ! -f "$TARBALL" ]; then
	[ -z "${UID_CITUS_TARBALL:-}" ] || die "no Citus sources at $TARBALL (UID_CITUS_TARBALL names them)"
	fetch_citus
fi
t0=$SECONDS

# What the build is made of: a build with other inputs is built again.
stamp_key() {
	echo "citus: $(basename "$TARBALL") sha256 $TAR_SHA"
	echo "configure: $CONFIGURE_ARGS"
	sed 's/^/postgresql /' "$CACHE/$MAJOR/uid-pg.stamp"
}
cached() {
	[ "${UID_CITUS_REBUILD:-0}" != 1 ] && [ -f "$STAMP" ] && [ -x "$PREFIX/bin/pg_config" ] &&
		[ -f "$("$PREFIX/bin/pg_config" --pkglibdir)/citus.so" ] &&
		[ "$(grep -v '^built:' "$STAMP")" = "$(stamp_key)" ]
}

build_packages() {
	local p missing=()
	for p in $BUILD_PACKAGES; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
	done
	if [ ${#missing[@]} -gt 0 ]; then
		say "installing ${missing[*]}"
		apt-get update -qq
		# the lock's wait: test/package.sh may install beside (check.sh)
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=600 \
			--no-install-recommends "${missing[@]}" >/dev/null
	fi
}

build() {
	local work=$CACHE/build-$MAJOR-citus t1=$SECONDS cfg lib share
	say "building Citus from $(basename "$TARBALL") into $PREFIX, a copy of $CACHE/$MAJOR; log: $LOG"
	rm -rf "$PREFIX" "$work"
	mkdir -p "$PREFIX" "$work"
	cp -a "$CACHE/$MAJOR/." "$PREFIX/"
	# Without the uid of the stage that tests 18 (it may have installed it
	# there, or be installing it now): the Citus stage installs its own.
	cfg=$PREFIX/bin/pg_config
	lib=$("$cfg" --pkglibdir) share=$("$cfg" --sharedir)
	rm -rf "$lib"/uid.so "$lib"/bitcode/uid* "$share"/extension/uid[.-]* "$PREFIX/bin/uid-inspect"
	tar -C "$work" --strip-components=1 -xzf "$TARBALL"
	if ! (cd "$work" && ./configure PG_CONFIG="$cfg" $CONFIGURE_ARGS && make -j"$JOBS" && make install) \
		>"$LOG" 2>&1; then
		tail -n 40 "$LOG" >&2
		die "building Citus failed; the whole log is $LOG"
	fi
	[ -f "$lib/citus.so" ] || die "no citus.so in $lib after make install; see $LOG"
	# The tests run as postgres: the tree must be readable whatever the umask was.
	chmod -R a+rX "$PREFIX"
	{
		stamp_key
		echo "built: $(date -u '+%Y-%m-%d %H:%M:%S UTC') in $((SECONDS - t1)) s"
	} >"$STAMP"
	rm -rf "$work"
	say "built Citus $(sed -n "s/^default_version = '\(.*\)'/\1/p" "$share/extension/citus.control")" \
		"in $((SECONDS - t1)) s: $cfg"
}

# PostgreSQL 18 first: pg-build.sh takes the cache's lock itself.
env UID_PG_CACHE="$CACHE" bash "$UID_SRC/test/pg-build.sh" "$MAJOR" >/dev/null
TAR_SHA=$(sha256sum "$TARBALL" | cut -d' ' -f1)
if cached; then
	say "Citus: cached in $PREFIX ($(sed -n 1p "$STAMP"); $((SECONDS - t0)) s)"
else
	build_packages
	exec 9>"$CACHE/.lock"
	# Wait for a concurrent build; then it may be there already.
	flock 9
	if cached; then
		say "Citus: built meanwhile by another run in $PREFIX"
	else
		build
	fi
	flock -u 9
	say "Citus: ready in $((SECONDS - t0)) s"
fi
echo "$PREFIX/bin/pg_config"
