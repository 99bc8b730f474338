# test/apt.sh: apt-get update that goes on past an expired Release file.
# Sourced by test/pg-build.sh and test/root.sh; not run.
#
# A mirror can serve a suite whose Release file is past its Valid-Until date
# (seen: this project's mirror of trixie and sid, weeks after it).  apt then
# stops with "Release file for ... is expired" and no index is read.  The
# signature is a separate check: apt_update tries apt's default first, and
# only when the sole complaint is an expired (or not yet valid) Release file
# does it run the update again with Acquire::Check-Valid-Until=false, which
# turns off only the date check; a Release file that is not signed by the
# keyring is refused as before.  It says so when it does.
#
# apt_update APT-GET-COMMAND...: runs APT-GET-COMMAND update (the command with
# its options, e.g. "apt-get -o Dir::Etc::SourceList=..."), its output on
# stderr.  Sets APT_DATE_OPTS (an array) to the options that later calls of
# the same command need (none, or the date check turned off).
APT_DATE_OPTS=()
apt_update() {
	local out rc=0
	out=$("$@" update 2>&1) || rc=$?
	printf '%s\n' "$out" >&2
	# apt 2.6 reports an expired Release file as an error and, depending on
	# the version, still exits 0: its text decides.
	if ! grep -q '^E: ' <<<"$out" && [ $rc -eq 0 ]; then
		APT_DATE_OPTS=()
		return 0
	fi
	if grep '^E: ' <<<"$out" | grep -qv 'is expired\|is not valid yet'; then
		return 1
	fi
	printf '%s\n' "apt: a Release file of these suites is past its validity date (above); its" \
		"signature is still checked, going on without the date check" \
		"(Acquire::Check-Valid-Until=false)" >&2
	APT_DATE_OPTS=(-o Acquire::Check-Valid-Until=false)
	rc=0
	out=$("$@" "${APT_DATE_OPTS[@]}" update 2>&1) || rc=$?
	printf '%s\n' "$out" >&2
	[ $rc -eq 0 ] && ! grep -q '^E: ' <<<"$out"
}
