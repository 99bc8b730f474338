#!/usr/bin/env bash
# Mutation of the rules that decide uniqueness (src/core/record.c,
# record.h, source.h, pool.h, and backfill.c's and backfill.h's of what a
# state file knows): a fixed list of mutants, each a one- or two-line bug
# a developer could make.  Each is applied to a copy of src/core, and must
# be killed: first by the unit tables (test/unit/core_test: record_test.c,
# record_publish_test.c, source_test.c, pool_test.c); a mutant they let
# live is run by the simulator's default seeds (test/sim/sim --seeds 1-2000).  Prints each
# mutant's verdict and the score, and exits 1 when a mutant survives that
# is not marked, or a mark is wrong (a mutant marked equivalent, or as
# needing the simulator, that a test kills), or a mutant's text is gone or
# it does not build.
#
# A mutant:
#   mutant NAME FILE FUNCTION FROM TO [MARK]
#   also FUNCTION FROM TO          (a second change of the same mutant)
# FROM is exact text (\n and \t stand for a newline and a tab) that must
# occur exactly once in FUNCTION's definition in src/core/FILE, and is
# replaced by TO (test/lib-mutate.sh applies it, as it does the simulator's
# plants); a function not defined once, or text found there no time or
# twice, fails the run ("its text is gone"), never counts as killed.
# MARK: "equivalent: why" (no test can kill it: the reason beside it) or
# "needs simulator: what" (only a simulator change could; reported apart,
# not a failure).  Equivalent and needs-simulator mutants are run too: a
# test that kills one shows the mark is wrong.
#
#   MUTANTS="a b"       run only these
#   MUTATE_JOBS=N       mutants side by side (default: the number of cores)
#   MUTATE_SIM_SEEDS    the simulator's seeds (default 1-2000)
#   MUTATE_SIM_ALL=1    run the simulator on every mutant, killed by the unit
#                       tables or not: what the simulator alone kills
#
# Usage: test/unit/mutate.sh [CC]   (run from the top of the source tree)
set -eu
CC=${1:-${CC:-cc}}
SEEDS=${MUTATE_SIM_SEEDS:-1-2000}
SIM_ALL=${MUTATE_SIM_ALL:-0}
jobs=${MUTATE_JOBS:-$(nproc 2>/dev/null || echo 1)}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
start=$SECONDS

. test/lib-mutate.sh
names=
declare -A mfile mmark
mutant() {
	case " ${MUTANTS:-$1} " in *" $1 "*) ;; *) changes_begin ""; return 0 ;; esac
	[ -z "${mfile[$1]:-}" ] || { echo "mutant $1 defined twice" >&2; exit 2; }
	names="$names $1"
	mfile[$1]=$2 mmark[$1]=${6:-}
	changes_begin "$1" "$3" "$4" "$5"
}

# The unit tables, as the Makefile builds test/unit/core_test, over CORE's copy.
build_unit() {
	cc_link "$2" -std=gnu11 -O2 -Wall -Wextra -Wno-unused-parameter -DUID_SIM -Itest/sim -I"$1" -Isrc -- \
		test/unit/core_test.c test/unit/record_test.c test/unit/record_publish_test.c \
		test/unit/source_test.c test/unit/backfill_test.c test/unit/pool_test.c test/unit/core_fake.c \
		"$1/core/record.c" "$1/core/backfill.c"
}

