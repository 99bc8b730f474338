# bench/report.sh: bench/bench.sh's report, one function per table, from the
# run's raw times (RAW) and what the sections left in TMP.  Sourced by
# bench.sh after the sections have run, not run on its own.

machine_info() {
	cat <<EOF
- date: $START_DATE
- command: \`$COMMAND\` (PGHOST=${PGHOST:-default} PGPORT=${PGPORT:-default}, database $DATABASE)
$(bench_machine "$SCRIPT_DIR/..")
- load average (1/5/15 min) at start: $LOAD_START; at end: $LOAD_END
- PostgreSQL: $PGVERSION; shared_buffers $SHARED_BUFFERS
- random bytes of gen_random_uuid()$([ "$UUIDV7" = 1 ] && echo " and uuidv7()"): $(if [ "$SSL_LIBRARY" = none ]; then echo "/dev/urandom (server built without OpenSSL: an open, a read and a close per call)"; else echo "$SSL_LIBRARY (ssl_library)"; fi)$(runs sort && printf '\n%s' "- sort tables pre-warmed: $PREWARM")
- uid extension $EXTVERSION
- other generators, measured where this database has them (generation, bulk INSERT, pgbench):
  - PostgreSQL 18's \`uuidv7()\`: $([ "$UUIDV7" = 1 ] && echo "built in (in the ORDER BY and hot path sections too)" || echo "not in this server (older than 18)")
$(printf '  - %s\n' "${PEER_NOTES[@]}")
- sessions: work_mem $WORK_MEM, max_parallel_workers_per_gather 0, jit off
- N = $N rows per query, $ROUNDS timed rounds per section (after one warm-up round), candidates interleaved round-robin; wall time ${ELAPSED} s
EOF
}

gen_report() {
	local c med range marg uuid_med uuid_marg total_ratio marg_ratio
	uuid_med=$(ctimes gen uuid | median)
	uuid_marg=$(diffs gen uuid floor | median)
	echo "### Generation: count(f()) over generate_series(1, $N)"
	echo
	echo "| candidate | ms per N (median) | ms min–max | M rows/s | marginal ns/ID over floor | ratio vs uuid (total) | ratio vs uuid (marginal) |"
	echo "|---|---:|---:|---:|---:|---:|---:|"
	for c in "${GEN_CANDS[@]}"; do
		med=$(ctimes gen "$c" | median)
		range=$(ctimes gen "$c" | minmax)
		if [ "$c" = floor ]; then
			marg="–"; marg_ratio="–"
		else
			local d
			d=$(diffs gen "$c" floor | median)
			marg=$(fmt "$(awk -v d="$d" -v n="$N" 'BEGIN { print d * 1e6 / n }')" 1)
			marg_ratio=$(div "$d" "$uuid_marg")
		fi
		total_ratio=$(div "$med" "$uuid_med")
		echo "| ${GEN_LABEL[$c]} | $(fmt "$med" 1) | $range | $(fmt "$(awk -v m="$med" -v n="$N" 'BEGIN { print n / m / 1000 }')" 2) | $marg | $total_ratio | $marg_ratio |"
	done
	echo
	echo "Marginal ns/ID = median over rounds of (candidate ms − floor ms in the same round) × 10⁶ / N."
	echo "Ratios: median ms / uuid's median ms (total), and marginal / uuid's marginal."
	local total=0 w
	for w in "${SNO_WAITS[@]}"; do total=$((total + w)); done
	echo
	echo "uid_stats() overflow_waits during the timed sno_new() runs: $total (per run: ${SNO_WAITS[*]})$([ "$total" -gt 0 ] && echo ' — the capacity of 65,536 IDs per 4 ms unit was hit: sno_new() slept until the next unit, and its time above includes those sleeps')"
	echo
	# N IDs need ceil(N / 65536) units, so at least that many minus one unit boundaries pass.
	local net waitms
	net=$(netdiffs gen sno floor sno_wait | median)
	waitms=$(ctimes gen sno_wait | median)
	echo "Time sno_new() spent sleeping for the next unit (uid_stats().overflow_wait_us), median per run: $(fmt "$waitms" 1) ms."
	echo "sno_new() marginal cost net of those sleeps (its CPU cost): $(fmt "$(awk -v d="$net" -v n="$N" 'BEGIN { print d * 1e6 / n }')" 1) ns/ID (median over rounds of (sno − floor − sleep) ms × 10⁶ / N)."
	echo
	echo "Capacity bound: $N sno IDs span at least $(((N + 65535) / 65536)) units of 4 ms, so their generation cannot take less than $((((N + 65535) / 65536 - 1) * 4)) ms (16.4 M IDs/s), whatever the CPU."
	echo "generate_series() is materialized before count() reads it, so the IDs are made back to back: if overflow_waits"
	echo "is close to the number of units per run, sno_new()'s marginal cost above is the capacity limit, and its CPU cost is lower."
	if [ "$SNO_ISSUED_BAD" = 1 ]; then
		echo
		echo "WARNING: uid_stats() issued did not grow by N during a sno_new() run."
	fi
}

sort_report() {
	local t med range sortonly uuid_med uuid_sortonly bigint_med
	uuid_med=$(ctimes sort sort_uuid | median)
	bigint_med=$(ctimes sort sort_bigint | median)
	uuid_sortonly=$(diffs sort sort_uuid scan_uuid | median)
	echo "### ORDER BY: SELECT id FROM t ORDER BY id OFFSET $N (full in-memory sort, table in random order)"
	echo
	echo "| table | ms (median) | ms min–max | ratio vs uuid | ratio vs bigint | sort only ms | sort only ratio vs uuid | scan only ms | sort method | order correlation |"
	echo "|---|---:|---:|---:|---:|---:|---:|---:|---|---:|"
	for t in "${SORT_TABLES[@]}"; do
		med=$(ctimes sort "sort_$t" | median)
		range=$(ctimes sort "sort_$t" | minmax)
		sortonly=$(diffs sort "sort_$t" "scan_$t" | median)
		echo "| ${t} (${COLTYPE[$t]}) | $(fmt "$med" 1) | $range | $(div "$med" "$uuid_med") | $(div "$med" "$bigint_med") | $(fmt "$sortonly" 1) | $(div "$sortonly" "$uuid_sortonly") | $(fmt "$(ctimes sort "scan_$t" | median)" 1) | ${SORT_METHOD[$t]} | ${CORRELATION[$t]} |"
	done
	echo
	echo "Tables: bigint = 1..N; uuid = gen_random_uuid();$([ "$UUIDV7" = 1 ] && echo " uuidv7 = uuidv7() (PostgreSQL 18's time-ordered UUID, one query: ms timestamp, 12 bits of sub-ms time, 62 random bits);") sno_dense = sno_new() (bulk: many IDs per 4 ms unit);"
	echo "sno_spread = sno_from_parts('2024-01-01' + g × 37 ms, 1, 4242, 0) (one ID per time);"
	echo "muid_bulk = muid_new() in one transaction (one timestamp, offsets 1..N);"
	echo "muid_txns = muid_from_parts('2024-01-01' + (g / 4) × 37 µs, medallion, g % 4 + 1) (4 IDs per transaction);"
	echo "snowflake_si = snowflake_si_from_parts('2024-01-01' + (g / 4) ms, 1, g % 4);"
	echo "revts8 = revts8_from_parts('2024-01-01' + (g / 4) ms, g % 4, 1, 0), default (time) order;"
	echo "uid60 = uid60_from_parts('2024-01-01' + (g / 1024) s, 1, g % 1024, g × 37 % 512). All filled ORDER BY random()."
	echo "Order correlation: pg_stats.correlation of the stored order with the sorted order (≈ 0: shuffled)."
	echo "Scan only = SELECT id FROM t OFFSET N; sort only = median over rounds of (sort ms − scan ms in the same round)."
}

io_report() {
	local t c uuid_out uuid_in bs med
	uuid_out=$(ctimes io out_uuid | median)
	uuid_in=$(ctimes io in_uuid | median)
	echo "### Text output and input: COPY of $N values to /dev/null and from a file, medians of $IO_ROUNDS rounds"
	echo
	echo "| type | COPY TO ms | vs uuid | COPY FROM ms | vs uuid |"
	echo "|---|---:|---:|---:|---:|"
	for t in "${IO_TABLES[@]}"; do
		echo "| ${t} (${COLTYPE[$t]}) | $(fmt "$(ctimes io "out_$t" | median)" 1) | $(div "$(ctimes io "out_$t" | median)" "$uuid_out") | $(fmt "$(ctimes io "in_$t" | median)" 1) | $(div "$(ctimes io "in_$t" | median)" "$uuid_in") |"
	done
	echo
	bs=$(ctimes io ins_bigserial | median)
	echo "### Bulk INSERT of $INS_N rows into a logged table whose primary key defaults to the generator, medians of $IO_ROUNDS rounds"
	echo
	echo "| primary key | ms | vs bigserial | primary key index MB | index bytes per row |"
	echo "|---|---:|---:|---:|---:|"
	for c in "${INS_CANDS[@]}"; do
		med=$(ctimes io "ins_$c" | median)
		echo "| ${INS_DDL[$c]} | $(fmt "$med" 1) | $(div "$med" "$bs") | ${INS_INDEX_MB[$c]} | ${INS_INDEX_BPR[$c]} |"
	done
	echo
	echo "INSERT INTO t (v) SELECT g FROM generate_series(1, $INS_N) g after TRUNCATE and CHECKPOINT, one transaction."
	echo "Index size: pg_relation_size() of the primary key index after the last round's INSERT, and divided by the"
	echo "table's $INS_N rows. Keys that arrive in order fill each B-tree leaf before it splits (the rightmost"
	echo "split leaves it 90% full); random keys (gen_random_uuid()) split leaves in the middle, which leaves them"
	echo "half to three quarters full."
}

# a key type's column name in the pgbench table
ins_short() {
	case $1 in
		uuidv7) echo "id uuid (uuidv7)" ;;
		pg_uuidv7) echo "id uuid (uuid_generate_v7)" ;;
		snowflake) echo "id bigint (snowflake.nextval)" ;;
		*) echo "${INS_DDL[$1]%% PRIMARY*}" ;;
	esac
}

pgb_report() {
	local n c bs
	echo "### pgbench: one INSERT with a generated key per transaction, tps (median of $PGB_ROUNDS runs of ${PGB_SECONDS} s)"
	echo
	echo "| clients | $(for c in "${INS_CANDS[@]}"; do printf '%s | ' "$(ins_short "$c")"; done)$(for c in "${INS_CANDS[@]:1}"; do printf '%s vs bigserial | ' "$c"; done)"
	echo "|---:|$(for c in "${INS_CANDS[@]}" "${INS_CANDS[@]:1}"; do printf -- '---:|'; done)"
	for n in "${PGB_CLIENTS[@]}"; do
		bs=$(ctimes pgb "bigserial_$n" | median)
		printf '| %s | ' "$n"
		for c in "${INS_CANDS[@]}"; do printf '%s | ' "$(fmt "$(ctimes pgb "${c}_$n" | median)" 0)"; done
		for c in "${INS_CANDS[@]:1}"; do printf '%s | ' "$(div "$(ctimes pgb "${c}_$n" | median)" "$bs")"; done
		echo
	done
	echo
	echo "pgbench -n -M prepared -c N -j min(N, 2) -T ${PGB_SECONDS}, synchronous_commit = off, logged tables with the key as primary key."
}

raw_report() {
	local s c
	echo "<details><summary>per-round ms (round order rotated; warm-up round not shown)</summary>"
	echo
	echo "| section | candidate | ms per round |"
	echo "|---|---|---|"
	for s in gen hot_a hot_b sort; do
		for c in $(awk -v s="$s" '$1 == s && $3 !~ /_waits$/ { print $3 }' "$RAW" | awk '!seen[$0]++'); do
			echo "| $s | $c | $(ctimes "$s" "$c" | tr '\n' ' ' | sed 's/ $//') |"
		done
	done
	echo
	echo "</details>"
}

# The cells "IDs per second | share of the format's capacity | ticks the IDs are dated in |
# share of those ticks' capacity" of N IDs made in MS ms: cap_cells GENERATOR N MS TICKS
cap_cells() {
	awk -v n="$2" -v m="$3" -v t="$4" -v cap="${CAP_PER_S[$1]}" -v p="${CAP_PER_TICK[$1]}" 'BEGIN {
		if (m != "nan" && m > 0) printf "%.0f | %.1f%%", n / m * 1000, 100 * n / m * 1000 / cap; else printf "– | –"
		if (t != "nan" && t > 0) printf " | %.0f | %.1f%%\n", t, 100 * n / t / p; else print " | – | –" }'
}

cap_report() {
	local c med
	echo "### Capacity: one session, SELECT count(f()) over generate_series, medians of $CAP_ROUNDS rounds"
	echo
	local ticks
	echo "| generator | IDs | ms (median) | IDs per second | share of the format's capacity | ticks the IDs are dated in | share of those ticks' capacity |"
	echo "|---|---:|---:|---:|---:|---:|---:|"
	for c in "${CAP_CANDS[@]}"; do
		med=$(ctimes cap "$c" | median)
		ticks=$(ctimes ticks "$c" | median)
		echo "| ${CAP_LABEL[$c]} | ${CAP_N[$c]} | $(fmt "$med" 1) | $(cap_cells "$c" "${CAP_N[$c]}" "$med" "$ticks") |"
	done
	echo
	echo "IDs per second = IDs / elapsed time. A run that starts late in one tick and ends early in"
	echo "another lasts less than its ticks: with uid60's 1 s ticks (5 per run) that edge can read"
	echo "above 100%. The last column divides by the ticks the IDs are dated in: 100% means every"
	echo "tick the generator used was filled."
}

# per-round marginal ns per ID of a hot path candidate: hot_margs SECTION CANDIDATE [net]
# (net: less the time it waited for the next tick)
hot_margs() {
	local n=${HOT_N[$2]}
	if [ "${3:-}" = net ]; then
		netdiffs "$1" "$2" "floor_$n" "$2_wait"
	else
		diffs "$1" "$2" "floor_$n"
	fi | awk -v n="$n" '{ print $1 * 1e6 / n }'
}

# the arguments as "a, b, c", or "none"
list() { if [ $# = 0 ]; then echo none; else printf '%s, ' "$@" | sed 's/, $//'; fi; }

# a / b, or "–" unless b > 0 (a noisy clock_timestamp() run can read at or below its floor)
hot_ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "nan" || b == "nan" || b <= 0) print "–"; else printf "%.2f\n", a / b }'; }

hot_report() {
	local st s c n marg clk ratio floor waits net netratio verdict ok cap miss ticks med
	declare -A HOT_LABEL=([clock]="clock_timestamp()" [muid]="muid_new() (one transaction)")
	echo "### Hot path (issue 25): marginal cost per ID vs clock_timestamp(), and two sessions vs capacity"
	echo
	echo "State (a): the server as it comes. State (b): $([ "$HOT_B" = 1 ] && echo "after $HOT_B_WHAT" || echo skipped).$([ "$HOT_SNO_BEFORE" != none ] && echo " The server's state file records back-fill in $HOT_SNO_BEFORE before this section: state (a) is after back-fill too.")"
	echo
	for s in "${HOT_NOTES[@]}"; do echo "- $s"; done
	for st in "${HOT_STATES[@]}"; do
		s=hot_$st
		clk=$(hot_margs "$s" clock | median)
		ok=() cap=() miss=()
		echo
		echo "#### State ($st): count(f()) over generate_series(1, n) − count(g) over the same n, medians of $ROUNDS rounds"
		echo
		echo "| generator | n | marginal ns/ID | min–max | vs clock_timestamp() | capacity floor ns/ID | waits for a tick per run | net of waits ns/ID | net vs clock | 2x target |"
		echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"
		for c in "${HOT_CANDS[@]}"; do
			n=${HOT_N[$c]}
			marg=$(hot_margs "$s" "$c" | median)
			ratio=$(hot_ratio "$marg" "$clk")
			floor="–" waits="–" net="–" netratio="–"
			if [ -n "${HOT_TICK_NS[$c]:-}" ]; then
				floor=$(awk -v t="${HOT_TICK_NS[$c]}" -v p="${HOT_PER_TICK[$c]}" 'BEGIN { print t / p }')
				waits=$(ctimes "$s" "${c}_waits" | median)
				net=$(hot_margs "$s" "$c" net | median)
				netratio=$(hot_ratio "$net" "$clk")
			fi
			verdict=$(awk -v c="$c" -v r="$ratio" -v w="$waits" -v m="$marg" -v f="$floor" -v nr="$netratio" 'BEGIN {
				if (c == "clock") print "reference"
				else if (w != "–" && w != "nan" && w > 0)
					print "capacity sets the floor (" sprintf("%.0f", 100 * m / f) "% of it)" (nr != "–" && nr <= 2 ? "; net of waits within 2x" : "")
				else if (r == "–") print "–"
				else if (r <= 2) print "holds"
				else print "misses"
			}')
			case $verdict in
				holds) ok+=("${HOT_LABEL[$c]:-${HOT_EXPR[$c]}}") ;;
				misses) miss+=("${HOT_LABEL[$c]:-${HOT_EXPR[$c]}}") ;;
				capacity*) cap+=("${HOT_LABEL[$c]:-${HOT_EXPR[$c]}}") ;;
			esac
			[ "$floor" = "–" ] || { floor=$(fmt "$floor" 1); waits=$(fmt "$waits" 0); net=$(fmt "$net" 1); }
			echo "| ${HOT_LABEL[$c]:-${HOT_EXPR[$c]}} | $n | $(fmt "$marg" 1) | $(hot_margs "$s" "$c" | minmax) | $ratio | $floor | $waits | $net | $netratio | $verdict |"
		done
		echo
		echo "Within 2x of clock_timestamp(): $(list "${ok[@]}"). Above 2x: $(list "${miss[@]}"). Capacity sets the floor: $(list "${cap[@]}")."
		echo "Floors (count(g)), ms per run: $(for n in $(printf '%s\n' "${HOT_N[@]}" | sort -un); do printf 'n = %s: %s; ' "$n" "$(fmt "$(ctimes "$s" "floor_$n" | median)" 2)"; done | sed 's/; $//')."
		echo
		echo "#### State ($st): two sessions at once, each making CAP_N / 2 IDs into a table, medians of $CAP_ROUNDS rounds"
		echo
		echo "| generator | IDs (both) | ms, first start to last end | start skew ms | IDs per second | share of the format's capacity | ticks the IDs are dated in | share of those ticks' capacity | 95% target |"
		echo "|---|---:|---:|---:|---:|---:|---:|---:|---|"
		for c in "${CAP_CANDS[@]}"; do
			n=$((CAP_N[$c] / 2 * 2))
			med=$(ctimes "pair_$st" "$c" | median)
			ticks=$(ctimes "pair_$st" "${c}_ticks" | median)
			echo "| ${CAP_LABEL[$c]} | $n | $(fmt "$med" 1) | $(fmt "$(ctimes "pair_$st" "${c}_skew" | median)" 1) | $(cap_cells "$c" "$n" "$med" "$ticks") | $(awk -v n="$n" -v t="$ticks" -v p="${CAP_PER_TICK[$c]}" 'BEGIN {
				if (t == "nan" || t <= 0) print "–"; else print (100 * n / t / p >= 95 ? "holds" : "misses") }') |"
		done
	done
	echo
	echo "Marginal ns/ID = median over rounds of (candidate ms − floor ms of the same n in the same round) × 10⁶ / n."
	echo "n: $N (-n), but for the capacity-bound formats about 1 s of their capacity, at least 4 ticks."
	echo "Capacity floor = tick / IDs per tick (doc/formats.md): sno 4 ms / ${HOT_PER_TICK[sno]}, snowflake_si 1 ms / ${HOT_PER_TICK[snowflake_si]},"
	echo "revts8 1 ms / ${HOT_PER_TICK[revts8]}, uid60 1 s / ${HOT_PER_TICK[uid60]}. Waits: the growth of uid_stats().overflow_waits over the run (median);"
	echo "a run that waited is capacity-bound: the format, not the CPU, set its time, and the 2x target does"
	echo "not apply. A run starts anywhere in its first tick, whose IDs are all still free, so with few ticks"
	echo "(uid60: 4) it reads well below the floor. Net of waits: less uid_stats().overflow_wait_us; the"
	echo "wake-up after each wait, and a tick missed by a late one, are still in it: an upper bound of the"
	echo "CPU cost, so \"net of waits within 2x\" means the generator's own cost holds the target."
	echo "Two sessions: IDs per second over the span from the first start to the last end; the last"
	echo "share divides by the ticks the IDs are dated in, as in the capacity section (the 95% target)."
}

# What every generated ID pays for, in isolation: the floor under sno_new().
primitives_report() {
	local bin=$TMP/primitives
	echo "### Primitives (bench/primitives.c, $((20000000 / 1000000))M calls each, outside the server)"
	echo
	if ! ${CC:-cc} -O2 -o "$bin" "$SCRIPT_DIR/primitives.c" 2>/dev/null; then
		echo "(no C compiler: not measured)"
		return
	fi
	echo "| operation | ns per call |"
	echo "|---|---:|"
	"$bin" "$TMP/primitives.state"
	echo
	echo "sno_new() reads the precise clock once per ID and makes one compare-and-swap: together they are most"
	echo "of its marginal cost. The coarse clock is cheaper but lags by up to one kernel tick (4 ms at HZ=250),"
	echo "which would stamp IDs earlier than they were made; uid does not use it."
}
