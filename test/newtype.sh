#!/usr/bin/env bash
# test/newtype.sh [--tree DIR] [--keep]: adds a sixth type to a scratch copy of
# the tree with exactly what src/codec/registry.h's checklist names, and
# builds and tests it: the proof that a new type is its own files, its
# registry row and its src/sql_api.h block.
#
# The type, fake60, is uid60 under another name: each of uid60's own files
# (the checklist's "new files": codec, SQL type and script, uid-inspect's
# file, unit tests and their rows, fuzz target, regression tests, the client
# packages' classes) copied with uid60 renamed fake60, then the two edits in
# existing code (its row at slot 5 with its codec's #include; its block in
# src/sql_api.h, uid60's renamed) and its documentation (its sections of
# doc/formats.md and doc/types.md, its row of the README's table).  Nothing
# else is touched.  Then, in the copy, `make`, `make layercheck`, `make
# unitcheck` and the simulator on UID_NEWTYPE_SEEDS (default 1-100); it fails
# if any of them fails.  The client packages are not built (test/clients.sh
# tests them against a server).
#
#   --tree DIR   the tree to copy (default: this checkout)
#   --keep       leave the scratch copy (its path is printed)
#   PG_CONFIG    as for make
set -euo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)
tree=$src
keep=
while [ $# -gt 0 ]; do
	case $1 in
	--tree) tree=$(cd "$2" && pwd); shift 2 ;;
	--keep) keep=1; shift ;;
	*) echo "usage: test/newtype.sh [--tree DIR] [--keep]" >&2; exit 2 ;;
	esac
done
seeds=${UID_NEWTYPE_SEEDS:-1-100}
make_args=(-s ${PG_CONFIG:+PG_CONFIG="$PG_CONFIG"})
jobs=$(nproc 2>/dev/null || echo 2)

work=$(mktemp -d "${TMPDIR:-/tmp}/uid-newtype.XXXXXX")
if [ -z "$keep" ]; then trap 'rm -rf "$work"' EXIT; fi
say() { printf 'newtype: %s\n' "$*"; }
step() {
	local name=$1 t0=$SECONDS
	shift
	if "$@" >"$work/step.log" 2>&1; then
		say "$name: ok ($((SECONDS - t0)) s)"
	else
		say "$name: FAILED ($((SECONDS - t0)) s); its last lines:"
		tail -n 30 "$work/step.log" | sed 's/^/    /'
		exit 1
	fi
}

# the copy: the files git tracks (and untracked ones it does not ignore);
# where git cannot say, every file, and then nothing built kept
t=$work/tree
mkdir -p "$t"
if git -C "$tree" ls-files -co --exclude-standard -z >"$work/files" 2>/dev/null && [ -s "$work/files" ]; then
	(cd "$tree" && tar --null --no-recursion -T "$work/files" -cf -) | tar -C "$t" -xf -
	cd "$t"
else
	(cd "$tree" && tar --exclude=.git --exclude='*.o' --exclude='*.so' -cf - .) | tar -C "$t" -xf -
	cd "$t"
	make "${make_args[@]}" clean >/dev/null
fi

# First the tree as it is: test/types.pl finds any list of every type kept by
# hand (a list the new type would have to join)
step "test/types.pl before fake60 is added" perl test/types.pl .

rename() { sed -e 's/uid60/fake60/g' -e 's/UID60/FAKE60/g' -e 's/Uid60/Fake60/g'; }
# copy FILE: uid60's file as fake60's
copy() { rename <"$1" >"$(echo "$1" | rename)"; }

# its own files, as the checklist lists them
for f in src/codec/uid60_codec.c src/codec/uid60_codec.h src/uid60.c src/uid60.h src/uid60.sql \
	src/inspect/uid60_inspect.c test/unit/uid60_*.[ch] test/fuzz/uid60_fuzz.c \
	sql/uid60_io.sql sql/uid60_ops.sql sql/uid60_gen.sql \
	expected/uid60_io.out expected/uid60_ops.out expected/uid60_gen.out \
	clients/go/uid60.go clients/js/src/uid60.js \
	clients/java/src/main/java/pgkuid/Uid60.java clients/java/src/main/java/pgkuid/pgjdbc/PgUid60.java \
	clients/rust/src/uid60.rs; do
	copy "$f"
done
# the Python package keeps its classes in modules of its own choosing: uid60's, alone
awk '/^class Uid60\(/ { on = 1 } on && /^class / && !/^class Uid60\(/ { on = 0 } on' \
	clients/python/pgkuid/_types.py | rename >clients/python/pgkuid/_fake60.py

# 1. its row of the registry, at the next slot, and its codec's #include
perl -0pi -e 's{(#include "codec/uid60_codec.h"\n)}{$1#include "codec/fake60_codec.h"\n}' src/codec/registry.h
perl -0pi -e 's{(\tX\(UID60, uid60, 4, (?:[^\n]*\\\n)*?[^\n]*\))\n}{my $r = $1; (my $n = $r) =~ s/uid60/fake60/g; $n =~ s/UID60/FAKE60/g; $n =~ s/, 4, /, 5, /; "$r \\\n$n\n"}se' \
	src/codec/registry.h
grep -q 'X(FAKE60, fake60, 5, 8' src/codec/registry.h || { say "no place for the row in src/codec/registry.h"; exit 1; }
# 2. its block of src/sql_api.h: uid60's, renamed
perl -0pi -e 's{(/\* uid60\.c: .*?\n\n)}{my $b = $1; (my $n = $b) =~ s/uid60/fake60/g; "$b$n"}se' src/sql_api.h
grep -q '^/\* fake60\.c: ' src/sql_api.h || { say "no uid60 block in src/sql_api.h"; exit 1; }
# and its documentation: uid60's sections and README row, renamed
for doc in doc/formats.md doc/types.md; do
	perl -0pi -e 's{(^## uid60\b.*?)(?=^## |\z)}{my $s = $1; (my $n = $s) =~ s/uid60/fake60/g; "$s$n"}sme' "$doc"
done
perl -pi -e 'print s/uid60/fake60/gr if /^\| `uid60` \|/' README.md

say "fake60 added in $t: $(git -C "$tree" rev-parse --short HEAD 2>/dev/null || echo "$tree") and these changes:"
diff -rq "$tree" "$t" 2>/dev/null | grep -v '^Only in '"$tree" | sed 's/^/    /' || true

step "make" make "${make_args[@]}" -j"$jobs" all uid-inspect
step "make layercheck" make "${make_args[@]}" layercheck
step "make unitcheck" make "${make_args[@]}" unitcheck
step "the simulator, seeds $seeds" sh -c "make ${make_args[*]} test/sim/sim && test/sim/sim --seeds $seeds --quiet"
say "a sixth type: its files, its registry row and its sql_api.h block were enough"
