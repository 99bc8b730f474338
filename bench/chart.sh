#!/usr/bin/env bash
# bench/chart.sh: draws the chart of a bench.sh report from the report's own tables.
#
#   bench/chart.sh bench/results.md                 # writes bench/results.png
#   bench/chart.sh bench/results-pg18.md out.png    # writes out.png
#
# It reads three tables of the markdown report (what bench.sh --write or --out wrote):
#   - "### Generation": the "marginal ns/ID over floor" column of each candidate;
#   - "### ORDER BY": the "ms (median)" column of each table;
#   - "### pgbench": the tps of each key type per client count (the columns before the
#     first "vs bigserial" ratio);
# writes them as the data files bench/chart.gp reads, and runs gnuplot on it.  So the
# chart shows exactly the report's medians (as rounded in its tables), and can be drawn
# again from a committed report without running anything.  Needs gnuplot (gnuplot-nox).

set -euo pipefail

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

usage() { echo "usage: $0 REPORT.md [OUT.png]" >&2; }
case ${1:-} in -h|--help) usage; exit 0 ;; esac
if [ $# -lt 1 ] || [ $# -gt 2 ]; then usage; exit 2; fi
REPORT=$1
[ -f "$REPORT" ] || { echo "no report $REPORT" >&2; exit 2; }
OUT=${2:-${REPORT%.md}.png}
command -v gnuplot >/dev/null || { echo "gnuplot is not installed (apt-get install gnuplot-nox)" >&2; exit 1; }

export LC_ALL=C
TMP=$(mktemp -d "${TMPDIR:-/tmp}/uid-chart.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

# table HEADING: the first table under the line that starts with HEADING, a row a line, its
# cells tab-separated; the header row starts with "#", the |---| row is left out.
table() {
	awk -v heading="$1" '
		index($0, heading) == 1 { inside = 1; next }
		inside && /^###/ { exit }
		inside && /^\|/ {
			if ($0 ~ /^\|[-: |]+$/) next
			line = $0
			sub(/^\|[ \t]*/, "", line); sub(/[ \t]*\|[ \t]*$/, "", line)
			gsub(/[ \t]*\|[ \t]*/, "\t", line)
			print (seen++ ? "" : "#") line
			next
		}
		inside && seen { exit }
	' "$REPORT"
}

# pick NAME: with a table on stdin, the first cell and the cells of the column whose
# header is NAME (or, for "NAME*", of every column from the first whose header starts with
# NAME up to the first whose header has " vs " in it), tab-separated; header row included
pick() {
	awk -F'\t' -v want="$1" -v OFS='\t' '
		NR == 1 {
			sub(/^#/, "")
			for (i = 2; i <= NF; i++) {
				if (want ~ /\*$/ && index($i, substr(want, 1, length(want) - 1)) == 1) {
					for (; i <= NF && $i !~ / vs /; i++) col[++k] = i
					break
				}
				if ($i == want) { col[++k] = i; break }
			}
			if (!k) { print "no column \"" want "\"" > "/dev/stderr"; exit 1 }
			printf "#"
		}
		{ line = $1; for (i = 1; i <= k; i++) line = line OFS $col[i]; print line }'
}

# Generation: "count(f(...)) (note)" -> f; its marginal ns; the colour of its group
# (PostgreSQL's own, another extension, uid).
table "### Generation" | pick "marginal ns/ID over floor" | awk -F'\t' '
	/^#/ || $1 ~ /^floor/ { next }
	{
		name = $1; sub(/^count\(/, "", name); sub(/\(.*/, "", name)
		if (name ~ /^(gen_random_uuid|uuidv7|nextval)$/) colour = "0x4477aa"
		else if (name ~ /_new$/) colour = "0x228833"
		else colour = "0xee7733"
		printf "\"%s\" %s %s\n", name, $2, colour
	}' >"$TMP/gen.dat"

# ORDER BY: "sno_dense (sno)" -> sno_dense; its median ms.
table "### ORDER BY" | pick "ms (median)" | awk -F'\t' '!/^#/ { split($1, a, " "); print a[1], $2 }' >"$TMP/sort.dat"
ROWS=$(sed -n 's/^### ORDER BY:.* OFFSET \([0-9]*\).*/\1/p' "$REPORT" | head -n 1)

# pgbench: a header line of quoted titles, then clients and tps per key type.  The
# report's header names the column "id uuid", "id sno (sno_new)" ...: the key's type and,
# where more than one generator fills it, the generator.
table "### pgbench" | pick "id*" | awk -F'\t' '
	/^#/ {
		sub(/^#/, "")
		for (i = 2; i <= NF; i++) {
			t = $i; sub(/^id /, "", t)
			if (t == "uuid") t = "uuid (gen_random_uuid)"
			else if (t == "sno") t = "sno (sno_new)"
			else if (t == "muid") t = "muid (muid_new)"
			printf "%s\"%s\"", (i > 2 ? " " : "\"clients\" "), t
		}
		print ""; next
	}
	{ for (i = 1; i <= NF; i++) printf "%s%s", ($i ~ /^[0-9.]+$/ ? $i : "NaN"), (i < NF ? " " : "\n") }' >"$TMP/pgb.dat"

for f in gen sort pgb; do
	[ -s "$TMP/$f.dat" ] || { echo "$REPORT: no ${f/pgb/pgbench} table found (a report of a full run, not --only?)" >&2; exit 1; }
done
PEERS=0
! grep -q ' 0xee7733$' "$TMP/gen.dat" || PEERS=1
COLS=$(head -n 1 "$TMP/pgb.dat" | grep -o '"[^"]*"' | wc -l)
# the line under the chart: where its numbers come from
SOURCE="$(basename "$REPORT"): $(sed -n 's/^- PostgreSQL: PostgreSQL \([^ ]*\).*/PostgreSQL \1/p' "$REPORT" | head -n 1), $(sed -n 's/^- N = \([0-9]*\) rows per query, \([0-9]*\) timed rounds.*/N = \1, \2 rounds/p' "$REPORT" | head -n 1), $(sed -n 's/^- date: \([0-9-]*\).*/\1/p' "$REPORT" | head -n 1)"

gnuplot -e "gen='$TMP/gen.dat'; sort='$TMP/sort.dat'; pgb='$TMP/pgb.dat'; cols=$COLS; peers=$PEERS; rows='${ROWS:-?}'; source='$SOURCE'; out='$OUT'" \
	"$SCRIPT_DIR/chart.gp"
echo "wrote $OUT" >&2
