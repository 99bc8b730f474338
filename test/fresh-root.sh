#!/usr/bin/env bash
# test/fresh-root.sh COMMAND...: runs COMMAND in a copy of this checkout
# inside a fresh Debian 12 root: what a fresh machine gives the README's
# commands, with Debian's own apt configuration (its Release date checks on)
# and nothing installed beyond debootstrap's minbase.  Not run in CI; for
# checking by hand that set-up works from nothing, e.g.
#   bash test/fresh-root.sh bash test/check.sh --only unit 17
# (installs the packages, builds 17 from Debian's sources through
# test/pg-build.sh, runs the codec unit tests).  Majors in a Debian sid root
# (19) cannot run inside it.
#
# The root is unpacked from the Debian 12 tarball that test/package.sh
# caches in UID_PG_CACHE/debootstrap (made there if missing), its apt
# sources this machine's bookworm entries and nothing else, in
# UID_SCRATCH/fresh-root (default /tmp/uid-scratch); COMMAND runs as root in
# /uid, with the root's own UID_PG_CACHE and scratch directory.  The root
# is removed afterwards (UID_KEEP=1 keeps it, unmounted).  Exits with
# COMMAND's status.  Needs root (chroot, mounts).
set -euo pipefail
umask 022

if [ "$(id -u)" -ne 0 ]; then
	command -v sudo >/dev/null || { echo "fresh-root.sh: run as root or install sudo" >&2; exit 1; }
	exec sudo env UID_SCRATCH="${UID_SCRATCH:-}" UID_PG_CACHE="${UID_PG_CACHE:-}" UID_KEEP="${UID_KEEP:-}" \
		bash "$0" "$@"
fi
[ $# -ge 1 ] || { echo "usage: $0 COMMAND..." >&2; exit 2; }

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${UID_PG_CACHE:-/var/cache/uid-pg}
ARCH=$(dpkg --print-architecture)
mkdir -p "${UID_SCRATCH:-/tmp/uid-scratch}"
# the real path: a chrooted process's /proc/PID/root names it so
WORK=$(realpath "${UID_SCRATCH:-/tmp/uid-scratch}")/fresh-root
ROOT=$WORK/root
T0=$SECONDS

source "$(dirname "$0")/lib.sh"  # say
source "$(dirname "$0")/root.sh" # host_sources, root_tarball, unpack_root, in_root, release_root

cleanup() { discard_root $? "fresh-root.sh"; }

SOURCES=$(host_sources bookworm)
MIRROR=$(awk '{ print $2; exit }' <<<"$SOURCES")
[ -n "$MIRROR" ] || { echo "no bookworm entry in this machine's apt sources" >&2; exit 1; }
mkdir -p "$WORK"
exec 9>"$WORK.lock"
flock 9
trap cleanup EXIT
trap 'exit 130' INT TERM

say "a fresh Debian 12 root (the tarball test/package.sh caches)"
root_tarball bookworm-minbase bookworm "$MIRROR"
unpack_root
# Only the sources: no apt update, no date-check override (set_sources
# would add one for an expired Release file; a fresh machine has none).
printf '%s\n' "$SOURCES" >"$ROOT/etc/apt/sources.list"
cat "$ROOT/etc/apt/sources.list"
if grep -rqs 'Check-Valid-Until' "$ROOT/etc/apt/apt.conf" "$ROOT/etc/apt/apt.conf.d"; then
	echo "the root's apt configuration turns the Release date check off" >&2
	exit 1
fi
copy_checkout "$SRC" "$ROOT/uid"
say "in the root, in /uid: $*"
in_root bash -c 'cd /uid && "$@"' fresh-root "$@"