# Runs one mutant; writes its verdict (one word) and its detail to its directory.
run_one() {
	local name=$1 dir="$work/$1" mark=${mmark[$1]} unit_kill= sim_kill= verdict detail t0=$SECONDS
	copy_core "$dir"
	if ! apply_changes "$name" "$dir/core/${mfile[$name]}" "${mfile[$name]}" 2>"$dir/perl"; then
		printf 'GONE\t%s\n' "$(head -1 "$dir/perl")" >"$dir/verdict"
		return
	fi
	if ! build_unit "$dir" "$dir/core_test" >"$dir/build" 2>&1; then
		printf 'BROKEN\tdoes not build: %s\n' "$(grep -m1 error "$dir/build")" >"$dir/verdict"
		return
	fi
	if ! timeout 120 "$dir/core_test" >"$dir/unit" 2>&1; then
		unit_kill=$(sed -n 's/.*: FAIL: .*\[\(.*\), iteration [0-9]*\]$/\1/p' "$dir/unit" | head -1)
		[ -n "$unit_kill" ] || unit_kill="$(grep -m1 FAIL "$dir/unit" || echo "exit status or time out")"
	fi
	if [ -z "$unit_kill" ] || [ "$SIM_ALL" = 1 ]; then
		if ! build_sim "$dir" "$dir/sim" >"$dir/build" 2>&1; then
			printf 'BROKEN\tthe simulator does not build: %s\n' "$(grep -m1 error "$dir/build")" >"$dir/verdict"
			return
		fi
		if ! timeout 1200 "$dir/sim" --seeds "$SEEDS" --quiet >"$dir/sim.out" 2>&1; then
			sim_kill=$(sed -n 's/^FAIL //p' "$dir/sim.out" | head -1)
			[ -n "$sim_kill" ] || sim_kill="exit status or time out"
		fi
	fi
	case $mark in
	equivalent:*) kind=equivalent ;;
	"needs simulator:"*) kind=needs-sim ;;
	*) kind= ;;
	esac
	if [ -n "$unit_kill" ] || [ -n "$sim_kill" ]; then
		detail="${unit_kill:+unit: $unit_kill}"
		[ -z "$sim_kill" ] || detail="${detail:+$detail; }simulator: $sim_kill"
		if [ -n "$kind" ]; then
			verdict=MISMARKED detail="marked $kind, but killed ($detail)"
		elif [ -n "$unit_kill" ]; then
			verdict=unit
		else
			verdict=sim
		fi
	elif [ -n "$kind" ]; then
		verdict=$kind detail=${mark#*: }
	else
		verdict=SURVIVED detail="neither the unit tables nor seeds $SEEDS"
	fi
	printf '%s\t%s\t%s\t%s\n' "$verdict" "$detail" "$([ -n "$sim_kill" ] && echo 1 || echo 0)" \
		"$((SECONDS - t0))" >"$dir/verdict"
}

# ---------------------------------------------------------------- the list
#
# Issue 54's sixteen (the issue names five and counts two equivalent; the
# rest are rebuilt from its description), as the rules are now: the order
# of requests, refused values kept, the pending signal, the writer word,
# Citus's group 0, and the like in each rule.

# A record requested at the very reload taken (equal times) taken as its answer.
mutant plan-order-equal record.c uid_record_plan \
	'in_force->requested > uid_record_need_after(need)' \
	'in_force->requested >= uid_record_need_after(need)'
# A second proposal answering the same request as the record in force published again.
mutant accept-order-equal record.c uid_record_accepts \
	'in_force->requested >= proposal->requested' \
	'in_force->requested > proposal->requested'
# A refused setting keeps the value of a record of an earlier server life.
mutant keep-earlier-life record.c uid_record_keep_refused \
	'fields == 0 || in_force->gen == 0 || in_force->life != proposal->life' \
	'fields == 0 || in_force->gen == 0'
# A settings worker's pending reload signal not checked before it publishes.
mutant publish-pending record.c uid_record_publish \
	'(uid_plat_reload_signalled() ||' \
	'(false ||'
# A dead writer's word never taken over: every later publication of the life BUSY.
mutant dead-writer-kept record.c uid_record_claim \
	'(w >> 32) == (self >> 32) && uid_plat_alive((uint32) w)' \
	'(w >> 32) == (self >> 32)'
# A living writer's word taken over (0.6.0 case 5: a stalled worker resumes and writes over).
mutant living-writer-taken record.c uid_record_claim \
	'w != 0 && (w >> 32) == (self >> 32) && uid_plat_alive((uint32) w)' \
	'false'
# The writer word of an earlier server life kept while its process id names a living process.
mutant earlier-writer-kept record.c uid_record_claim \
	'w != 0 && (w >> 32) == (self >> 32) && uid_plat_alive' \
	'w != 0 && uid_plat_alive'
