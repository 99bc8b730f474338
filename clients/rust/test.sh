#!/bin/sh
# Builds and tests the crate pgkuid offline, with Debian's Rust packages
# (apt-get install cargo librust-tokio-postgres-dev librust-postgres-types-dev
# librust-serde-json-dev) as the registry: the offline tests over the shared
# vectors, and the server tests against the server of the libpq environment
# (PGHOST, PGPORT, PGUSER, PGDATABASE; UID_TEST_REQUIRE_SERVER=1 makes its
# absence a failure). UID_VECTORS names the vectors (default
# clients/vectors/vectors.json), UID_CARGO_REGISTRY another directory registry.
#
# Nothing is written into the source tree: the crate is copied into a
# temporary directory (cargo writes Cargo.lock next to Cargo.toml, and no
# lock is committed: it is resolved from the registry at hand), which also
# holds CARGO_HOME and the target directory, and is removed on exit.
# UID_CARGO_TARGET names a target directory to keep instead (test/clients.sh
# keeps one in its scratch directory, so that the second major's run reuses
# the crates the first compiled; cargo builds again what changed).
# "test.sh --no-run" compiles the crate and its tests and runs nothing (no
# server needed): test/clients.sh --prepare fills UID_CARGO_TARGET so.
set -eu
no_run=
if [ "${1:-}" = --no-run ]; then no_run=--no-run; fi

here=$(cd "$(dirname "$0")" && pwd)
registry=${UID_CARGO_REGISTRY:-/usr/share/cargo/registry}
if [ ! -d "$registry" ]; then
    echo "test.sh: no registry at $registry (apt-get install cargo librust-tokio-postgres-dev librust-postgres-types-dev librust-serde-json-dev)" >&2
    exit 1
fi
UID_VECTORS=${UID_VECTORS:-$here/../vectors/vectors.json}
case $UID_VECTORS in /*) ;; *) UID_VECTORS=$(pwd)/$UID_VECTORS ;; esac
export UID_VECTORS

work=$(mktemp -d "${TMPDIR:-/tmp}/pgkuid-rust.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 1' HUP INT TERM
mkdir "$work/cargo-home" "$work/crate"
cat > "$work/cargo-home/config.toml" <<EOF
[source.crates-io]
replace-with = "debian"

[source.debian]
directory = "$registry"
EOF
cp -R "$here/Cargo.toml" "$here/src" "$here/tests" "$work/crate/"
target=${UID_CARGO_TARGET:-$work/target}
export CARGO_HOME="$work/cargo-home"
cd "$work/crate"

cargo --version
rustc --version
cargo build --offline --target-dir "$target"
cargo tree --offline --depth 1 --edges normal,dev 2>/dev/null || true
if [ -n "$no_run" ]; then
    cargo test --offline --target-dir "$target" --no-run
else
    cargo test --offline --target-dir "$target" -- --nocapture
fi
