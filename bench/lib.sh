# bench/lib.sh: what bench/bench.sh and bench/majors.sh share.  Sourced, not run.

# check_rows_rounds N ROUNDS: exits 2 unless N >= 1000 and ROUNDS >= 1.
check_rows_rounds() {
	case $1 in ''|*[!0-9]*) echo "rows must be a positive integer" >&2; exit 2 ;; esac
	case $2 in ''|*[!0-9]*) echo "rounds must be a positive integer" >&2; exit 2 ;; esac
	[ "$1" -ge 1000 ] || { echo "rows must be at least 1000" >&2; exit 2; }
	[ "$2" -ge 1 ] || { echo "rounds must be at least 1" >&2; exit 2; }
}

# median of the numbers on stdin (mean of the middle two for an even count)
median() {
	sort -g | awk '{ a[NR] = $1 } END {
		if (NR == 0) { print "nan"; exit }
		if (NR % 2) printf "%.6f\n", a[(NR + 1) / 2];
		else printf "%.6f\n", (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}
minmax() { sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%.0f–%.0f\n", lo, hi }'; }
fmt() { awk -v x="$1" -v p="${2:-1}" 'BEGIN { if (x == "nan" || x == "") print "–"; else printf "%.*f\n", p, x }'; }
div() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0 || a == "nan" || b == "nan") print "–"; else printf "%.2f\n", a / b }'; }

# The generation candidates of bench.sh and majors.sh: count(f()) over
# generate_series(1, :n), in a session whose search_path has the sequence
# bench_seq and the extension.
declare -A GEN_LABEL=(
	[floor]="floor: count(g)"
	[uuid]="count(gen_random_uuid())"
	[uuidv7]="count(uuidv7())"
	[seq]="count(nextval('bench_seq'))"
	[sno]="count(sno_new())"
	[muid]="count(muid_new()) (one transaction)"
)
declare -A GEN_SQL=(
	[floor]="SELECT count(g) FROM generate_series(1, :n) g;"
	[uuid]="SELECT count(gen_random_uuid()) FROM generate_series(1, :n) g;"
	[uuidv7]="SELECT count(uuidv7()) FROM generate_series(1, :n) g;"
	[seq]="SELECT count(nextval('bench_seq')) FROM generate_series(1, :n) g;"
	[sno]="SELECT count(sno_new()) FROM generate_series(1, :n) g;"
	[muid]="SELECT count(muid_new()) FROM generate_series(1, :n) g;"
)

# the candidates of ROUND in round-robin order: rotate ROUND ITEM...
rotate() {
	local r=$1; shift
	local items=("$@") k=$# i
	for ((i = 0; i < k; i++)); do
		printf '%s\n' "${items[$(((i + r) % k))]}"
	done
}

# The machine's lines of a report: CPU, cores, RAM, kernel, and the git
# revision of the checkout in DIR (UID_GIT_REV if set).  bench_machine DIR
bench_machine() {
	local cpu cores ram kernel git_rev
	cpu=$(sed -n 's/^model name[[:space:]]*: *//p' /proc/cpuinfo 2>/dev/null | head -n 1)
	[ -n "$cpu" ] || cpu=$( (lscpu 2>/dev/null || true) | sed -n 's/^Model name: *//p' | head -n 1)
	cores="$(nproc 2>/dev/null || echo '?') online"
	if command -v lscpu >/dev/null && lscpu >/dev/null 2>&1; then # not in a root without /sys
		cores="$cores ($(lscpu | awk -F: '/^Socket\(s\)/ { s = $2 } /^Core\(s\) per socket/ { c = $2 } /^Thread\(s\) per core/ { t = $2 }
			END { gsub(/ /, "", s); gsub(/ /, "", c); gsub(/ /, "", t); printf "%s socket(s) x %s core(s) x %s thread(s)", s, c, t }'))"
	fi
	ram=$(awk '/^MemTotal:/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo 2>/dev/null)
	kernel=$(uname -srm)
	git_rev=${UID_GIT_REV:-$(git -C "$1" rev-parse --short HEAD 2>/dev/null || echo '?')}
	if [ "$git_rev" != '?' ] && [ -n "$(git -C "$1" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
		git_rev="$git_rev (working tree modified)"
	fi
	cat <<-MACHINE
	- CPU: ${cpu:-?}; cores: $cores
	- RAM: ${ram:-?}; kernel: $kernel
	- uid: git $git_rev
	MACHINE
}
