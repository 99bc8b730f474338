#!/usr/bin/env bash
# test/stress.sh [ROUNDS]: the TAP suite on a machine kept busy.  Not run in
# CI.  Sets up like test/check.sh on one major (PG_MAJOR, default 15:
# packages, a scratch copy, build, install), starts one CPU hog per core (a
# busy loop at normal priority), then runs the whole TAP suite ROUNDS times
# (default 3, or UID_STRESS_ROUNDS) under nice -n 10: prove, and with it the
# servers' postmasters and backends, get what the hogs leave.  Stops at the
# first round that fails and prints the end of the failing tests' logs;
# prints each round's time and result, and exits non-zero if a round
# failed.  The hogs are killed on exit.
#
# With autogroup scheduling (/proc/sys/kernel/sched_autogroup_enabled = 1)
# nice weighs only against processes of the same session: the test scripts
# and psql, in this script's session, get a small share beside the hogs,
# while each server, which pg_ctl starts in a session of its own, is
# scheduled as a group apart.
#
# PG_MAJOR=19 does the same inside a Debian sid root (test/root-check.sh).
#
# Environment: PG_MAJOR (default 15), UID_STRESS_ROUNDS (default 3),
# UID_STRESS_HOGS (default: the number of cores), PROVE_FLAGS (e.g. -v),
# UID_SCRATCH as for check.sh, UID_SEAMS_RUNS (seeds of the seams test per
# round, default 8) or UID_SEAMS_SEEDS (those seeds), UID_SIM_SECONDS
# (default 120): after each round's TAP, the generator core's simulator
# (test/sim) runs that long, under the same hogs, from a seed drawn for the
# round (printed: test/sim/sim --seed N replays one); UID_STRESS_INTEGRATION
# (default 1): on Debian 12's 15, the integration suite once after the rounds.
source "$(dirname "$0")/lib.sh"

ROUNDS=${1:-${UID_STRESS_ROUNDS:-3}}
HOG_COUNT=${UID_STRESS_HOGS:-$(nproc)}
case $ROUNDS in *[!0-9]* | "" | 0) echo "usage: $0 [ROUNDS]: ROUNDS is a number of rounds, 1 or more" >&2; exit 2 ;; esac
case $HOG_COUNT in *[!0-9]* | "") echo "UID_STRESS_HOGS is not a number: '$HOG_COUNT'" >&2; exit 2 ;; esac

# The seams test (TAP 033) runs this many seeds a round (check.sh: 1 per major).
SEAMS_RUNS=${UID_SEAMS_RUNS:-8}

use_major "${PG_MAJOR:-15}"
# 19: the same, inside a Debian sid root (test/root-check.sh)
if rooted "$PG_MAJOR"; then
	exec "${SUDO[@]}" env UID_SCRATCH="$UID_SCRATCH" UID_PG_CACHE="$UID_PG_CACHE" \
		UID_STRESS_ROUNDS="$ROUNDS" UID_STRESS_HOGS="$HOG_COUNT" UID_SEAMS_RUNS="$SEAMS_RUNS" \
		${UID_SIM_SECONDS:+UID_SIM_SECONDS="$UID_SIM_SECONDS"} \
		${UID_SEAMS_SEEDS:+UID_SEAMS_SEEDS="$UID_SEAMS_SEEDS"} ${PROVE_FLAGS:+PROVE_FLAGS="$PROVE_FLAGS"} \
		bash "$UID_SRC/test/root-check.sh" "$PG_MAJOR" stress "$ROUNDS"
fi
install_packages "$PG_MAJOR"
ensure_postgres
copy_sources
build_and_install

FAKETIME=$(faketime_lib)
[ -n "$FAKETIME" ] && [ -e "$FAKETIME" ] || { echo "libfaketime not found (package libfaketime)" >&2; exit 2; }
LOGS=$(mktemp -d "${TMPDIR:-/tmp}/uid-stress.XXXXXX")

