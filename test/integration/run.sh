#!/usr/bin/env bash
# test/integration/run.sh: the whole integration suite, as test/check.sh runs
# it (its stage "integration", beside the majors' suites): the Patroni,
# pgBackRest and pg_auto_failover parts one after another, on Debian 12's
# PostgreSQL 15 (the tools' packages are for it), against uid built once
# into a private copy of that installation (test/integration/lib.sh; the
# copy under UID_SCRATCH, default /tmp/uid-int-build).  Loopback only, on
# ports 9200-9399 (below the 10200-32767 that PostgreSQL's TAP tests take).
#
# One seed per part, drawn and printed before the first starts;
# UID_INT_SEED=N gives every part that seed, and each part's own line says
# how to replay it alone:
#   UID_INT_SEED=N bash test/integration/patroni.sh
# Every part's output goes to a log (UID_INT_LOGS, default a new directory
# under /tmp, printed); this prints each part's result line, then the
# availability table of every event (doc/operations.md, "Availability
# through the tools' events", is made from it): per part, scenario and event,
# how long the bigserial beside the writers went without a row, how long
# past its first row the slowest type's first row came (uid60 apart: its
# fence may wait for a second), and uid's refusals; then the IDs each
# scenario's clients held, lost and were given again, beside the bigserial's.
#
# Exits 1 if a part failed (an ID given twice where the design says none,
# a 23505, an ID at or below the replicated, a refusal of uid's the design
# does not require), 2 if a part did not run as planned (a state that did not
# come within UID_INT_WAIT seconds), 0 otherwise.  No assertion on time: the
# figures are shown, and a busy machine only makes them larger.
#
# Environment: UID_INT_PARTS (default "patroni pgbackrest auto_failover"),
# UID_INT_SEED, UID_SCRATCH, UID_INT_LOGS, and every part's own UID_INT_*
# settings (see each part's .sh), which pass on to every part.
UID_SCRATCH=${UID_SCRATCH:-/tmp/uid-int-build}
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/lib.sh"

PARTS=${UID_INT_PARTS:-patroni pgbackrest auto_failover}
for part in $PARTS; do
	[ -f "$UID_SRC/test/integration/$part.pl" ] || { echo "unknown part '$part': patroni, pgbackrest or auto_failover" >&2; exit 2; }
done
[ -z "${UID_INT_SEED:-}" ] || [[ $UID_INT_SEED =~ ^[0-9]+$ ]] || { echo "UID_INT_SEED is not a number" >&2; exit 2; }
LOGS=${UID_INT_LOGS:-$(mktemp -d "${TMPDIR:-/tmp}/uid-int-logs.XXXXXX")}
mkdir -p "$LOGS"
chmod 755 "$LOGS"

declare -A seed
for part in $PARTS; do seed[$part]=${UID_INT_SEED:-$(((RANDOM << 15 | RANDOM) % 1000000))}; done
say "the integration suite: $(for p in $PARTS; do printf '%s seed %s; ' "$p" "${seed[$p]}"; done)logs in $LOGS"

# shellcheck disable=SC2046
int_setup $(int_package_list "${PG_MAJOR:-15}")
[ -e "$("$UID_INT_PG_BIN/pg_config" --pkglibdir)/pgautofailover.so" ] ||
	{ echo "no pg_auto_failover in $UID_INT_PG_BIN (package postgresql-$PG_MAJOR-auto-failover)" >&2; exit 2; }
say "on $("$UID_INT_PG_BIN/pg_config" --version) in $UID_INT_PG_BIN: $(patroni --version 2>&1 | head -n 1), $(pgbackrest version), $(pg_autoctl version | head -n 1)"

worst=0
results=()
for part in $PARTS; do
	say "the $part part, seed ${seed[$part]} (UID_INT_SEED=${seed[$part]} bash test/integration/$part.sh replays it)"
	t0=$SECONDS
	rc=0
	UID_INT_SEED=${seed[$part]} int_run "$part.pl" >"$LOGS/$part.out" 2>&1 || rc=$?
	line=$(grep "^integration $part: seed" "$LOGS/$part.out" | tail -n 1)
	results+=("$(printf '%-4s %s (%d s): %s' "$([ $rc = 0 ] && echo ok || echo FAIL)" "$part" $((SECONDS - t0)) "${line:-no result line; exit $rc}")")
	if [ $rc != 0 ]; then
		say "the $part part failed (exit $rc): the end of its log, $LOGS/$part.out"
		tail -n 60 "$LOGS/$part.out"
		[ $rc -gt $worst ] && worst=$rc
	fi
done

say "the integration suite's results"
printf '%s\n' "${results[@]}"
echo
# table KIND HEADER: the parts' KIND|... lines as rows of a markdown table.
table() {
	local part
	echo "$2"
	printf '|'
	printf -- '---|%.0s' $(seq $(($(tr -cd '|' <<<"$2" | wc -c) - 1)))
	echo
	for part in $PARTS; do
		grep -h "^$1|" "$LOGS/$part.out" 2>/dev/null | cut -d '|' -f 2- | sed 's/|/ | /g; s/^/| /; s/$/ |/'
	done
	echo
}
echo "Availability per event (seconds; beyond: from the bigserial's first row on the new primary to the type's):"
echo
table availability "| part | scenario | event | bigserial without a row | slowest type beyond it (not uid60) | uid60 beyond it | uid's refusals |"
echo "IDs per scenario ('-': not counted there):"
echo
table ids "| part | scenario | IDs held | lost | made again | reissued | bigserial lost | bigserial made again | bigserial reissued |"
echo "logs: $LOGS"
exit $worst
