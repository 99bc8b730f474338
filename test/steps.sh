# test/steps.sh: the step runner that test/package.sh and test/dist.sh share.
# Source it after setting LOGS (a directory for the steps' logs); the name of
# the sourcing script goes into failure messages.
STEP_SCRIPT=${STEP_SCRIPT:-$(basename "$0")}

die() {
	printf '\n%s: FAILED: %s\n' "$STEP_SCRIPT" "$*" >&2
	exit 1
}

# step NAME CMD...: runs CMD with its output in a log; on failure prints the
# log and stops the test.  STEP_PID is the running step, for a cleanup trap
# (kill it and its descendants).
nstep=0
STEP_PID=
step() {
	local name=$1 t0=$SECONDS log rc
	shift
	nstep=$((nstep + 1))
	log=$LOGS/$(printf '%02d' $nstep)-${name//[^A-Za-z0-9]/_}.log
	printf '%-58s ' "$name"
	# In the background and waited for: a function called as a condition
	# (if, ||) would run with set -e off, and go on past a failing command.
	# Without the script's traps: the exit trap is the script's, not a step's.
	(
		trap - EXIT INT TERM
		"$@"
	) >"$log" 2>&1 &
	STEP_PID=$!
	rc=0
	wait $STEP_PID || rc=$?
	STEP_PID=
	if [ $rc -eq 0 ]; then
		printf 'ok (%d s)\n' $((SECONDS - t0))
		return 0
	fi
	printf 'FAILED (%d s)\n' $((SECONDS - t0))
	echo "---- output of '$name' ($log) ----"
	tail -n 200 "$log"
	echo "---- end of output ----"
	die "$name"
}

# The processes below PID (children first listed, then theirs).
descendants() {
	local p
	for p in /proc/[0-9]*; do
		# the parent's pid is the second field after the command's ")"
		if [ "$(sed 's/.*) //' "$p/stat" 2>/dev/null | cut -d' ' -f2)" = "$1" ]; then
			echo "${p#/proc/}"
			descendants "${p#/proc/}"
		fi
	done
}