# Node group 0 (the coordinator's) taken for no Citus: the default identity.
mutant group0-as-none source.h uid_id_source \
	'if (in->group >= 0)' \
	'if (in->group > 0)'
# A record of an earlier server life usable after a refresh that failed (0.6.0 case 4).
mutant usable-earlier-life record.c uid_record_usable \
	'return in_force->gen != 0 && in_force->life == life;' \
	'return in_force->gen != 0;'
# A session that took a reload stands in with its own values where no record exists.
mutant inherit-after-reload record.c uid_record_fallback \
	'need->own == UID_SOURCE_SESSION && need->reload_time >= 0 && !need->pending' \
	'need->own == UID_SOURCE_SESSION && !need->pending'
# A record published while the wall clock stood still taken for a later reload's.
mutant frozen-clock record.c uid_record_plan \
	'in_force->published_us > in_force->reload_time' \
	'in_force->published_us >= in_force->reload_time'
# A node group (or lease id) one past a type's fields taken: it wraps onto another node's.
mutant split-last source.h uid_id_split \
	'if (id > max)' \
	'if (id > max + 1)'
# With uid.cluster alone, group 64 taken as revts8's generator: its 6 bits wrap to 0, the coordinator's.
mutant cluster-alone-edge source.h uid_id_split_cluster \
	'if (id >= lows)' \
	'if (id > lows)'
# A task on a worker without metadata takes group 0, the coordinator's.
mutant unsynced-as-zero source.h uid_group_of_row \
	'return task ? UID_GROUP_UNSYNCED : 0;' \
	'return 0;'
# Two equivalent ones.
mutant need-after-tie record.h uid_record_need_after \
	'need->signalled > need->after ?' \
	'need->signalled >= need->after ?' \
	'equivalent: where the two are equal, either is the value returned'
mutant usable-no-gen record.c uid_record_usable \
	'return in_force->gen != 0 && in_force->life == life;' \
	'return in_force->life == life;' \
	'equivalent: a record of gen 0 is all zero (uid_record_read) and no life is 0 (record.h; published.c sets its low bit)'

# And the simulator's plants of these rules (test/sim/plant.sh), as one-line mutants.
# A session with no record at all publishes what it read (plant first, 0.6.0 case 1).
mutant plan-first record.c uid_record_plan \
	'if (need->own == UID_SOURCE_SINGLE_USER)' \
	'if (need->own == UID_SOURCE_SINGLE_USER || (need->own == UID_SOURCE_SESSION && in_force->gen == 0))'
# A process forked under the last reload publishes its own values (plant parallel, 0.6.0 case 2).
mutant plan-parallel-own record.c uid_record_plan \
	'\t\treturn UID_PLAN_USE;\n\treturn UID_PLAN_REFRESH;' \
	'\t\treturn UID_PLAN_USE;\n\tif (need->reload_time >= 0)\n\t\treturn UID_PLAN_PUBLISH_OWN;\n\treturn UID_PLAN_REFRESH;'
# With no worker to publish a reload, the record in force used whatever it changed (plant noslot).
mutant fallback-noslot record.c uid_record_fallback \
	'uid_record_same_identity(in_force, own))\n\t\t\treturn UID_PLAN_USE;\n\t\treturn UID_PLAN_REFUSE;' \
	'uid_record_same_identity(in_force, own))\n\t\t\treturn UID_PLAN_USE;\n\t\treturn UID_PLAN_USE;'
# A record more than a second old not usable (plant refuse, 0.6.0 case 6).
mutant usable-fresh-only record.c uid_record_usable \
	'return in_force->gen != 0 && in_force->life == life;' \
	'return in_force->gen != 0 && in_force->life == life &&\n\t\tuid_plat_unix_us() - in_force->published_us < 1000000;'
# A lease taken over by the node group (plant group-over-lease).
mutant group-over-lease source.h uid_id_source \
	'\t\treturn UID_ID_LEASE;' \
	'\t\treturn in->group >= 0 ? UID_ID_CITUS : UID_ID_LEASE;'
