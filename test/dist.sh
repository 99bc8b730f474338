#!/usr/bin/env bash
# test/dist.sh: the PGXN release zip of `make dist`.
#
# In a git clone of this checkout (in UID_SCRATCH/dist; when the checkout has
# uncommitted changes or new files that git does not ignore, they are
# committed in the clone first, so the test sees what would be committed):
#   - `make dist` refuses while a tracked file has uncommitted changes, and
#     DIST_ANYWAY=1 makes the zip from HEAD without the change;
#   - an untracked file in the checkout stays out of the zip;
#   - the zip is uid-VERSION.zip (VERSION from uid.control) with the one top
#     directory uid-VERSION/, and its files are exactly `git ls-files` less
#     what .gitattributes marks export-ignore;
#   - test/meta-validate.pl accepts its META.json (PGXN Meta Spec 1.0.0, files
#     and versions), and rejects broken copies of it, one fault each;
#   - unzipped, it builds with PostgreSQL 15's pg_config, installs into a
#     private copy of the 15 installation (never /usr), and CREATE EXTENSION
#     uid there gives an ID of each type.
# Needs git, unzip, make, gcc and postgresql-server-dev-15 (installed with
# apt-get when missing); runs the server as the postgres OS user.
#   UID_SCRATCH  scratch directory (default /tmp/uid-scratch); this test
#                works in UID_SCRATCH/dist
#   UID_PORT     the private server uses UID_PORT + 70 (default 54399)
# What it installs when missing; --packages prints it (test/check.sh).
PACKAGES="git unzip make gcc perl postgresql-15 postgresql-server-dev-15"
if [ "${1:-}" = --packages ]; then echo "$PACKAGES"; exit 0; fi
source "$(dirname "$0")/lib.sh"

WORK=$UID_SCRATCH/dist
CLONE=$WORK/clone
LOGS=$WORK/logs
use_major 15
PG15=$PG_BIN
COPY=$WORK/pg # a copy of the 15 installation: $COPY/usr/lib/postgresql/15, ...
RUN=$WORK/run # the private server's data directory, socket and log (postgres's)
DPORT=$((UID_PORT + 70))
T0=$SECONDS

source "$(dirname "$0")/steps.sh" # die, step, descendants

cleanup() {
	local rc=$?
	if [ -n "$STEP_PID" ]; then
		# the interrupted step and what it started
		kill $(descendants "$STEP_PID") "$STEP_PID" 2>/dev/null || true
		wait "$STEP_PID" 2>/dev/null || true
	fi
	stop_server "$COPY$PG15" "$RUN/data" immediate 2>/dev/null || true
	# the copy of the installation is the big part
	[ $rc -ne 0 ] || "${SUDO[@]}" rm -rf "$COPY" "$RUN"
	printf '\ndist.sh: %s in %d s (logs: %s)\n' "$([ $rc -eq 0 ] && echo passed || echo failed)" \
		$((SECONDS - T0)) "$LOGS"
	exit $rc
}

