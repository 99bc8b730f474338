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
#                    they need Node.js 20.10 or later with npm (checked
#                    first: Debian 12's nodejs is 18)
#
# Both read the shared vectors (clients/vectors/vectors.json, which make
# vectorcheck holds to the C codecs).  UID_TEST_REQUIRE_SERVER=1 makes a
# server test that cannot reach the server fail rather than skip.
set -euo pipefail
SRC=$(cd "${1:-$(dirname "$0")/..}" && pwd)
export UID_TEST_REQUIRE_SERVER=1 UID_VECTORS="$SRC/clients/vectors/vectors.json"
: "${PGHOST:?the server to test against: PGHOST, PGPORT, PGUSER, PGDATABASE}"
PY=/usr/bin/python3

# node --test --test-concurrency (npm test) came in Node 20.10; kysely 0.28 needs 20
node_version=$(node --version 2>/dev/null) || node_version="no node"
if ! [[ $node_version =~ ^v([0-9]+)\.([0-9]+)\. ]] ||
	((BASH_REMATCH[1] < 20 || (BASH_REMATCH[1] == 20 && BASH_REMATCH[2] < 10))) ||
	! command -v npm >/dev/null 2>&1; then
	echo "test/clients.sh: clients/js's tests need Node.js 20.10 or later with npm;" \
		"this machine has $node_version, npm $(npm --version 2>/dev/null || echo "missing")" >&2
	exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "== clients/python: pytest (PostgreSQL at $PGHOST:${PGPORT:-5432})"
(cd "$SRC/clients/python" && "$PY" -m pytest -q -p no:cacheprovider tests)

echo "== clients/python: pip install into a venv, offline"
"$PY" -m venv --system-site-packages "$tmp/venv"
"$tmp/venv/bin/pip" install -q --no-build-isolation --no-index "$SRC/clients/python"
(cd "$tmp" && "$tmp/venv/bin/python" -c 'import uid; print("import uid:", uid.__name__, "from", uid.__file__)')

echo "== clients/js: npm ci, npm test"
(cd "$SRC/clients/js" && npm ci --no-audit --no-fund --loglevel=error && npm test)

echo "== clients/js: npm pack, and its tarball installed into an empty project, offline"
mkdir "$tmp/app"
tarball=$(cd "$SRC/clients/js" && npm pack --silent --pack-destination "$tmp")
name=$(node -p "require('$SRC/clients/js/package.json').name")
(cd "$tmp/app" && npm init -y >/dev/null &&
	npm install --offline --no-audit --no-fund --loglevel=error "$tmp/$tarball" &&
	node --input-type=module -e "const m = await import('$name'); console.log('import $name:', Object.keys(m).sort().join(' '))")
