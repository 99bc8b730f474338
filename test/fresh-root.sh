#!/usr/bin/env bash
# test/fresh-root.sh [--demo] [--check] [--only STAGE[,STAGE...]] [MAJOR...]
# test/fresh-root.sh --run COMMAND...
# The README's promise checked whole: its two commands, `bash test/demo.sh`
# and then `bash test/check.sh`, each run in full in a fresh Debian 12 root,
# as a new user runs them on a fresh machine.  Not run in CI; a maintainer
# runs it before each release (doc/testing.md has its last result).
#
# The root: debootstrap's minbase of bookworm (the tarball test/package.sh
# caches in UID_PG_CACHE/debootstrap, made there if missing), unpacked in
# UID_SCRATCH/fresh-root/root (default /tmp/uid-scratch) with Debian's own
# apt configuration (the Release date check on) and this machine's bookworm
# sources, resolver, hosts and local CA certificates
# (/usr/local/share/ca-certificates: a TLS proxy's, which this machine
# trusts), with /proc, /sys (read-only), a tmpfs /dev/shm and a private
# devpts mounted (test/root.sh's mount_root).  In it, what the README says a
# user starts with: `apt-get update` and `apt-get install git make sudo`,
# this checkout in /uid (its work tree as it is, new files included, and
# its .git) and ../shared beside it in /shared (the Citus tarball).  Then
# each command runs as root in /uid, with no standard input, its output
# also in UID_SCRATCH/fresh-root/logs/NAME.log; a line per command gives its
# time and exit status, in logs/summary too.  The root's own
# /var/cache/uid-pg starts empty: a whole run builds 17 and 18, makes 19's
# sid root inside it and fetches Node.js for the client tests.
#
#   --demo, --check   run only that command (default: both, demo first)
#   --only STAGES, MAJOR...  passed to check.sh (with the demo too unless
#                     --check), e.g. --check --only clients 15
#   --run COMMAND...  COMMAND instead, in the same root, e.g.
#                     --run bash test/check.sh --only unit 17
# PROVE_TESTS, PROVE_FLAGS, PG_MAJOR, UID_MATRIX, UID_SEAMS_RUNS,
# UID_SEAMS_SEEDS, UID_FUZZ_TIME, UID_SIM_SEEDS and UID_INT_SEED pass through.
# Exits 0 when every command passed.  The root is unmounted and removed on
# every exit (UID_KEEP=1 keeps it, unmounted).  Needs root (chroot, mounts);
# run as another user it re-runs itself with sudo.
set -euo pipefail
umask 022

INNER_ENV="PROVE_TESTS PROVE_FLAGS UID_TAP_JOBS PG_MAJOR UID_MATRIX UID_SEAMS_RUNS UID_SEAMS_SEEDS UID_FUZZ_TIME UID_SIM_SEEDS UID_INT_SEED"
if [ "$(id -u)" -ne 0 ]; then
	command -v sudo >/dev/null || { echo "fresh-root.sh: run as root or install sudo" >&2; exit 1; }
	envs=()
	for v in UID_SCRATCH UID_PG_CACHE UID_KEEP $INNER_ENV; do [ -z "${!v:-}" ] || envs+=("$v=${!v}"); done
	exec sudo env ${envs[@]+"${envs[@]}"} bash "$0" "$@"
fi

usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; }
picked=
check_args=()
command=()
while [ $# -gt 0 ]; do
	case $1 in
	--demo | --check) picked="$picked ${1#--}"; shift ;;
	--only)
		[ $# -ge 2 ] || { echo "--only needs stages (see test/check.sh --help)" >&2; exit 2; }
		check_args+=(--only "$2"); shift 2 ;;
	--only=*) check_args+=("$1"); shift ;;
	--run)
		[ $# -ge 2 ] || { echo "--run needs a command" >&2; exit 2; }
		shift; command=("$@"); break ;;
	-h | --help) usage; exit 0 ;;
	[0-9]*) check_args+=("$1"); shift ;;
	*) echo "unknown argument '$1' (see --help; a command goes after --run)" >&2; exit 2 ;;
	esac