# With uid.cluster alone, the group split as with no hand setting (plant cluster-alone-split).
mutant cluster-alone-wrap source.h uid_id_split_cluster \
	'\tif (id >= lows)\n\t\treturn false;\n\t*low = id;\n' \
	'\t*low = id % lows;\n'
# A group kept whatever invalidation reached the process since (plant stale-group).
mutant stale-group source.h uid_group_current \
	'return c->read_at == invals;' \
	'return c->read_at != UINT64_MAX;'

# Issue 49's rules: the signal counts from when it came, the fallback's
# comparison, the note of signals other processes took.

# A reload signal counts only once taken (0.7.0's need; case 3, a long procedure).
mutant need-after-taken record.h uid_record_need_after \
	'return need->signalled > need->after ? need->signalled : need->after;' \
	'return need->after;'
# The earlier of the two.
mutant need-after-min record.h uid_record_need_after \
	'need->signalled > need->after ?' \
	'need->signalled < need->after ?'
# The reload-time path with a signal received: a reload taken under a clock that stood still.
mutant plan-signalled record.c uid_record_plan \
	'need->reload_time >= 0 && need->signalled == 0 && !need->pending' \
	'need->reload_time >= 0 && !need->pending'
# The reload-time path with a signal pending.
mutant plan-pending record.c uid_record_plan \
	'need->signalled == 0 && !need->pending &&' \
	'need->signalled == 0 &&'
# The reload-time path for an inherited record no more (a worker forever where none is needed).
mutant plan-inherited record.c uid_record_plan \
	' || in_force->source == UID_SOURCE_INHERITED)' \
	')'
# A single-user server publishes its own values again on every call.
mutant plan-single-user record.c uid_record_plan \
	'return this_life ? UID_PLAN_USE : UID_PLAN_PUBLISH_OWN;' \
	'return UID_PLAN_PUBLISH_OWN;'
# The fallback compares own values older than the server's (plant equal).
mutant fallback-pending record.c uid_record_fallback \
	'if (!need->pending && !need->overridden && !need->parallel && own != NULL &&' \
	'if (!need->overridden && !need->parallel && own != NULL &&'
# The fallback compares a session's own settings.
mutant fallback-overridden record.c uid_record_fallback \
	'if (!need->pending && !need->overridden && !need->parallel && own != NULL &&' \
	'if (!need->pending && !need->parallel && own != NULL &&'
# The fallback compares a parallel worker's (its leader's) values (plant parallel-equal).
mutant fallback-parallel record.c uid_record_fallback \
	'if (!need->pending && !need->overridden && !need->parallel && own != NULL &&' \
	'if (!need->pending && !need->overridden && own != NULL &&'
# A record that answers the need after all refused where own values differ.
mutant fallback-no-replan record.c uid_record_fallback \
	'if (uid_record_plan(in_force, need) == UID_PLAN_USE)' \
	'if (false)'
# With no record, a session with a signal pending stands in.
mutant fallback-inherit-pending record.c uid_record_fallback \
	'need->reload_time >= 0 && !need->pending &&' \
	'need->reload_time >= 0 &&'
# With no record, a parallel worker stands in.
mutant fallback-inherit-parallel record.c uid_record_fallback \
	'!need->overridden && !need->parallel)' \
	'!need->overridden)'
# Records differing only in their refusals given the same identity.
mutant same-identity-bound record.c uid_record_same_identity \
	'i < UID_REC_NFIELDS' \
	'i < UID_REC_REFUSED'
# A signal noted at the very request (equal times) not stale.
mutant stale-equal record.c uid_record_accepts \
	'signalled >= proposal->requested' \
	'signalled > proposal->requested'
# Any reload noted in the life, before the request too, stale: no worker publishes after the first.
mutant stale-any-signal record.c uid_record_accepts \
	'signalled >= proposal->requested' \
	'signalled != 0'
# The note of signals others took not read by the rule (plant signalled's half).
mutant stale-dropped record.c uid_record_accepts \
	'if (proposal->source == UID_SOURCE_POSTMASTER && signalled >= proposal->requested)' \
	'if (false)'
