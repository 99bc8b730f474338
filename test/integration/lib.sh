# test/integration/lib.sh: the set-up the integration suite's parts share
# (issue 27).  Sourced by a part's .sh after test/lib.sh, not run.  The same
# steps as test/integration/patroni.sh: the packages a part needs beyond the
# TAP tests, PG_MAJOR's server, libfaketime, and uid built into a private
# copy of PG_MAJOR's installation (as test/soak.sh does) unless
# UID_INT_PG_BIN names an installation that holds it already.  Sets FAKETIME
# and UID_INT_PG_BIN.

# The packages of the whole suite (test/integration/run.sh; test/check.sh
# installs them before it starts anything beside).
INT_PACKAGES="patroni etcd-server pgbackrest postgresql-${PG_MAJOR:-15}-auto-failover libdbd-pg-perl"

# int_packages PACKAGE...: those of them not installed yet, with apt-get.
int_packages() {
	local p missing=()
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
	done
	if [ ${#missing[@]} -gt 0 ]; then
		say "installing ${missing[*]}"
		"${SUDO[@]}" apt-get update -qq
		"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
			"${missing[@]}" >/dev/null
	fi
}

# int_setup PACKAGE...: the packages, then the installation.
int_setup() {
	use_major "${PG_MAJOR:-15}"
	install_packages "$PG_MAJOR"
	# what this part needs beyond the TAP tests
	int_packages "$@"
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