done
if [ ${#command[@]} -gt 0 ]; then
	if [ -n "$picked" ] || [ ${#check_args[@]} -gt 0 ]; then echo "--run goes alone" >&2; exit 2; fi
	runs=(run)
elif [ -z "$picked" ]; then
	runs=(demo check)
elif [ "$picked" = " demo" ] && [ ${#check_args[@]} -gt 0 ]; then
	echo "--only and majors are check.sh's: give --check too, or leave them out" >&2
	exit 2
else
	read -ra runs <<<"$picked"
fi

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SHARED=$(dirname "$SRC")/shared
CACHE=${UID_PG_CACHE:-/var/cache/uid-pg}
ARCH=$(dpkg --print-architecture)
mkdir -p "${UID_SCRATCH:-/tmp/uid-scratch}"
# the real path: a chrooted process's /proc/PID/root names it so
WORK=$(realpath "${UID_SCRATCH:-/tmp/uid-scratch}")/fresh-root
ROOT=$WORK/root
LOGS=$WORK/logs
T0=$SECONDS

source "$(dirname "$0")/lib.sh"  # say
source "$(dirname "$0")/root.sh" # host_sources, root_tarball, unpack_root, copy_checkout, copy_history, in_root, discard_root

cleanup() { discard_root $? "fresh-root.sh"; }

SOURCES=$(host_sources bookworm)
MIRROR=$(awk '{ print $2; exit }' <<<"$SOURCES")
[ -n "$MIRROR" ] || { echo "no bookworm entry in this machine's apt sources" >&2; exit 1; }
mkdir -p "$WORK"
# one run at a time in WORK (a second waits)
exec 9>"$WORK.lock"
flock 9
trap cleanup EXIT
trap 'exit 130' INT TERM
rm -rf "$LOGS"
mkdir -p "$LOGS"

envs=(HOME=/root)
for v in $INNER_ENV; do [ -z "${!v:-}" ] || envs+=("$v=${!v}"); done
summary=()
# logged NAME COMMAND...: COMMAND in the root, in /uid, its output also in
# LOGS/NAME.log, then a line of its exit status and time (in LOGS/summary).
logged() {
	local name=$1 t0=$SECONDS rc=0 line
	shift
	say "$name: $* (in the root, in /uid; log: $LOGS/$name.log)"
	in_root env "${envs[@]}" bash -c 'cd /uid && exec "$@"' fresh-root "$@" </dev/null 2>&1 |
		tee "$LOGS/$name.log" || rc=$?
	line=$(printf '%-6s %s: %s, exit %d, %d s' "$([ $rc -eq 0 ] && echo ok || echo FAIL)" "$name" "$*" \
		$rc $((SECONDS - t0)))
	echo "$line" | tee -a "$LOGS/summary"
	summary+=("$line")
	return $rc
}

say "a fresh Debian 12 root (the tarball test/package.sh caches)"
root_tarball bookworm-minbase bookworm "$MIRROR"
unpack_root
mount -t sysfs -o ro,nosuid,nodev,noexec sysfs "$ROOT/sys"
# Only the sources: no date-check override (set_sources would add one for an
# expired Release file; a fresh machine has none).
printf '%s\n' "$SOURCES" >"$ROOT/etc/apt/sources.list"
cat "$ROOT/etc/apt/sources.list"
if grep -rqs 'Check-Valid-Until' "$ROOT/etc/apt/apt.conf" "$ROOT/etc/apt/apt.conf.d"; then
	echo "the root's apt configuration turns the Release date check off" >&2
	exit 1
fi
if compgen -G '/usr/local/share/ca-certificates/*' >/dev/null; then
	mkdir -p "$ROOT/usr/local/share/ca-certificates"
	cp -a /usr/local/share/ca-certificates/. "$ROOT/usr/local/share/ca-certificates/"
	echo "this machine's local CA certificates:" /usr/local/share/ca-certificates/*
fi
copy_checkout "$SRC" "$ROOT/uid"
copy_history "$SRC" "$ROOT/uid"
if [ -d "$SHARED" ]; then
	cp -a "$SHARED" "$ROOT/shared"
	echo "copied $SRC to /uid, $SHARED to /shared"
else
	echo "copied $SRC to /uid; no $SHARED beside it (the Citus stage needs its tarball)"
fi

rc=0
logged setup bash -c 'apt-get update -q && apt-get install -y -q git make sudo' || rc=$?
if [ $rc -eq 0 ]; then
	for r in "${runs[@]}"; do
		case $r in
		demo) logged demo bash test/demo.sh || rc=1 ;;
		check) logged check bash test/check.sh ${check_args[@]+"${check_args[@]}"} || rc=1 ;;
		run) logged command "${command[@]}" || rc=1 ;;
		esac
	done
fi
say "fresh-root.sh: each command in a fresh Debian 12 root (logs: $LOGS)"
printf '%s\n' "${summary[@]}"
exit $rc