# Stale for every source: inherited and single-user values never published past a note.
mutant stale-any-source record.c uid_record_accepts \
	'proposal->source == UID_SOURCE_POSTMASTER && signalled >= proposal->requested' \
	'signalled >= proposal->requested'
# A note ahead of the monotonic clock (an earlier boot's) taken: nothing published until the clock passes it.
mutant signalled-ahead record.c uid_record_signalled \
	'return v > uid_plat_mono_us() ? 0 : v;' \
	'return v;'
# A note made at the very microsecond of now ignored.
mutant signalled-now record.c uid_record_signalled \
	'v > uid_plat_mono_us()' \
	'v >= uid_plat_mono_us()'
# A signal noted while the body was written (at the request) not stale.
mutant publish-stale-equal record.c uid_record_publish \
	'uid_record_signalled(signalled) >= proposal->requested' \
	'uid_record_signalled(signalled) > proposal->requested'
# The note not read again before the compare-and-swap.
mutant publish-note-dropped record.c uid_record_publish \
	'(uid_plat_reload_signalled() ||\n\t\t\t (proposal->source == UID_SOURCE_POSTMASTER &&\n\t\t\t  uid_record_signalled(signalled) >= proposal->requested))' \
	'uid_plat_reload_signalled()'
# Inherited values published with a reload signal pending.
mutant publish-inherited-pending record.c uid_record_publish \
	'(proposal->source == UID_SOURCE_POSTMASTER ||\n\t\t\t proposal->source == UID_SOURCE_INHERITED) &&' \
	'proposal->source == UID_SOURCE_POSTMASTER &&'

# The rest of each rule.

# A proposal older than a record of an earlier life (another boot's clock) refused.
mutant accept-other-life record.c uid_record_accepts \
	'in_force->gen != 0 && in_force->life == proposal->life &&' \
	'in_force->gen != 0 &&'
# Inherited values replace a record of this life.
mutant accept-inherited record.c uid_record_accepts \
	'(in_force->requested >= proposal->requested ||\n\t\t proposal->source == UID_SOURCE_INHERITED)' \
	'in_force->requested >= proposal->requested'
# A session's proposal accepted by the rule (publication checks it again).
mutant accept-session record.c uid_record_accepts \
	'proposal->source != UID_SOURCE_POSTMASTER && proposal->source != UID_SOURCE_SINGLE_USER &&' \
	'false && proposal->source != UID_SOURCE_SINGLE_USER &&'
# A session's proposal claims the writer word before the rule refuses it.
mutant publish-session record.c uid_record_publish \
	'proposal->source != UID_SOURCE_POSTMASTER && proposal->source != UID_SOURCE_SINGLE_USER &&' \
	'false && proposal->source != UID_SOURCE_SINGLE_USER &&'
# A refused end of back-fill alone not kept.
mutant keep-backfill record.c uid_record_keep_refused \
	'if (refused & UID_REC_REFUSED_BACKFILL)' \
	'if (false)'
# The live range kept without the record's back-fill refusal.
mutant keep-ranges-apart record.c uid_record_keep_refused \
	'kept_bits |= UID_REC_REFUSED_BACKFILL;' \
	'kept_bits |= 0;'
# The last field (the lease key) never kept.
mutant keep-bound record.c uid_record_keep_refused \
	'i < UID_REC_REFUSED' \
	'i < UID_REC_LEASE_KEY'
# A kept field's refusal in the record dropped: the record's placeholder used.
mutant keep-record-refusal record.c uid_record_keep_refused \
	'((uint64) in_force->values[UID_REC_REFUSED] & kept_bits)' \
	'0'
# A kept field still marked refused: its generators refuse.
mutant keep-own-refusal record.c uid_record_keep_refused \
	'(refused & ~kept_bits) |' \
	'refused |'
# Publication does not keep refused values.
mutant publish-no-keep record.c uid_record_publish \
	'uid_record_keep_refused(&in_force, proposal);' \
	''