packages() {
	local p missing=()
	for p in $PACKAGES; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
	done
	[ ${#missing[@]} -gt 0 ] || return 0
	echo "installing ${missing[*]}"
	"${SUDO[@]}" apt-get update -qq
	"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=600 \
		--no-install-recommends "${missing[@]}"
}

in_clone() { git -C "$CLONE" -c user.name="dist.sh" -c user.email="dist.sh@localhost" "$@"; }

clone() {
	# --no-hardlinks: a local clone hard-links the checkout's objects, which
	# changes their ctime, and a copy of the checkout that tar makes at that
	# moment (check.sh's copy for the next major, beside this) fails with
	# "file changed as we read it".
	git clone -q --no-hardlinks "$UID_SRC" "$CLONE"
	# The checkout's work tree over the clone: changed and new files (not
	# ignored ones, nor a zip that make dist left there), and deletions.
	(cd "$UID_SRC" && git ls-files -z -co --exclude-standard | grep -zv '^uid-[^/]*\.zip$' |
		tar --null -T - -cf -) | tar -C "$CLONE" -xf -
	(cd "$UID_SRC" && git ls-files -z -d) | (cd "$CLONE" && xargs -0 -r rm -f --)
	in_clone add -A
	if [ -n "$(in_clone status --porcelain)" ]; then
		in_clone commit -q -m "the work tree of $UID_SRC"
		echo "the checkout's uncommitted changes and new files, committed in the clone:"
		in_clone show --stat --format= HEAD
	else
		echo "the checkout's HEAD, $(in_clone rev-parse --short HEAD), no changes"
	fi
	[ -z "$(in_clone status --porcelain)" ]
}

version() { sed -n "s/^default_version = '\(.*\)'/\1/p" "$CLONE/uid.control"; }
dist() { make -C "$CLONE" -s dist PG_CONFIG="$PG15/pg_config" "$@"; }

refuses_changes() {
	local zip out
	zip=$CLONE/uid-$(version).zip
	cp "$CLONE/README.md" "$WORK/README.md.orig"
	echo "a change not committed" >>"$CLONE/README.md"
	rm -f "$zip"
	if out=$(dist 2>&1); then
		echo "$out"
		echo "make dist made a zip with an uncommitted change to README.md"
		return 1
	fi
	echo "$out"
	grep -q "uncommitted changes" <<<"$out" || { echo "make dist failed, but not saying why"; return 1; }
	[ ! -e "$zip" ] || { echo "make dist failed but left $zip"; return 1; }
	dist DIST_ANYWAY=1
	unzip -p "$zip" "uid-$(version)/README.md" | cmp - "$WORK/README.md.orig" ||
		{ echo "DIST_ANYWAY=1: the zip's README.md is not HEAD's"; return 1; }
	echo "DIST_ANYWAY=1: made from HEAD, without the change"
	cp "$WORK/README.md.orig" "$CLONE/README.md"
	[ -z "$(in_clone status --porcelain --untracked-files=no)" ]
}

make_zip() {
	echo "untracked" >"$CLONE/untracked-canary.txt"
	echo "/* untracked */" >"$CLONE/src/untracked_canary.c"
	rm -f "$CLONE"/uid-*.zip
	dist
	ls -la "$CLONE/uid-$(version).zip"
}

# The zip's files against git's: every tracked file but those export-ignore
# marks (on the file or a directory above it).
file_list() {
	local zip=$CLONE/uid-$(version).zip top=uid-$(version)/ f d ignored
	unzip -Z1 "$zip" >"$WORK/zip.entries"
	if grep -v "^$top" "$WORK/zip.entries"; then echo "entries outside $top"; return 1; fi
	sed -n "s|^$top||p" "$WORK/zip.entries" | grep -v '/$' | grep -v '^$' | sort >"$WORK/zip.files"
	: >"$WORK/git.files"
	while IFS= read -r f; do
		ignored=0 d=$f
		while :; do
			if [ "$(in_clone check-attr export-ignore -- "$d" | sed 's/.*: //')" = set ]; then ignored=1; break; fi
			[[ $d == */* ]] || break
			d=${d%/*}
		done
		[ $ignored = 1 ] && echo "export-ignore: $f" || echo "$f" >>"$WORK/git.files"
	done < <(in_clone ls-files)
	sort -o "$WORK/git.files" "$WORK/git.files"
	diff -u "$WORK/git.files" "$WORK/zip.files" || { echo "the zip's files differ (- git ls-files, + zip)"; return 1; }
	for f in untracked-canary.txt src/untracked_canary.c; do
		if grep -qxF "$f" "$WORK/zip.files"; then echo "untracked $f is in the zip"; return 1; fi
	done
	echo "$(wc -l <"$WORK/zip.files") files, as git ls-files less export-ignore; untracked files left out"
}

validate() { perl "$CLONE/test/meta-validate.pl" "$CLONE/uid-$(version).zip"; }

unpack() {
	rm -rf "$WORK/unzipped"
	mkdir -p "$WORK/unzipped"
	unzip -q "$CLONE/uid-$(version).zip" -d "$WORK/unzipped"
	ls "$WORK/unzipped/uid-$(version)"
}

# One fault each in a copy of the zip's META.json: the validator must refuse
# it, saying the given words.
rejects() {
	local tree=$WORK/unzipped/uid-$(version) n=0 failed=0 out words code
	cp "$tree/META.json" "$WORK/META.json.orig"
	while IFS='|' read -r words code; do
		[ -n "$code" ] || continue
		perl -MJSON::PP -e 'my $j = JSON::PP->new->canonical; local $/; my $m = $j->decode(<STDIN>); '"$code"'; print $j->encode($m)' \
			<"$WORK/META.json.orig" >"$tree/META.json"
		n=$((n + 1))
		if out=$(perl "$tree/test/meta-validate.pl" "$tree/META.json" 2>&1); then
			echo "ACCEPTED, fault: $code"
			failed=1
		elif ! grep -qF -- "$words" <<<"$out"; then
			echo "refused, but not saying '$words', fault: $code"
			echo "$out"
			failed=1
		else
			echo "refused ($code): $(grep -F -- "$words" <<<"$out" | head -n 1 | sed 's/^ *//')"
		fi
	done <<-'EOF'
		required key missing|delete $m->{license}
		required key missing|delete $m->{provides}{uid}{file}
		not a semantic version|$m->{version} = "0.5"
		not a semantic version|$m->{provides}{uid}{version} = "v0.5.0"
		must be a string, not a number|$m->{version} = 1
		unknown key|$m->{authors} = ["x"]
		unknown key|$m->{provides}{uid}{docpath} = "README"
		is not in the distribution|$m->{provides}{uid}{file} = "sql/uid.sql"
		is not in the distribution|$m->{provides}{uid}{docfile} = "doc/uid.md"
		is absolute|$m->{provides}{uid}{file} = "/src/uid.sql"
		. or .. component|$m->{provides}{uid}{file} = "src/../src/uid.sql"
		default_version|$m->{provides}{uid}{version} = "0.4.0"
		default_version|$m->{version} = "9.9.9"; $m->{provides}{uid}{version} = "9.9.9"
		not a license the spec names|$m->{license} = "GPL"
		2 to 255 characters|push @{$m->{tags}}, "x" x 256
		listed twice|push @{$m->{tags}}, $m->{tags}[0]
		not a version or a comparison|$m->{prereqs}{runtime}{requires}{PostgreSQL} = ">= 15"
		unknown key|$m->{prereqs}{runtime}{wants} = {"x" => "0"}
		unknown key|$m->{prereqs}{install} = {"requires" => {"PostgreSQL" => "15.0.0"}}
		not 1.0.0|$m->{"meta-spec"}{version} = "2.0.0"
		required key missing|delete $m->{"meta-spec"}{version}
		not stable, testing or unstable|$m->{release_status} = "beta"
		not a valid distribution name|$m->{name} = "u id"
		not a URL|$m->{resources} = {"homepage" => "pgxn.org"}
		needs web, or url and type|$m->{resources} = {"repository" => {"url" => "https://example.org/uid.git"}}
		must not be empty|$m->{abstract} = ""
	EOF
	cp "$WORK/META.json.orig" "$tree/META.json"
	perl "$tree/test/meta-validate.pl" "$tree/META.json"
	echo "$n faults, each refused"
	[ $failed -eq 0 ]
}

build_unzipped() {
	local tree=$WORK/unzipped/uid-$(version)
	"${SUDO[@]}" chown -R postgres: "$WORK/unzipped"
	as_pg make -C "$tree" -s PG_CONFIG="$PG15/pg_config" all
	ls -la "$tree/uid.so" "$tree/uid--$(version).sql"
}

# A private copy of the 15 installation (PostgreSQL finds its share and lib
# directories relative to its binaries) with the zip's build installed.
install_copy() {
	local tree=$WORK/unzipped/uid-$(version)
	"${SUDO[@]}" rm -rf "$RUN"
	"${SUDO[@]}" mkdir -p "$RUN"
	"${SUDO[@]}" chown postgres: "$RUN"
	private_installation "$COPY"
	as_pg make -C "$tree" -s PG_CONFIG="$PG15/pg_config" install DESTDIR="$COPY"
	ls -la "$COPY/usr/lib/postgresql/15/lib/uid.so" "$COPY/usr/share/postgresql/15/extension/"uid*
	# every released script of the checkout, so that ALTER EXTENSION UPDATE
	# works from the zip's installation too
	local f missing=0
	for f in "$CLONE"/src/upgrade/uid--*.sql; do
		[ -f "$COPY/usr/share/postgresql/15/extension/${f##*/}" ] ||
			{ echo "not installed from the zip: ${f##*/}"; missing=1; }
	done
	[ $missing -eq 0 ]
}

use_extension() {
	local bin=$COPY$PG15 v out
	v=$(version)
	init_cluster "$bin" "$RUN/data"
	start_server "$bin" "$RUN/data" "$RUN" "$DPORT" "$RUN/server.log"
	out=$(as_pg "$bin/psql" -h "$RUN" -p "$DPORT" -U postgres -X -q -At -v ON_ERROR_STOP=1 <<-EOF
		CREATE EXTENSION uid;
		SELECT extversion FROM pg_extension WHERE extname = 'uid';
		SELECT sno_new() IS NOT NULL AND muid_new() IS NOT NULL AND snowflake_si_new() IS NOT NULL
			AND revts8_new() IS NOT NULL AND uid60_new() IS NOT NULL;
		SELECT sno_new() || ' ' || muid_new() || ' ' || snowflake_si_new() || ' ' || revts8_new() || ' ' || uid60_new();
		DROP EXTENSION uid;
	EOF
	) || { echo "$out"; return 1; }
	echo "$out"
	[ "$(sed -n 1p <<<"$out")" = "$v" ] || { echo "installed version is not $v"; return 1; }
	[ "$(sed -n 2p <<<"$out")" = t ] || { echo "a generator gave NULL"; return 1; }
	stop_server "$bin" "$RUN/data"
}

"${SUDO[@]}" rm -rf "$WORK"
mkdir -p "$WORK" "$LOGS"
trap cleanup EXIT
trap 'exit 130' INT TERM

say "PGXN release zip (make dist) from a clone of $UID_SRC"
step "packages (git, unzip, postgresql-server-dev-15)" packages
step "git clone of the checkout" clone
step "make dist refuses uncommitted changes" refuses_changes
step "make dist (with untracked files in the clone)" make_zip
step "META.json in the zip (test/meta-validate.pl)" validate
step "zip = git ls-files less export-ignore" file_list
step "unzip" unpack
step "the validator refuses broken META.json" rejects
step "build the unzipped tree with PostgreSQL 15" build_unzipped
step "install into a private copy of 15" install_copy
step "CREATE EXTENSION uid there, an ID of each type" use_extension
