#!/usr/bin/env bash
# bench/majors-run.sh [bench/majors.sh options]: builds and installs uid on
# each major of UID_BENCH_MAJORS (default "17 18"), starts a throwaway
# cluster of each (as test/demo.sh does), runs bench/majors.sh against them
# side by side, and writes its report to bench/results-majors.md.
#
# 19 beside 18 runs in 19's Debian sid root, where both are Debian's own
# packages: test/root-check.sh 19 bench (the README's "Performance" says
# how); that copies the report back into this checkout.
source "$(dirname "$0")/../test/lib.sh"
MAJORS=${UID_BENCH_MAJORS:-17 18}
UID_GIT_REV=$(git -C "$UID_SRC" rev-parse --short HEAD 2>/dev/null || echo "${UID_GIT_REV:-?}")
export UID_GIT_REV
OUT=$UID_SRC/bench/results-majors.md

for m in $MAJORS; do use_major "$m"; done
install_packages $MAJORS
conns=()
started=()
stop_all() {
	local m
	for m in ${started[@]+"${started[@]}"}; do use_major "$m"; stop_cluster; done
}
trap stop_all EXIT
for m in $MAJORS; do
	use_major "$m"
	ensure_postgres
	copy_sources
	build_and_install
	start_cluster
	started+=("$m")
	conns+=("$m=host=$SCRATCH port=$PORT user=postgres dbname=postgres")
done
say "bench/majors.sh on $MAJORS"
report=$(as_pg mktemp /tmp/uid-majors-report.XXXXXX.md)
as_pg env PATH="$PG_BIN:$PATH" UID_GIT_REV="$UID_GIT_REV" bash "$BUILD/bench/majors.sh" --out "$report" "$@" "${conns[@]}"
cp "$report" "$OUT"
rm -f "$report"
say "wrote $OUT"
