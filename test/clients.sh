#!/usr/bin/env bash
# test/clients.sh [SRC]: the client packages' tests against the server that
# PGHOST, PGPORT, PGUSER and PGDATABASE reach, with uid installed there
# (test/check.sh's stage "clients" runs it on 15 and 18 with the throwaway
# cluster of pg_regress; SRC, default this checkout, is where the packages
# are: check.sh gives its build copy).  Each part's line says when it
# started, in seconds from the start.
#
# test/clients.sh --prepare [SRC]: no server: compiles what the tests will
# compile again, into caches kept in UID_SCRATCH (default /tmp/uid-scratch):
# Go's build cache (go-cache: pgx and lib/pq), Rust's target directory
# (cargo-target: the 75 crates of tokio-postgres), and fills npm's cache with
# clients/js's packages.  check.sh runs it beside the others from the start,
# so that the clients stage on 15 runs the tests rather than the compilers;
# a run without it compiles the same, in the stage.  Go's cache and cargo's
# target directory are safe to share with a run at the same time (cargo
# waits on its lock).
#
#   clients/python   pytest over Debian's python3 and its drivers
#                    (python3-psycopg, -psycopg2, -asyncpg, -sqlalchemy,
#                    -django: test/lib.sh installs them), then the offline
#                    install the README gives: pip into a venv, no index
#   clients/js       npm ci (the npm registry: pg, postgres, drizzle-orm,
#                    kysely), npm test, then npm pack and the tarball
#                    installed into an empty project with --offline;
#                    they need Node.js 20.10 or later with npm: the one on
#                    PATH if it is new enough, else (Debian 12's nodejs is
#                    18) the one test/node.sh installs from the npm registry,
#                    pinned, into UID_PG_CACHE/node-VERSION once, put first
#                    on PATH here (test/lib.sh's ensure_node)
#   clients/go       go vet and go test with Debian's Go, pgx v4 and lib/pq
#                    (golang-go, golang-github-jackc-pgx-v4-dev,
#                    golang-github-lib-pq-dev: test/lib.sh installs them) in
#                    GOPATH mode over /usr/share/gocode, no module proxy
#   clients/java     its test.sh: javac and jar of Debian's JDK against
#                    Debian's pgJDBC (default-jdk-headless,
#                    libpostgresql-jdbc-java: test/lib.sh installs them),
#                    then its tests (PGHOST a directory: the socket there)
#   clients/rust     its test.sh: cargo build and cargo test, offline, with
#                    Debian's cargo and crates (cargo,
#                    librust-tokio-postgres-dev, librust-postgres-types-dev,
#                    librust-serde-json-dev: test/lib.sh installs them) as
#                    the registry; Debian's cargo even where another is
#                    first on PATH
#
# All of them read the shared vectors (clients/vectors/vectors.json, which make
# vectorcheck holds to the C codecs).  UID_TEST_REQUIRE_SERVER=1 makes a
# server test that cannot reach the server fail rather than skip.
set -euo pipefail
prepare=0
if [ "${1:-}" = --prepare ]; then prepare=1; shift; fi
SRC=$(cd "${1:-$(dirname "$0")/..}" && pwd)
export UID_TEST_REQUIRE_SERVER=1 UID_VECTORS="$SRC/clients/vectors/vectors.json"
[ $prepare = 1 ] || : "${PGHOST:?the server to test against: PGHOST, PGPORT, PGUSER, PGDATABASE}"
PY=/usr/bin/python3
section() { echo "== $SECONDS s: $*"; }

source "$(dirname "$0")/lib.sh" # ensure_node

# node --test --test-concurrency (npm test) came in Node 20.10; kysely 0.28 needs 20
ensure_node || exit 1
[ -z "$NODE_BIN" ] || PATH=$NODE_BIN:$PATH
# The official build of Node.js (test/node.sh's) trusts its own copy of
# Mozilla's CAs, Debian's nodejs the system's: npm ci reaches the registry
# with both, as a machine behind a TLS proxy needs (its CA is the system's).
if [ -z "${NODE_EXTRA_CA_CERTS:-}" ] && [ -f /etc/ssl/certs/ca-certificates.crt ]; then
	export NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
