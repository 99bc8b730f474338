# test/integration/lib.sh: the set-up the integration suite's parts share
# (issue 27).  Sourced by a part's .sh after test/lib.sh, not run.  The same
# steps as test/integration/patroni.sh: the packages a part needs beyond the
# TAP tests, PG_MAJOR's server, libfaketime, and uid built into a private
# copy of PG_MAJOR's installation (as test/soak.sh does) unless
# UID_INT_PG_BIN names an installation that holds it already.  Sets FAKETIME
# and UID_INT_PG_BIN.

# int_package_list MAJOR: the packages of the whole suite on MAJOR
# (test/integration/run.sh; test/check.sh installs them for 15 before it
# starts anything beside).
int_package_list() { echo "patroni etcd-server pgbackrest postgresql-$1-auto-failover libdbd-pg-perl"; }

# int_setup PACKAGE...: the packages, then the installation.
int_setup() {
	use_major "${PG_MAJOR:-15}"
	install_packages "$PG_MAJOR"
	# what this part needs beyond the TAP tests
	install_missing "$@"
	ensure_postgres
	FAKETIME=$(faketime_lib)
	[ -n "$FAKETIME" ] && [ -e "$FAKETIME" ] || { echo "libfaketime not found (package libfaketime)" >&2; exit 2; }

	if [ -z "${UID_INT_PG_BIN:-}" ]; then
		copy_sources
		say "copying PostgreSQL $PG_MAJOR to $SCRATCH/pg"
		# the copy holds what the packages installed into PG_MAJOR's
		# installation too (pg_auto_failover's extension)
		private_installation "$SCRATCH/pg"
		PG_BIN=$COPY_BIN
		PG_CONFIG=$COPY_CONFIG
		build_and_install
		UID_INT_PG_BIN=$PG_BIN
	fi
	[ -e "$("$UID_INT_PG_BIN/pg_config" --pkglibdir)/uid.so" ] || { echo "no uid in $UID_INT_PG_BIN" >&2; exit 2; }
}

# int_run PART.pl: runs the part as root (it starts its servers as postgres)
# with the suite's settings: every UID_INT_* variable given passes on.
int_run() {
	local int_env
	mapfile -t int_env < <(env | grep '^UID_INT_' || true)
	"${SUDO[@]}" env "${int_env[@]}" UID_INT_PG_BIN="$UID_INT_PG_BIN" UID_INT_FAKETIME="$FAKETIME" \
		perl "$UID_SRC/test/integration/$1"
}