HOGS=()
stop_hogs() {
	if [ ${#HOGS[@]} -gt 0 ]; then
		kill "${HOGS[@]}" 2>/dev/null || true
		wait "${HOGS[@]}" 2>/dev/null || true
		HOGS=()
	fi
}
trap stop_hogs EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

say "starting $HOG_COUNT CPU hogs ($(nproc) cores)"
for _ in $(seq 1 "$HOG_COUNT"); do
	(while :; do :; done) &
	HOGS+=($!)
done

loadavg() { cut -d ' ' -f 1-3 /proc/loadavg; }

# The tests a round's prove output reports as failed (its summary lists
# each as "test/t/NAME.pl (Wstat: ...)"), then the end of their logs.
show_failures() {
	local out=$1 t name log shown=0
	for t in $(sed -n 's|^\(test/t/[^ ]*\.pl\) *(Wstat.*|\1|p' "$out" | sort -u); do
		name=$(basename "$t" .pl)
		log=$BUILD/tmp_check/log/regress_log_$name
		if [ -f "$log" ]; then
			say "the end of $log"
			tail -n 80 "$log"
			shown=1
		fi
	done
	if [ "$shown" = 0 ]; then
		# No summary (prove itself failed): every log with a failed test.
		for log in $(grep -l '^\[.*\] *not ok\|^not ok' "$BUILD"/tmp_check/log/regress_log_* 2>/dev/null); do
			say "the end of $log"
			tail -n 80 "$log"
		done
	fi
}

results=()
failed=0
for round in $(seq 1 "$ROUNDS"); do
	say "round $round of $ROUNDS: TAP on $(pg_version) under nice -n 10 beside $HOG_COUNT hogs (load $(loadavg))"
	out=$LOGS/round$round.out
	t0=$SECONDS
	rc=0
	as_pg env PATH="$PG_BIN:$PATH" UID_FAKETIME_LIB="$FAKETIME" UID_REQUIRE_FAKETIME=1 \
		UID_SEAMS_RUNS="$SEAMS_RUNS" ${UID_SEAMS_SEEDS:+UID_SEAMS_SEEDS="$UID_SEAMS_SEEDS"} \
		nice -n 10 make -C "$BUILD" -s tapcheck PG_CONFIG="$PG_CONFIG" PROVE_FLAGS="${PROVE_FLAGS:-}" \
		2>&1 | tee "$out" || rc=$?
	secs=$((SECONDS - t0))
	if [ "$rc" -eq 0 ]; then
		# the simulator: fresh seeds each round, as long as it is given
		sim_first=$(( (RANDOM << 15 | RANDOM) * 1000 + 1000000 ))
		say "round $round: the generator core's simulator for ${UID_SIM_SECONDS:-120} s from seed $sim_first"
		if ! as_pg make -C "$BUILD" -s test/sim/sim PG_CONFIG="$PG_CONFIG"; then
			rc=1
		elif ! as_pg nice -n 10 "$BUILD/test/sim/sim" --seeds "$sim_first-$sim_first" \
			--seconds "${UID_SIM_SECONDS:-120}" --quiet >"$LOGS/sim$round.out" 2>&1; then
			rc=1
		fi
		tee -a "$out" <"$LOGS/sim$round.out"
		secs=$((SECONDS - t0))
	fi
	if [ "$rc" -eq 0 ]; then
		results+=("$(printf 'round %d: ok    %4d s (%d min %02d s), load at the end %s' "$round" "$secs" $((secs / 60)) $((secs % 60)) "$(loadavg)")")
	else
		results+=("$(printf 'round %d: FAIL  %4d s (%d min %02d s), load at the end %s' "$round" "$secs" $((secs / 60)) $((secs % 60)) "$(loadavg)")")
		failed=1
		show_failures "$out"
		break
	fi
done
stop_hogs

# The integration suite (test/integration/run.sh: Patroni, pgBackRest,
# pg_auto_failover), once after the rounds, against the uid installed above:
# the tools are Debian 12's packages for its own major, so only there.  CI
# runs it too (test/check.sh's stage integration), on an idle machine;
# UID_STRESS_INTEGRATION=0 leaves it out here.
if [ "$failed" -eq 0 ] && packaged "$PG_MAJOR" && [ "${UID_STRESS_INTEGRATION:-1}" != 0 ]; then
	say "the integration suite"
	t0=$SECONDS
	rc=0
	UID_INT_PG_BIN=$PG_BIN UID_INT_LOGS=$LOGS/integration bash "$UID_SRC/test/integration/run.sh" \
		>"$LOGS/integration.out" 2>&1 || rc=$?
	secs=$((SECONDS - t0))
	lines=$(grep -E '^(ok|FAIL) ' "$LOGS/integration.out" || true)
	if [ "$rc" -eq 0 ]; then
		results+=("$(printf 'integration: ok %4d s' "$secs")" "$lines")
	else
		results+=("$(printf 'integration: FAIL (exit %d) %4d s' "$rc" "$secs")" "$lines")
		tail -60 "$LOGS/integration.out"
		failed=1
	fi
fi

say "summary: TAP on $(pg_version), $HOG_COUNT CPU hogs on $(nproc) cores, the suite under nice -n 10"
printf '%s\n' "${results[@]}"
echo "prove's output of each round: $LOGS"
[ "$failed" -eq 0 ]
