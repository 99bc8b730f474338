#!/usr/bin/env bash
# test/root-check.sh MAJOR [CHECK-ARGUMENTS...]
# test/root-check.sh MAJOR stress [ROUNDS]
# test/root-check.sh MAJOR bench [bench/majors.sh options]
# test/check.sh's suites (or test/stress.sh's rounds) on a
# PostgreSQL major that Debian 12 cannot run, from Debian's own packages in a
# Debian sid root: 19 (postgresql-19 is in Debian's experimental suite, and
# its packages need sid's C library).  That is also how Debian users meet
# 19.  test/check.sh runs this for every major in UID_ROOTED (default 19).
#
# The root: `debootstrap --variant=minbase sid` from the mirror this
# machine's apt uses, then postgresql-MAJOR, its client and server headers and
# libpq from experimental, sid's server and headers of the major before it
# (for pg_upgrade from it), and what the tests need (make, gcc, clang and its
# sanitizer runtime, IPC::Run, libfaketime), installed with apt-get.  Kept as
# a tarball under UID_PG_CACHE/debootstrap (made again after 30 days, or when
# the mirror or the package list changes; about 7 minutes on 2 cores); each
# run unpacks a fresh root from it.  The mirror's Release files may be past
# their validity date: apt goes on without the date check, signatures
# checked, and says so (test/apt.sh).
#
# Then it copies this checkout into the root and runs, inside it, as root:
# UID_PG_PACKAGED="MAJOR MAJOR-1" UID_UPGRADE_FROM_MAJOR=MAJOR-1
# test/check.sh CHECK-ARGUMENTS MAJOR (default arguments: --only regress,tap),
# which treats both as Debian packages, as it does 15 on Debian 12, and
# installs uid on MAJOR-1 too, for TAP 021's pg_upgrade from it; its
# package stage builds and tests the Debian packages of both in the root
# (UID_PACKAGE_HERE=1, test/package.sh).  With
# "stress": test/stress.sh ROUNDS on MAJOR (test/stress.sh runs this for
# PG_MAJOR=19).  With "bench": bench/majors-run.sh on MAJOR-1 and MAJOR side
# by side, its report copied back to this checkout's
# bench/results-majors.md.  PROVE_TESTS, PROVE_FLAGS, UID_TAP_JOBS, UID_SAN_TAP, UID_SEAMS_RUNS, UID_SEAMS_SEEDS, UID_FUZZ_TIME, UID_SIM_SECONDS, UID_SIM_SEEDS, UID_STRESS_ROUNDS and
# UID_STRESS_HOGS pass through.  Exits with the script's status.  /proc,
# /dev/shm and a private devpts are mounted in the root while it is used and
# unmounted on every exit.
#
# Needs root (chroot, mounts); run as another user it re-runs itself with sudo.
# Settings (environment):
#   UID_SCRATCH   the root is unpacked in UID_SCRATCH/root-MAJOR (default
#                 /tmp/uid-scratch)
#   UID_PG_CACHE  where the tarball is kept (default /var/cache/uid-pg)
#   UID_KEEP=1    keep the root after the run (unmounted) to look into
set -euo pipefail
umask 022

INNER_ENV="PROVE_TESTS PROVE_FLAGS UID_TAP_JOBS UID_SAN_TAP UID_SEAMS_RUNS UID_SEAMS_SEEDS UID_FUZZ_TIME UID_STRESS_ROUNDS UID_STRESS_HOGS UID_SIM_SECONDS UID_SIM_SEEDS"
PASS_ENV="UID_SCRATCH UID_PG_CACHE UID_KEEP $INNER_ENV"
if [ "$(id -u)" -ne 0 ]; then
	command -v sudo >/dev/null || { echo "root-check.sh: run as root or install sudo" >&2; exit 1; }
	envs=()
	for v in $PASS_ENV; do [ -z "${!v:-}" ] || envs+=("$v=${!v}"); done
	exec sudo env ${envs[@]+"${envs[@]}"} bash "$0" "$@"
fi

