# test/root.sh: Debian roots made by debootstrap, kept as tarballs and
# unpacked fresh for each run.  Sourced by test/package.sh (a Debian 12 root
# to install the package into) and test/root-check.sh (a Debian sid root
# with PostgreSQL 19 from experimental); not run.  Needs root.
#
# The caller sets ROOT (where a root is unpacked: a real path, as a
# chrooted process's /proc/PID/root names it), CACHE (the tarballs live in
# CACHE/debootstrap) and ARCH, and may define root_stop, called before the
# processes of the root are killed (e.g. to stop a cluster cleanly).

source "$(dirname "${BASH_SOURCE[0]}")/apt.sh" # apt_update

# host_sources SUITE: this machine's apt entries of SUITE (and SUITE-updates,
# SUITE-security) as one-line "deb URI SUITE COMPONENTS", from sources.list,
# *.list and deb822 *.sources (the files apt reads).
host_sources() {
	local f suite=$1
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -f "$f" ] || continue
		sed -e 's/#.*//' -e 's/\[[^]]*\]//' "$f" | awk '$1 == "deb" && NF >= 4 { print }'
	done
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		awk '
			function flush(   i, j, u, s, nu, ns) {
				if (types ~ /(^| )deb( |$)/ && enabled != "no") {
					nu = split(uris, u, " "); ns = split(suites, s, " ")
					for (i = 1; i <= nu; i++) for (j = 1; j <= ns; j++)
						print "deb " u[i] " " s[j] " " comps
				}
				types = uris = suites = comps = enabled = ""; key = ""
			}
			/^#/ { next }
			/^[ \t]*$/ { flush(); next }
			/^[ \t]/ { val = $0; sub(/^[ \t]+/, "", val); add(key, val); next }
			{
				key = tolower($0); sub(/:.*/, "", key)
				val = $0; sub(/^[^:]*:[ \t]*/, "", val); add(key, val)
			}
			function add(k, v) {
				if (k == "types") types = types " " v
				else if (k == "uris") uris = uris " " v
				else if (k == "suites") suites = suites " " v
				else if (k == "components") comps = comps " " v
				else if (k == "enabled") enabled = tolower(v)
			}
			END { flush() }' "$f"
	done | awk -v s="$suite" '$3 == s || index($3, s "-") == 1' | tr -s ' \t' ' ' | sort -u
}

# copy_checkout SRC DEST: what the checkout SRC holds, as it is in the work
# tree (tracked files and new ones not ignored), into DEST; a tree without
# git, without build products.
copy_checkout() {
	local src=$1 dest=$2
	mkdir -p "$dest"
	if git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		(cd "$src" && git ls-files -z -co --exclude-standard | tar --null -T - -cf -) |
			tar -C "$dest" -xf -
	else
		tar -C "$src" --exclude=.git --exclude='*.o' --exclude='*.so' --exclude='*.bc' \
			--exclude=./results --exclude=./tmp_check -cf - . | tar -C "$dest" -xf -
	fi
}

# copy_history SRC DEST: the checkout's git history (.git), if it has one,
# into the copy DEST: TAP 047 builds the last release from it.
copy_history() {
	if [ -d "$1/.git" ]; then cp -a "$1/.git" "$2/.git"; fi
}

# Inside the root: a clean environment, apt without questions.
in_root() {
	chroot "$ROOT" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 \
		DEBIAN_FRONTEND=noninteractive ${http_proxy:+http_proxy="$http_proxy"} "$@"
}

mounted_under() { # mount points at or below $1, deepest first
	awk -v r="$1" '{ gsub(/\\040/, " ", $5); if ($5 == r || index($5, r "/") == 1) print $5 }' \
		/proc/self/mountinfo | sort -r
}