# The new record written into the body in force.
mutant publish-body-in-force record.c uid_record_publish \
	'(cur & 1) ^ 1' \
	'cur & 1'
# The body's seq not made odd while it is written.
mutant publish-no-odd record.c uid_record_publish \
	'uid_word_write(&b->seq, proposal->gen * 2 - 1);' \
	''
# The publication numbered as the one before.
mutant publish-gen record.c uid_record_publish \
	'proposal->gen = (cur >> 1) + 1;' \
	'proposal->gen = cur >> 1;'
# The writer word left to a publisher that is done.
mutant publish-keeps-writer record.c uid_record_publish \
	'(void) uid_word_cas(&s->writer, &mine, 0);' \
	'(void) mine;'
# The word in force written, not compared and swapped.
mutant publish-cas record.c uid_record_publish \
	'else if (!uid_word_cas(&s->current, &cur, next))\n\t\t\tverdict = UID_PUB_OLDER;' \
	'else\n\t\t\tuid_word_write(&s->current, next);' \
	'equivalent: the writer word keeps every other publisher out while this one lives (uid_record_claim takes it only from a process that no longer exists, or of an earlier server life, whose shared memory is another), so nothing else writes the word in force under it'
# The writer word changed between its read and the compare-and-swap: BUSY.
mutant claim-no-retry record.c uid_record_claim \
	'if (uid_word_cas(&s->writer, &w, self))\n\t\t\treturn true;' \
	'return uid_word_cas(&s->writer, &w, self);'
# The writer word already this process's: BUSY.
mutant claim-self record.c uid_record_claim \
	'if (w == self)\n\t\t\treturn true;\n\t\t' \
	''
# A body rewritten while read taken as read (its seq not read again).
mutant read-torn record.c uid_record_read \
	'if (uid_word_read(&b->seq) != seq)\n\t\t\tcontinue;' \
	'(void) uid_word_read(&b->seq);'
# A body whose seq is not the word in force's read all the same.
mutant read-odd record.c uid_record_read \
	'if (seq != (cur >> 1) * 2)' \
	'if (false)'
# The source read with the kept flag in its high half.
mutant read-source record.c uid_record_read \
	'out->source = w[REC_SOURCE] & UINT64CONST(0xFFFFFFFF);' \
	'out->source = w[REC_SOURCE];'

# Where an identity comes from (source.h).
mutant none-refused source.h uid_id_source \
	'in->group < UID_GROUP_NONE' \
	'in->group <= UID_GROUP_NONE'
mutant citus-first source.h uid_id_source \
	'\tif (in->hand)\n\t\treturn UID_ID_HAND;\n' \
	'\tif (in->group >= 0)\n\t\treturn UID_ID_CITUS;\n\tif (in->hand)\n\t\treturn UID_ID_HAND;\n'
# A default identity used where the database has a subscription (0.7.0).
mutant shared-ignored source.h uid_id_source \
	'if (in->subscribed)' \
	'if (false)'
# A subscription refusing a node group's identity (Citus moves shards by subscriptions).
mutant shared-over-citus source.h uid_id_source \
	'\tif (in->group >= 0)\n\t\treturn UID_ID_CITUS;\n\tif (in->subscribed)' \
	'\tif (in->subscribed)\n\t\treturn UID_ID_SHARED;\n\tif (in->group >= 0)\n\t\treturn UID_ID_CITUS;\n\tif (false)'
mutant hand-over-lease source.h uid_id_source \
	'\tif (in->leased)\n\t\treturn UID_ID_LEASE;\n\tif (in->hand)\n\t\treturn UID_ID_HAND;\n' \
	'\tif (in->hand)\n\t\treturn UID_ID_HAND;\n\tif (in->leased)\n\t\treturn UID_ID_LEASE;\n'
mutant split-max source.h uid_id_split \
	'if (id > max)' \
	'if (id >= max)'
mutant split-mask source.h uid_id_split \
	'*low = id % lows;' \
	'*low = id & (lows - 1);' \
	'equivalent: every caller passes a power of two for lows (64 revts8 generators, 512 uid60 workers, 2^(13-k) snowflake_si machines)'
