#!/usr/bin/env bash
# test/clients.sh [SRC]: the client packages' tests against the server that
# PGHOST, PGPORT, PGUSER and PGDATABASE reach, with uid installed there
# (test/check.sh's stage "clients" runs it on 15 and 18 with the throwaway
# cluster of pg_regress; SRC, default this checkout, is where the packages
# are: check.sh gives its build copy).
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
SRC=$(cd "${1:-$(dirname "$0")/..}" && pwd)
export UID_TEST_REQUIRE_SERVER=1 UID_VECTORS="$SRC/clients/vectors/vectors.json"
: "${PGHOST:?the server to test against: PGHOST, PGPORT, PGUSER, PGDATABASE}"
PY=/usr/bin/python3

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

echo "== clients/python: pytest (PostgreSQL at $PGHOST:${PGPORT:-5432})"
(cd "$SRC/clients/python" && "$PY" -m pytest -q -p no:cacheprovider tests)

echo "== clients/python: pip install into a venv, offline; import pgkuid at the checkout's root"
"$PY" -m venv --system-site-packages "$tmp/venv"
"$tmp/venv/bin/pip" install -q --no-build-isolation --no-index "$SRC/clients/python"
# at the root, where a built checkout has uid.so: the venv's package, not a file of the checkout
(cd "$SRC" && "$tmp/venv/bin/python" -c 'import sys, pgkuid; print("import pgkuid:", pgkuid.__file__)
sys.exit(0 if pgkuid.__file__.startswith(sys.prefix + "/") else "not the installed package")')

echo "== clients/js: npm ci, npm test"
(cd "$SRC/clients/js" && npm ci --no-audit --no-fund --loglevel=error && npm test)

echo "== clients/js: npm pack, and its tarball installed into an empty project, offline"
mkdir "$tmp/app"
tarball=$(cd "$SRC/clients/js" && npm pack --silent --pack-destination "$tmp")
name=$(node -p "require('$SRC/clients/js/package.json').name")
(cd "$tmp/app" && npm init -y >/dev/null &&
	npm install --offline --no-audit --no-fund --loglevel=error "$tmp/$tarball" &&
	node --input-type=module -e "const m = await import('$name'); console.log('import $name:', Object.keys(m).sort().join(' '))")

echo "== clients/go: go vet, go test (GOPATH mode over Debian's /usr/share/gocode)"
mkdir -p "$tmp/gopath/src"
ln -s "$SRC/clients/go" "$tmp/gopath/src/pgkuid"
(cd "$tmp/gopath/src/pgkuid" &&
	export GO111MODULE=off GOFLAGS= GOPATH="$tmp/gopath:/usr/share/gocode" GOCACHE="$tmp/gocache" &&
	go version && go vet ./... && go test -count=1 ./...)

echo "== clients/java: javac, jar, the tests (clients/java/test.sh)"
bash "$SRC/clients/java/test.sh"

echo "== clients/rust: cargo build, cargo test (offline, Debian's /usr/share/cargo/registry)"
# the compiled crates kept for the next major's run (cargo rebuilds what
# changed), where this user may write there; else test.sh's temporary one
cargo_target=$UID_SCRATCH/cargo-target
{ mkdir -p "$cargo_target" 2>/dev/null && [ -w "$cargo_target" ]; } || cargo_target=
UID_CARGO_TARGET=${UID_CARGO_TARGET:-$cargo_target} PATH=/usr/bin:$PATH sh "$SRC/clients/rust/test.sh"