# The processes whose root is the Debian root or one below it (a root made
# inside it, as test/fresh-root.sh's check.sh makes 19's): the test's
# servers, anything a maintainer script left running.
root_pids() {
	local p r
	[ -d "$ROOT" ] || return 0
	for p in /proc/[0-9]*; do
		r=$(readlink "$p/root" 2>/dev/null) || continue
		[ "$r" = "$ROOT" ] || [[ $r == "$ROOT"/* ]] || continue
		echo "${p#/proc/}"
	done
	return 0
}

# Stops what runs in the root and unmounts what is mounted in it.
release_root() {
	local pids m left
	if [ -d "$ROOT/proc/self" ] && declare -F root_stop >/dev/null; then
		root_stop || true
	fi
	pids=$(root_pids)
	if [ -n "$pids" ]; then
		kill $pids 2>/dev/null || true
		sleep 2
		pids=$(root_pids)
		[ -z "$pids" ] || kill -9 $pids 2>/dev/null || true
	fi
	for m in $(mounted_under "$ROOT"); do
		umount "$m" 2>/dev/null || umount -l "$m" || true
	done
	left=$(mounted_under "$ROOT")
	if [ -n "$left" ]; then
		echo "could not unmount: $left" >&2
		return 1
	fi
}

# discard_root RC LABEL (in an exit trap): stops and unmounts the root,
# removes it (unless UID_KEEP=1), prints "LABEL: passed|failed in N s"
# (from T0) and exits with RC, or 1 if the root could not be released.
discard_root() {
	local rc=$1
	trap - EXIT INT TERM
	release_root || rc=1
	# --one-file-system: never into a mount that survived
	if [ "${UID_KEEP:-0}" != 1 ] && [ -z "$(mounted_under "$ROOT")" ]; then
		rm -rf --one-file-system "$ROOT"
	fi
	printf '\n%s: %s in %d s\n' "$2" "$([ "$rc" -eq 0 ] && echo passed || echo failed)" $((SECONDS - T0))
	exit "$rc"
}

# Mounts /proc, /dev/shm and a private devpts in the root, gives it this
# machine's resolver and hosts, and stops maintainer scripts from starting
# services.
mount_root() {
	cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
	cp /etc/hosts "$ROOT/etc/hosts"
	printf '#!/bin/sh\nexit 101\n' >"$ROOT/usr/sbin/policy-rc.d"
	chmod 755 "$ROOT/usr/sbin/policy-rc.d"
	mount -t proc proc "$ROOT/proc"
	mkdir -p "$ROOT/dev/shm"
	mount -t tmpfs -o mode=1777 shm "$ROOT/dev/shm"
	# a private instance of devpts (apt and dpkg log through a pty)
	mkdir -p "$ROOT/dev/pts"
	mount -t devpts -o newinstance,ptmxmode=0666,mode=620 devpts "$ROOT/dev/pts"
	rm -f "$ROOT/dev/ptmx"
	ln -s pts/ptmx "$ROOT/dev/ptmx"
	[ -c "$ROOT/dev/null" ] || { echo "the root has no /dev/null"; return 1; }
}

# set_sources SOURCES: the root's apt sources (one-line entries) and this
# machine's apt proxy, if it has one; then apt-get update, past an expired
# Release file (test/apt.sh), which the root's apt is then told to accept.
set_sources() {
	local proxy
	printf '%s\n' "$1" >"$ROOT/etc/apt/sources.list"
	echo "$ROOT/etc/apt/sources.list:"
	cat "$ROOT/etc/apt/sources.list"
	proxy=$(apt-config dump Acquire::http::Proxy | sed -n 's/^Acquire::http::Proxy "\(.*\)";$/\1/p')
	[ -z "$proxy" ] || echo "Acquire::http::Proxy \"$proxy\";" >"$ROOT/etc/apt/apt.conf.d/01proxy"
	apt_update in_root apt-get || return 1
	if [ ${#APT_DATE_OPTS[@]} -gt 0 ]; then
		echo 'Acquire::Check-Valid-Until "false";' >"$ROOT/etc/apt/apt.conf.d/01uid-expired-release"
	fi
}

# root_tarball NAME SUITE MIRROR [PREPARE [KEY]]: sets TARBALL to
# CACHE/debootstrap/NAME-ARCH.tar.gz (a caller that runs it in a subshell
# sets TARBALL to that itself, for unpack_root), a root made by `debootstrap
# --variant=minbase SUITE` from MIRROR, then (if given) set up by the
# function PREPARE, run with ROOT pointing at it and its mounts in place.
# Made again after 30 days, or when MIRROR or KEY (what PREPARE installs)
# changes.
root_tarball() {
	local name=$1 suite=$2 mirror=$3 prepare=${4:-} key=${5:-} stamp tmp want
	TARBALL=$CACHE/debootstrap/$name-$ARCH.tar.gz
	stamp=$TARBALL.stamp
	want=$(printf 'mirror: %s\nkey: %s' "$mirror" "$key")
	mkdir -p "$CACHE/debootstrap"
	exec 8>"$CACHE/debootstrap/.lock"
	flock 8
	if [ -f "$TARBALL" ] && [ -f "$stamp" ] && [ "$(head -n 2 "$stamp")" = "$want" ] &&
		[ -z "$(find "$TARBALL" -mtime +30)" ]; then
		echo "cached: $TARBALL ($(sed -n 's/^made: //p' "$stamp"))"
		flock -u 8
		return 0
	fi
	tmp=$CACHE/debootstrap/$name.tmp
	# a root left by an interrupted run: unmount what it left, and
	# --one-file-system keeps rm on its file system
	(ROOT=$tmp release_root) || return 1
	rm -rf --one-file-system "$tmp" "$TARBALL.tmp"
	echo "debootstrap --variant=minbase $suite from $mirror"
	debootstrap --variant=minbase --arch="$ARCH" "$suite" "$tmp" "$mirror" || {
		tail -n 50 "$tmp/debootstrap/debootstrap.log" 2>/dev/null
		return 1
	}
	if [ -n "$prepare" ]; then
		local rc=0
		(
			ROOT=$tmp
			mount_root && "$prepare"
		) || rc=$?
		(ROOT=$tmp release_root) || return 1
		[ $rc -eq 0 ] || return $rc
		rm -f "$tmp/etc/resolv.conf" "$tmp/etc/apt/apt.conf.d/01proxy"
		rm -f "$tmp/usr/sbin/policy-rc.d"
	fi
	rm -rf "$tmp"/var/cache/apt/archives/*.deb "$tmp"/var/lib/apt/lists/*_Packages
	tar -C "$tmp" --numeric-owner -cf - . | gzip -1 >"$TARBALL.tmp"
	mv "$TARBALL.tmp" "$TARBALL"
	printf '%s\nmade: %s\n' "$want" "$(date -u '+%Y-%m-%d %H:%M UTC')" >"$stamp"
	rm -rf --one-file-system "$tmp"
	ls -la "$TARBALL"
	flock -u 8
}

# unpack_root [SOURCES]: a fresh root at ROOT from TARBALL, mounted; with
# SOURCES, its apt sources set and updated (set_sources).
unpack_root() {
	release_root
	rm -rf --one-file-system "$ROOT"
	mkdir -p "$ROOT"
	tar -C "$ROOT" --numeric-owner -xzf "$TARBALL"
	mount_root || return 1
	[ $# -eq 0 ] || set_sources "$1"
}