mutant row-zero-nodes source.h uid_group_of_row \
	'row == 0 && !has_nodes' \
	'row == 0'
mutant keep-unknown source.h uid_group_keep \
	'if (group == UID_GROUP_UNKNOWN)' \
	'if (false)'
mutant group-current-ge source.h uid_group_current \
	'return c->read_at == invals;' \
	'return c->read_at >= invals;'

# What a state file knows of the IDs made before it (backfill.c, backfill.h):
# uid_fence_restore()'s verdict and lease after a pg_upgrade, and from when
# back-fill may date an ID with a file made anew (issue 51).
# A file with a lease (0.3.0 on) taken for one made anew.
mutant record-lease backfill.c uid_state_has_record \
	'if (uid_word_read(&lease->lease_us) != 0 ||\n\t\tuid_word_read(used_since)' \
	'if (uid_word_read(used_since)'
# A file whose record of live sequences was taken over taken for one made anew.
mutant record-since backfill.c uid_state_has_record \
	'uid_word_read(used_since) != UID_USED_SINCE_FENCE' \
	'uid_word_read(used_since) == UID_USED_SINCE_FENCE'
# A file whose record of live sequences began, taken for one made anew.
mutant record-used backfill.c uid_state_has_record \
	' ||\n\t\tuid_word_read(used) != 0)' \
	')'
# The last slot's words not read (a file of 0.1.0 with marks in it alone).
mutant record-last-slot backfill.c uid_state_has_record \
	'for (int i = 0; i < nslots; i++)' \
	'for (int i = 0; i < nslots - 1; i++)'
# The lease after a pg_upgrade: the file's ignored.
mutant restore-no-file backfill.h uid_restore_lease \
	'return file > lease_now ? file : lease_now;' \
	'return lease_now;'
# The lease after a pg_upgrade: none where the file holds a record (before
# 0.7.0 was released; the simulator's restore plant).
mutant restore-none backfill.h uid_restore_lease \
	'return file > lease_now ? file : lease_now;' \
	'return has_record ? 0 : lease_now;'
# The lease after a pg_upgrade: the file's, however far behind the clock.
mutant restore-no-now backfill.h uid_restore_lease \
	'return file > lease_now ? file : lease_now;' \
	'return has_record ? file : lease_now;'
# A file made anew: its unknown history ends a tick late (the fence's tick
# The record widened, not synced before the ID goes out (plant durable's syncs).
mutant widen-no-sync backfill.c uid_used_widen \
	'continue;\n\t\t\tsync();\n' \
	'continue;\n'
# A record another backend widened and has not synced taken as it is.
mutant widen-shared-no-sync backfill.c uid_used_widen \
	'sync too */\n\t\t\tsync();\n' \
	'sync too */\n'
# From when a part was used, lowered for the ID, not synced where the record needs no widening.
mutant widen-from-no-sync backfill.c uid_used_widen \
	'if (fresh_from)\n\t\t\t\t\tsync();\n' \
	'if (fresh_from)\n\t\t\t\t\t(void) 0;\n'
# The record marked durable before the sync.
mutant widen-durable-early backfill.c uid_used_widen \
	'if (!uid_word_cas(used, &u, want))' \
	'if (!uid_word_cas(used, &u, want | UID_USED_DURABLE))'
# when the fence is at the tick's start).
mutant take-over-tick backfill.c uid_used_take_over \
	'(fence_us - 1 - (uint64) spec->epoch_us)' \
	'(fence_us - (uint64) spec->epoch_us)'
# An older file: only timeline 0's mark bounds its unknown history.
mutant take-over-mark0 backfill.c uid_used_take_over \
	'uid_raise_u64(used_since, m0 > m1 ? m0 : m1);' \
	'uid_raise_u64(used_since, m0);'
# An older file: its unknown history set, not raised (a later one lowered).
mutant take-over-set backfill.c uid_used_take_over \
	'uid_raise_u64(used_since, m0 > m1 ? m0 : m1);' \
	'uid_word_write(used_since, m0 > m1 ? m0 : m1);'
