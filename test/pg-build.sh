#!/usr/bin/env bash
# test/pg-build.sh MAJOR...: builds PostgreSQL MAJOR from source into a cache
# that survives re-runs, once; later calls reuse the cached installation.
# Used by test/lib.sh for the majors Debian 12 has no packages of (17, 18);
# run it by hand to get a pg_config to compile against.  Needs root.
#
# Source: the Debian source package postgresql-MAJOR (its upstream tarball,
# without Debian's patches), from deb.debian.org's trixie and sid suites
# through a private apt configuration under the cache: the machine's own apt
# sources and lists are neither read for this nor changed.  When the mirror's
# Release file of a suite is past its validity date, the update goes on
# without the date check, signatures checked, and says so (test/apt.sh).
#
# Settings (environment):
#   UID_PG_CACHE      the cache (default /var/cache/uid-pg); MAJOR installs into
#                     $UID_PG_CACHE/MAJOR, with $UID_PG_CACHE/MAJOR/bin/pg_config
#   UID_PG_CONFIGURE  extra ./configure arguments (e.g. --enable-cassert); part
#                     of the stamp, so changing them rebuilds
#   UID_PG_REBUILD=1  build again even if the cache has a build
#   UID_PG_JOBS       make -j (default: the number of CPUs)
#
# Cache layout:
#   MAJOR/            the installation (prefix); MAJOR/uid-pg.stamp is written
#                     last and names the version and configure arguments: a
#                     tree without it (an interrupted build) is built again
#   MAJOR.build.log   the last build's log
#   src/MAJOR/        the downloaded source package (.dsc, tarballs)
#   apt/              the private apt configuration and lists
#   .lock             taken while building (concurrent runs wait)
set -euo pipefail
umask 022

CACHE=${UID_PG_CACHE:-/var/cache/uid-pg}
JOBS=${UID_PG_JOBS:-$(nproc)}
# Suites whose source packages hold postgresql-17 and postgresql-18.  Both are
# listed; apt takes the highest version either has.
SUITES="trixie sid"
MIRROR=http://deb.debian.org/debian
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
CONFIGURE_ARGS="--without-icu --without-readline --enable-tap-tests --with-zlib${UID_PG_CONFIGURE:+ $UID_PG_CONFIGURE}"

say() { printf '\n== %s\n' "$*" >&2; }
source "$(dirname "${BASH_SOURCE[0]}")/apt.sh" # apt_update
die() { printf 'pg-build.sh: %s\n' "$*" >&2; exit 1; }