[ $# -ge 1 ] || { echo "usage: $0 MAJOR [CHECK-ARGUMENTS...]" >&2; exit 2; }
MAJOR=$1
shift
case $MAJOR in *[!0-9]* | "") echo "not a PostgreSQL major version: '$MAJOR'" >&2; exit 2 ;; esac
[ $# -gt 0 ] || set -- --only regress,tap
SCRIPT=check.sh
case $1 in
stress) SCRIPT=stress.sh; shift ;;
bench) SCRIPT=majors-run.sh; shift ;;
esac

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${UID_PG_CACHE:-/var/cache/uid-pg}
ARCH=$(dpkg --print-architecture)
mkdir -p "${UID_SCRATCH:-/tmp/uid-scratch}"
# the real path: a chrooted process's /proc/PID/root names it so
WORK=$(realpath "${UID_SCRATCH:-/tmp/uid-scratch}")/root-$MAJOR
ROOT=$WORK/root
T0=$SECONDS

source "$(dirname "$0")/lib.sh"  # say, uid_packages
source "$(dirname "$0")/root.sh" # in_root, release_root, root_tarball, unpack_root, host_sources, copy_checkout, copy_history

# From experimental: the server and its headers, and the libpq they were
# built with.  From sid: the major before it with its headers (TAP 021 runs
# pg_upgrade from it) and what the tests need (lib.sh's uid_packages).
OLD=$((MAJOR - 1))
PACKAGES="postgresql-$MAJOR/experimental postgresql-client-$MAJOR/experimental"
PACKAGES="$PACKAGES postgresql-server-dev-$MAJOR/experimental libpq-dev/experimental libpq5/experimental"
PACKAGES="$PACKAGES postgresql-$OLD postgresql-server-dev-$OLD $(uid_packages)"
# test/package.sh here: Debian's packaging tools
PACKAGES="$PACKAGES build-essential debhelper dpkg-dev postgresql-server-dev-all"

cleanup() { discard_root $? "root-check.sh $MAJOR"; }

# Run by root_tarball in the new root: the packages.
prepare() {
	set_sources "$(printf 'deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] %s %s main\n' \
		"$MIRROR" sid "$MIRROR" experimental)" || return 1
	# shellcheck disable=SC2086 # a list of packages
	in_root apt-get install -y -q --no-install-recommends $PACKAGES || return 1
	in_root "/usr/lib/postgresql/$MAJOR/bin/postgres" --version
}

MIRROR=$(host_sources bookworm | awk '{ print $2; exit }')
[ -n "$MIRROR" ] || { echo "no bookworm entry in this machine's apt sources (/etc/apt/sources.list{,.d})" >&2; exit 1; }

mkdir -p "$WORK"
# one run at a time in WORK (a second waits)
exec 9>"$WORK.lock"
flock 9
trap cleanup EXIT
trap 'exit 130' INT TERM

say "Debian sid root with PostgreSQL $MAJOR from experimental (cached in $CACHE/debootstrap)"
root_tarball "sid-pg$MAJOR" sid "$MIRROR" prepare "$PACKAGES"
say "unpacking a fresh root in $ROOT"
unpack_root
echo "PostgreSQL in the root: $(in_root "/usr/lib/postgresql/$MAJOR/bin/postgres" --version)"

copy_checkout "$SRC" "$ROOT/uid"
copy_history "$SRC" "$ROOT/uid"

envs=(UID_PG_PACKAGED="$MAJOR $OLD" UID_MATRIX="$MAJOR" PG_MAJOR="$MAJOR" UID_UPGRADE_FROM_MAJOR="$OLD"
	UID_PACKAGE_HERE=1 UID_SAN_MAJOR="$MAJOR")
for v in $INNER_ENV; do
	[ -z "${!v:-}" ] || envs+=("$v=${!v}")
done
if [ $SCRIPT = stress.sh ]; then
	say "test/stress.sh $*, in the root"
	in_root env "${envs[@]}" bash /uid/test/stress.sh "$@"
elif [ $SCRIPT = majors-run.sh ]; then
	say "bench/majors-run.sh $*, in the root: $OLD and $MAJOR side by side"
	rev=$(git -C "$SRC" rev-parse --short HEAD 2>/dev/null || echo '?')
	[ -z "$(git -C "$SRC" status --porcelain --untracked-files=no 2>/dev/null)" ] || rev="$rev (working tree modified)"
	in_root env "${envs[@]}" UID_BENCH_MAJORS="$OLD $MAJOR" UID_GIT_REV="$rev" bash /uid/bench/majors-run.sh "$@"
	cp "$ROOT/uid/bench/results-majors.md" "$SRC/bench/results-majors.md"
	say "wrote $SRC/bench/results-majors.md"
else
	say "test/check.sh $* $MAJOR, in the root"
	in_root env "${envs[@]}" bash /uid/test/check.sh "$@" "$MAJOR"
fi