# An older file taken for one made anew: its history up to the fence only.
mutant take-over-older-fence backfill.c uid_used_take_over \
	'if (since == UID_USED_SINCE_FENCE)' \
	'if (true)'

# The lease pool's rules (pool.h; test/unit/pool_test.c's tables).
# A hold's end wrapped past the clock's end into the past (before 0.7.0).
mutant hold-wraps pool.h uid_pool_hold_end \
	'uid_pool_add_us(uid_pool_add_us(now_us, ttl), grace_us)' \
	'now_us + ttl + grace_us'
# A hold's end without the longest TTL the pool gave.
mutant hold-ttl-asked pool.h uid_pool_hold_end \
	'Max(max_ttl_us, ttl_us)' \
	'ttl_us'
# A hold past the longest lease there can be (a row edited by hand).
mutant hold-ttl-unbounded pool.h uid_pool_hold_end \
	'Min(Max(max_ttl_us, ttl_us), UID_POOL_TTL_MAX_US)' \
	'Max(max_ttl_us, ttl_us)'
# A promoted synchronous standby taken for a pool gone back.
mutant went-back-synced pool.h uid_pool_went_back \
	'(!same_timeline && !synced)' \
	'!same_timeline'
# synchronous_commit = local kept for a claim.
mutant commit-local pool.h uid_pool_commit_level \
	'session < UID_COMMIT_REMOTE_WRITE' \
	'session < UID_COMMIT_LOCAL'
# A lease that expires this microsecond renewed on hold.
mutant renews-at-expiry pool.h uid_pool_renews \
	'expires_us > now_us;' \
	'expires_us >= now_us;'
# A released lease taken back by its key.
mutant reclaims-released pool.h uid_pool_reclaims \
	'same_key && !released &&' \
	'same_key &&'
# The claims' count not moved past the clock when a hold begins.
mutant token-kept pool.h uid_pool_token_floor \
	'return Max(claims, now_us);' \
	'return claims;'
# A hold that ends at now_us still on.
mutant hands-out-late pool.h uid_pool_hands_out \
	'return hold_us <= now_us;' \
	'return hold_us < now_us;'

# ---------------------------------------------------------------- the run

[ -n "$names" ] || { echo "no mutant named ${MUTANTS:-}" >&2; exit 2; }
objects_once build_unit build_sim
for name in $names; do
	while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
	run_one "$name" &
done
wait

unit=0 sim=0 equiv=0 needs=0 failed=0 total=0 by_sim=0
for name in $names; do
	total=$((total + 1))
	sim_killed=0
	secs=
	IFS=$'\t' read -r verdict detail sim_killed secs <"$work/$name/verdict"
	by_sim=$((by_sim + ${sim_killed:-0}))
	case $verdict in
	unit) unit=$((unit + 1)); shown="killed by the unit tables" ;;
	sim) sim=$((sim + 1)); shown="killed by the simulator" ;;
	equivalent) equiv=$((equiv + 1)); shown="equivalent" ;;
	needs-sim) needs=$((needs + 1)); shown="needs the simulator" ;;
	*) failed=$((failed + 1)); shown=$verdict ;;
	esac
	printf '%-26s %4s s  %-26s %s\n' "$name" "${secs:-0}" "$shown" "$detail"
done
counted=$((total - equiv))
killed=$((unit + sim))
score=$(awk -v k="$killed" -v n="$counted" 'BEGIN { printf "%.0f", n ? 100 * k / n : 100 }')
echo "mutation: $killed of $counted killed ($score%): $unit by the unit tables, $sim by the simulator (seeds $SEEDS); $equiv equivalent, $needs need the simulator; $total mutants in $((SECONDS - start)) s"
[ "$SIM_ALL" != 1 ] || echo "mutation: the simulator alone kills $by_sim of $counted"
if [ "$failed" -gt 0 ]; then
	echo "mutation: $failed mutants survived, are marked wrong, or lost their text (above)" >&2
	exit 1
fi