[ $# -gt 0 ] || die "usage: pg-build.sh MAJOR..."
[ "$(id -u)" -eq 0 ] || die "run as root (it installs build packages and writes $CACHE)"

stamp_line() { printf 'configure: %s\n' "$CONFIGURE_ARGS"; }

# 0 if MAJOR's cached build is complete and made with today's arguments.
cached() {
	local stamp=$CACHE/$1/uid-pg.stamp
	[ "${UID_PG_REBUILD:-0}" != 1 ] && [ -f "$stamp" ] && [ -x "$CACHE/$1/bin/pg_config" ] &&
		grep -qxF "$(stamp_line)" "$stamp"
}

build_packages() {
	local p missing=()
	for p in gcc make bison flex perl libipc-run-perl zlib1g-dev bzip2 xz-utils; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
	done
	if [ ${#missing[@]} -gt 0 ]; then
		say "installing ${missing[*]}"
		apt-get update -qq
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
	fi
}

# apt-get with a private sources list, lists and caches under $CACHE/apt;
# after an update (apt_update), with the options it found necessary.
private_apt() {
	apt-get -q -o Dir::Etc::SourceList="$CACHE/apt/sources.list" -o Dir::Etc::SourceParts=/dev/null \
		-o Dir::State::Lists="$CACHE/apt/lists" -o Dir::Cache="$CACHE/apt/cache" \
		-o Dir::Etc::Preferences=/dev/null -o Dir::Etc::PreferencesParts=/dev/null \
		-o APT::Sandbox::User=root ${APT_DATE_OPTS[@]+"${APT_DATE_OPTS[@]}"} "$@"
}

private_apt_cache() {
	apt-cache -o Dir::Etc::SourceList="$CACHE/apt/sources.list" -o Dir::Etc::SourceParts=/dev/null \
		-o Dir::State::Lists="$CACHE/apt/lists" -o Dir::Cache="$CACHE/apt/cache" "$@"
}

apt_updated=0
fetch_source() {
	local major=$1 dir=$CACHE/src/$1
	if [ $apt_updated = 0 ]; then
		mkdir -p "$CACHE/apt/lists/partial" "$CACHE/apt/cache/archives/partial"
		: >"$CACHE/apt/sources.list"
		for s in $SUITES; do
			echo "deb-src [signed-by=$KEYRING] $MIRROR $s main" >>"$CACHE/apt/sources.list"
		done
		say "apt-get update (private: deb-src $SUITES)"
		apt_update private_apt || die "apt-get update failed (private: deb-src $SUITES)"
		apt_updated=1
	fi
	rm -rf "$dir"
	mkdir -p "$dir"
	say "downloading the source package postgresql-$major"
	(cd "$dir" && private_apt source --download-only "postgresql-$major" >&2) && return 0
	fetch_earlier "$major"
}

# The mirror's index can name a release whose files its pool does not have
# yet (seen: trixie's index at 17.12-0+deb13u1, the pool answering 404 while
# it still served 17.11-0+deb13u1).  Then: the earlier minor releases of the
# same major and Debian revision, newest first, from the same pool directory,
# each tarball checked against its .dsc.  The index no longer lists them, so
# apt's signature chain does not cover them: this is said on the way.
fetch_earlier() {
	local major=$1 dir=$CACHE/src/$1 index dirpath upstream rev minor v dsc f sum
	index=$(private_apt_cache showsrc "postgresql-$major" 2>/dev/null) || true
	v=$(sed -n 's/^Version: //p' <<<"$index" | sort -V | tail -n 1)
	dirpath=$(sed -n 's/^Directory: //p' <<<"$index" | head -n 1)
	[ -n "$v" ] && [ -n "$dirpath" ] || die "no postgresql-$major in the index of $SUITES"
	upstream=${v%%-*} rev=-${v#*-} minor=${upstream#*.}
	for minor in $(seq $((minor - 1)) -1 $((minor > 4 ? minor - 4 : 0))); do
		for r in "$rev" -1; do
			dsc="postgresql-${major}_$major.$minor$r.dsc"
			/usr/lib/apt/apt-helper download-file "$MIRROR/$dirpath/${dsc//+/%2b}" "$dir/$dsc" \
				>/dev/null 2>&1 || continue
			say "the index names $v, which the mirror does not serve; using $major.$minor$r" \
				"(from $MIRROR/$dirpath, not covered by the index's signature)"
			sed -n '/^Checksums-Sha256:/,/^[^ ]/s/^ \([0-9a-f]\{64\}\) [0-9]* \(.*\)$/\1 \2/p' "$dir/$dsc" |
				while read -r sum f; do
					/usr/lib/apt/apt-helper download-file "$MIRROR/$dirpath/${f//+/%2b}" "$dir/$f" \
						"SHA256:$sum" >&2 || exit 1
				done && return 0
			die "could not download the files of $dsc"
		done
	done
	die "neither postgresql-$major $v nor the four minor releases before it could be downloaded"
}

build() {
	local major=$1 prefix=$CACHE/$1 work=$CACHE/build-$1 log=$CACHE/$1.build.log
	local t0=$SECONDS dsc version orig
	fetch_source "$major"
	dsc=$(ls "$CACHE/src/$major"/postgresql-"$major"_*.dsc)
	version=$(sed -n 's/^Version: //p' "$dsc")
	orig=$(ls "$CACHE/src/$major"/postgresql-"$major"_*.orig.tar.*)
	say "building PostgreSQL $major from $(basename "$orig") (Debian $version) into $prefix; log: $log"
	rm -rf "$work" "$prefix"
	mkdir -p "$work"
	tar -C "$work" --strip-components=1 -xf "$orig"
	if ! (cd "$work" && ./configure --prefix="$prefix" $CONFIGURE_ARGS &&
		make -j"$JOBS" && make install) >"$log" 2>&1; then
		tail -n 40 "$log" >&2
		die "building PostgreSQL $major failed; the whole log is $log"
	fi
	# The tests run as postgres: the tree must be readable whatever the umask was.
	chmod -R a+rX "$prefix"
	local pgxs
	pgxs=$("$prefix/bin/pg_config" --pgxs) # <pgxs>/src/makefiles/pgxs.mk
	pgxs=${pgxs%/src/makefiles/pgxs.mk}
	[ -f "$pgxs/src/test/perl/PostgreSQL/Test/Cluster.pm" ] ||
		die "$prefix has no PostgreSQL::Test::Cluster under $pgxs/src/test/perl (TAP tests not installed)"
	[ -x "$pgxs/src/test/regress/pg_regress" ] || die "$prefix has no pg_regress under $pgxs/src/test/regress"
	{
		echo "version: $("$prefix/bin/pg_config" --version) (Debian source postgresql-$major $version)"
		echo "built: $(date -u '+%Y-%m-%d %H:%M:%S UTC') in $((SECONDS - t0)) s"
		stamp_line
	} >"$prefix/uid-pg.stamp"
	rm -rf "$work"
	say "built $("$prefix/bin/pg_config" --version) in $((SECONDS - t0)) s: $prefix/bin/pg_config"
}

mkdir -p "$CACHE"
chmod 755 "$CACHE"
exec 9>"$CACHE/.lock"
for major in "$@"; do
	case $major in *[!0-9]* | "") die "not a major version: $major" ;; esac
	if cached "$major"; then continue; fi
	build_packages
	# Wait for a concurrent build; then it may be there already.
	flock 9
	if ! cached "$major"; then build "$major"; fi
	flock -u 9
done
for major in "$@"; do
	echo "$CACHE/$major/bin/pg_config"
done