fi
echo "== Node.js $(node --version), npm $(npm --version): $(command -v node)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The caches kept between runs (--prepare fills them) where this user may
# write there, else temporary ones: Go's build cache, and cargo's target
# directory for the next major's run (cargo rebuilds what changed;
# UID_CARGO_TARGET set empty: test.sh's temporary one).
cache_dir() {
	local d=$UID_SCRATCH/$1
	if mkdir -p "$d" 2>/dev/null && [ -w "$d" ]; then echo "$d"; else echo "$tmp/$1"; fi
}
GOCACHE_DIR=$(cache_dir go-cache)
UID_CARGO_TARGET=${UID_CARGO_TARGET-$(cache_dir cargo-target)}
export UID_CARGO_TARGET
# Go in GOPATH mode over Debian's /usr/share/gocode, no module proxy
go_env() {
	mkdir -p "$tmp/gopath/src"
	[ -e "$tmp/gopath/src/pgkuid" ] || ln -s "$SRC/clients/go" "$tmp/gopath/src/pgkuid"
	export GO111MODULE=off GOFLAGS= GOPATH="$tmp/gopath:/usr/share/gocode" GOCACHE="$GOCACHE_DIR"
}
# Debian's cargo even where another is first on PATH
rust_test() { PATH=/usr/bin:$PATH sh "$SRC/clients/rust/test.sh" "$@"; }

if [ $prepare = 1 ]; then
	section "clients/go: go vet, go test -run '^$' (compiles into $GOCACHE_DIR)"
	(go_env && cd "$tmp/gopath/src/pgkuid" && go vet ./... && go test -count=1 -run '^$' ./...)
	section "clients/rust: cargo build, cargo test --no-run (into $UID_CARGO_TARGET)"
	rust_test --no-run
	section "clients/js: npm ci in a copy (fills npm's cache)"
	mkdir "$tmp/js"
	cp "$SRC/clients/js/package.json" "$SRC/clients/js/package-lock.json" "$tmp/js/"
	(cd "$tmp/js" && npm ci --no-audit --no-fund --loglevel=error --ignore-scripts)
	section "prepared"
	exit 0
fi

section "clients/python: pytest (PostgreSQL at $PGHOST:${PGPORT:-5432})"
(cd "$SRC/clients/python" && "$PY" -m pytest -q -p no:cacheprovider tests)

section "clients/python: pip install into a venv, offline; import pgkuid at the checkout's root"
"$PY" -m venv --system-site-packages "$tmp/venv"
"$tmp/venv/bin/pip" install -q --no-build-isolation --no-index "$SRC/clients/python"
# at the root, where a built checkout has uid.so: the venv's package, not a file of the checkout
(cd "$SRC" && "$tmp/venv/bin/python" -c 'import sys, pgkuid; print("import pgkuid:", pgkuid.__file__)
sys.exit(0 if pgkuid.__file__.startswith(sys.prefix + "/") else "not the installed package")')

section "clients/js: npm ci, npm test"
(cd "$SRC/clients/js" && npm ci --no-audit --no-fund --loglevel=error && npm test)

section "clients/js: npm pack, and its tarball installed into an empty project, offline"
mkdir "$tmp/app"
tarball=$(cd "$SRC/clients/js" && npm pack --silent --pack-destination "$tmp")
name=$(node -p "require('$SRC/clients/js/package.json').name")
(cd "$tmp/app" && npm init -y >/dev/null &&
	npm install --offline --no-audit --no-fund --loglevel=error "$tmp/$tarball" &&
	node --input-type=module -e "const m = await import('$name'); console.log('import $name:', Object.keys(m).sort().join(' '))")

section "clients/go: go vet, go test (GOPATH mode over Debian's /usr/share/gocode)"
(go_env && cd "$tmp/gopath/src/pgkuid" && go version && go vet ./... && go test -count=1 ./...)

section "clients/java: javac, jar, the tests (clients/java/test.sh)"
bash "$SRC/clients/java/test.sh"

section "clients/rust: cargo build, cargo test (offline, Debian's /usr/share/cargo/registry)"
rust_test
section "done"
