#!/usr/bin/env bash
# Plants known bugs in copies of the generator core and checks that the
# simulator finds each, within the seeds simcheck runs.  A plant whose text is
# no longer in the core cannot pass by planting nothing: it is reported apart
# (CANNOT PLANT, exit 2), not as a bug the simulator missed (below).
#
#   cas    the state word is written without comparing (a CAS that drops its
#          sequence check): two backends issue the same pair
#   fence  the fence stops at the clock: IDs borrowed ahead of it are
#          forgotten after a crash or a failover
#   lease  the lease covers the clock, not the tick issued: borrowed IDs go
#          out beyond what WAL holds
#   reach  the lease covers each tick's end, not its start (0.5.0's rule):
#          a fence moves every type as far as the coarsest tick in use
#   pace   the pace never makes a backend wait: borrowing runs ahead of
#          real time
#   raise  a raise to a lease's floor adds a tick (0.5.0's rule for the
#          fence, which marked ticks that end before it): IDs a tick late
#   floor  a leased identity's floor is not checked: a new holder of an id
#          issues before its claim returned
#   durable the record of live sno sequences is widened without a sync of
#          the state file (0.6.0 before it had UID_USED_DURABLE): an
#          operating-system crash loses it, and back-fill repeats a live ID
#          (with a backend's copy of the record kept only after a sync of
#          its own: see the plant)
#   used   back-fill does not check the record of live sequences: a back-fill
#          range carved out of a live range repeats live IDs
#   overlap a new back-fill range that overlaps one used before is not
#          refused: its pass goes over times again and repeats IDs the earlier
#          pass back-filled
#   mark   a back-fill range replaced by a new one is freed for live IDs
#          without the timeline-0 mark raised past its IDs (0.7.0 kept every
#          range used out of the live range instead): live IDs of timeline 0
#          may be dated at or before IDs back-filled with their sequences
#   until  a back-fill call does not raise until (the latest tick back-fill
#          dated an ID at) before it writes a lane: the mark is raised short
#          of the replaced range's last IDs
#   restore uid_fence_restore() makes the origin with no lease where the
#          state file holds the old server's record (before 0.7.0 was
#          released): after a pg_upgrade, a standby promoted before the new
#          primary's first ID, with no file or an older one, fences at 0 and
#          makes the old server's IDs again
#   record a state file that holds the old server's record is taken for one
#          made anew: uid_fence_restore() logs a lease of now, short of the
#          old IDs the file's lease covers
#   live   the incarnation leaves the shared state out (uid_incarnation_of):
#          a state read again from the file in one postmaster life (its
#          shared memory removed) is not fenced, and issues again from the
#          file's older marks
#
# And in the settings record (record.c), 0.6.0's cases and two more.  The
# first three make the plan tell a session to publish its own values and
# drop the check that refuses a session's proposal (record.c refuses it
# twice: either alone changes nothing the simulator can see):
#   first  a session that finds no record at all publishes what it read
#          (0.6.0 case 1): a startup option's partition, or an edit no
#          reload delivered, becomes the server's
#   parallel a process forked under the postmaster's last reload that took
#          none publishes its own values when the record is older (0.6.0
#          case 2): a parallel worker's values are its leader's
#   restart a session that finds only a record of an earlier server life
#          publishes its own values (0.6.0 case 4)
#   stale  a worker forked before a reload publishes its values after one
#          forked after it (neither the reload signal it holds nor the
#          note of the signal other processes took stops it): the record
#          goes back to older values
#   signalled the same, only by a worker whose signal was lost (it came
#          before the worker's handling was set up): the note others took
#          is all that stops it
#   wallclock 0.7.0's rule: a proposal whose postmaster reload time is
#          older than the record's is stale, so a wall clock stepped back
#          between two reloads keeps the later from ever being published
#          (issue 49's case 1: calls refuse, as workers could publish)
#   noslot 0.7.0's fallback: with no worker to publish a reload, the record
#          in force is used whatever the reload changed (case 2: an
#          identity given up is handed out, the bound invariant)
#   procedure 0.7.0's need: a reload signal counts only once taken, so a
#          process that never takes it keeps the record (case 3)
#   equal  a process with a reload signal it has not taken compares its
#          older values with the record, and finds them equal
#   parallel-equal a parallel worker compares its leader's values, of
#          before a reload its leader has not taken
#   from   from when a part of the live sequences was used is bounded a
#          tick late: back-fill at a live ID's tick passes the record
#   lower  a backend that allocated before another widened the record over
#          its sequence does not bound from when the part was used by its
#          own tick
#   inherit a session that took a reload stands in with its own values
#          when no settings worker answers and no record of the server
#          life exists: it may hold an edit no reload delivered
#   frozen a new session takes a record for its postmaster reload's by an
#          equal reload time although the wall clock stood still between
#          two reloads: it issues from the earlier one's values
#   stall  the writer word is taken over from a living holder: a stalled
#          settings worker resumes and writes over the record in force
#          (0.6.0 case 5)
#   dead-writer the writer word is kept for a process that no longer
#          lives: every later publication of the server life is refused as
#          busy (the live-writer invariant; issue 54)
#   refuse a record of this server life more than a second old is not
#          usable: a call refuses when no worker can start (0.6.0 case 6)
#
# And where an identity comes from (source.h), in the Citus schedules:
#   citus-first the node group is chosen before the hand value: a node set
#          by hand embeds its group, which a server outside the cluster set
#          by hand as its own (the simulator gives the rule the group
#          whatever the hand value; citus.c reads it only where there is none)
#   stale-group a process keeps the group it read whatever invalidation
#          reached it since: a worker's backend that read 0 before the
#          worker was added embeds the coordinator's group in the cluster
#   split  a group beyond a type's fields is not refused: past 511 it wraps
#          uid60's worker, past 1023 revts8's cluster, past 2047 snowflake_si's
#          machine id, onto another node's
#   shared a default identity is used where the database has a subscription
#          (0.7.0): a server outside a cluster that sets none by hand, once
#          its database subscribed, makes IDs of the identity every such
#          server has where they meet
#   unsynced-as-zero a task on a worker without metadata (its pg_dist_node
#          empty, its row 0) takes group 0: it repeats the coordinator's IDs
#   keep-unknown a process keeps UID_GROUP_UNKNOWN (pg_dist_local_group empty
#          during an upgrade of Citus): the fill, which sends no invalidation,
#          never reaches it, and it refuses on (the available invariant)
#   cluster-alone-split with uid.cluster alone, revts8 splits the group as
#          with no hand setting (generator = group % 64): group 64 repeats the
#          coordinator's generator 0 in the same cluster
#   group-over-lease a node that leases takes its node group first: it
#          embeds its group, another node's lease id (or the coordinator's 0)
#
# And the coordinator's rules for its own failures (pool.h), in the leased
# schedules (src/pool.c applies them for pool_functions.sql):
#   async  a claim or renewal commits at the session's synchronous_commit
#          (0.7.0's pool): with it off, a crash of the coordinator loses a
#          claim, and the next server gets the same id
#   back   a pool restored elsewhere is not seen to have gone back in time
#          (0.7.0's pool): it hands out again ids its lost history gave
#   timeline a new timeline is never going back: a failover to a standby
#          that lagged hands out again ids it never received
#   token  the claims' count does not jump when a hold begins: a token of
#          the lost history is given again, and its holder renews another's
#          lease as its own
#   renew  a lease is renewed on hold though it expired: the lost history
#          may have handed its id to another server, which still uses it
#   hold   a hold lasts the grace alone, not the longest TTL: the lost
#          history's leases outlive it
#   reclaim a claim never takes back the claimant's own live lease (0.7.0's
#          pool): each claim it never heard back from holds an id nobody
#          uses until it expires (the held-once invariant)
# Not planted: a group kept with the count read after its read instead of
# before.  The count is citus.c's, passed in; and in the server an
# invalidation reaches a read only at table_open's lock, before the scan,
# which then sees what the sender committed (the model delivers it there
# too), so the later count would keep nothing stale.
#
# Each plant is located as test/unit/mutate.sh's mutants are (test/lib-mutate.sh
# applies both):
#   plant NAME FILE FUNCTION FROM TO [SEEDS]
#   also FUNCTION FROM TO          (another change of the same plant)
# FROM is exact text (\n and \t stand for a newline and a tab) that must
# occur exactly once in FUNCTION's definition in src/core/FILE (a .c file or
# a header's static inline function), and is replaced by TO.  SEEDS: those
# the plant must be found within (default SIM_SEEDS, else 1-2000).
#
# Outcomes, kept apart:
#   found          the simulator fails a seed of the planted copy
#   NOT FOUND      it passes every seed: a bug the simulator misses (exit 1)
#   CANNOT PLANT   the function or its text is gone, or found twice, or the
#                  planted copy does not build: the plant needs updating to
#                  the code, which says nothing of the simulator (exit 2,
#                  unless a plant is also not found: then exit 1, both listed)
#
#   PLANT_JOBS=N    plants side by side (default: the number of cores)
#   PLANTS="a b"    run only these
#
# Usage: test/sim/plant.sh [CC]   (run from the top of the source tree)
set -eu
CC=${1:-${CC:-cc}}
SEEDS=${SIM_SEEDS:-1-2000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
jobs=${PLANT_JOBS:-$(nproc 2>/dev/null || echo 1)}
. test/lib-mutate.sh

# Plants one, runs the simulator over it, and writes its report and outcome
# (found, missed or cannot) to its directory.
plant_one() {
	local name=$1 dir="$work/$1" start secs
	copy_core "$dir"
	if ! apply_changes "$name" "$dir/core/${pfile[$name]}" "${pfile[$name]}" 2>"$dir/perl"; then
		printf 'plant %s: CANNOT PLANT: %s (the plant needs updating, not a bug found)\n' \
			"$name" "$(head -1 "$dir/perl")" >"$dir/report"
		echo cannot >"$dir/outcome"
		return
	fi
	if ! build_sim "$dir" "$dir/sim" >"$dir/build" 2>&1; then
		printf 'plant %s: CANNOT PLANT: the planted copy does not build: %s (the plant needs updating, not a bug found)\n' \
			"$name" "$(grep -m1 error "$dir/build" || tail -1 "$dir/build")" >"$dir/report"
		echo cannot >"$dir/outcome"
		return
	fi
	start=$(date +%s%N)
	if "$dir/sim" --seeds "${pseeds[$name]}" --quiet >"$dir/out" 2>&1; then
		echo "plant $name: NOT FOUND in seeds ${pseeds[$name]}" >"$dir/report"
		echo missed >"$dir/outcome"
		return
	fi
	secs=$(awk -v a="$start" -v b="$(date +%s%N)" 'BEGIN { printf "%.2f", (b - a) / 1e9 }')
	{
		printf 'plant %-8s found in %s s: %s\n' "$name" "$secs" \
			"$(sed -n 's/^FAIL //p' "$dir/out" | head -1)"
		sed -n 's/^shortest schedule found: /                 shortest: /p' "$dir/out"
	} >"$dir/report"
	echo found >"$dir/outcome"
}

names=
declare -A pfile pseeds
plant() {
	case " ${PLANTS:-$1} " in *" $1 "*) ;; *) changes_begin ""; return 0 ;; esac
	[ -z "${pfile[$1]:-}" ] || { echo "plant $1 defined twice" >&2; exit 2; }
	names="$names $1"
	pfile[$1]=$2 pseeds[$1]=${6:-$SEEDS}
	changes_begin "$1" "$3" "$4" "$5"
}

# ---------------------------------------------------------------- the plants

plant cas alloc.c uid_tick_attempt \
	'if (!uid_word_cas(&slot->word[timeline], &old, tick << UID_SEQ_BITS | start << width | next))\n\t\treturn UID_ATTEMPT_RETRY;' \
	'uid_word_write(&slot->word[timeline], tick << UID_SEQ_BITS | start << width | next);'
plant fence alloc.c uid_fence_marks \
	'\ttick = (fence_us - 1 - (uint64) spec->epoch_us) / (uint64) spec->tick_us;\n' \
	'\ttick = (fence_us - 1 - (uint64) spec->epoch_us) / (uint64) spec->tick_us;\n\ttick = Min(tick, spec->now(spec));\n'
plant lease alloc.h uid_lease_short \
	'return uid_tick_lease_us(spec, tick) + UID_LEASE_US' \
	'return uid_tick_lease_us(spec, Min(tick, spec->now(spec))) + UID_LEASE_US'
plant reach alloc.h uid_tick_lease_us \
	'return (uint64) spec->epoch_us + tick * (uint64) spec->tick_us + 1;' \
	'return (uint64) spec->epoch_us + (tick + 1) * (uint64) spec->tick_us;'
plant pace alloc.c uid_pace_claim \
	'if (at > now && at <= now + spec->tick_us)' \
	'if (0)'
plant raise window.h uid_window_raise_to \
	'\treturn floor_us;\n' \
	'\treturn floor_us + (uint64) spec->tick_us - 1;\n'
plant floor window.h uid_window_check \
	'\tif (end - (uint64) spec->tick_us < floor_us)\n\t\treturn UID_WINDOW_RAISE;\n' \
	''
# durable needs an OS crash right after a widening and a change of sno's
# ranges.  Its three syncs dropped and, as the whole-file regex of before
# had it, "*copy = u;" left under "if (fresh_from)": a backend keeps no copy
# of a durable record it did not widen, and comes back to the record for
# each ID.  With the syncs alone dropped the simulator finds nothing in
# seeds 1-6000 (measured 2026-12-03); the unit tables' widening rows kill
# each sync's absence (mutants widen-*).
plant durable backfill.c uid_used_widen \
	'if (fresh_from)\n\t\t\t\t\tsync();\n' \
	'if (fresh_from)\n\t\t'
also uid_used_widen \
	'sync too */\n\t\t\tsync();\n' \
	'sync too */\n'
also uid_used_widen \
	'continue;\n\t\t\tsync();\n' \
	'continue;\n'
# (both checks go through uid_backfill_live_used: before a pass publishes
# its range, and after)
plant used backfill.c uid_backfill_live_used \
	'\tif (used == 0)\n\t\treturn true;\n' \
	'\treturn false;\n\tif (used == 0)\n\t\treturn true;\n'
plant overlap backfill.c uid_backfill_pass \
	'\tif (old != 0 && !(hi < hlo || lo > hhi))\n\t\treturn UID_BACKFILL_OVERLAPS;\n' \
	''
# a replaced back-fill range freed for live IDs: the mark not raised, or
# raised to an until that back-fill calls never raised
plant mark backfill.c uid_backfill_finish \
	'\t\tif (until != 0)\n\t\t\tuid_raise_u64(w->mark0, until << UID_SEQ_BITS | UID_SNO_SEQ_LAST);\n' \
	''
plant until backfill.c uid_backfill_alloc \
	'\t\tuid_raise_u64(w->until, tick);\n' \
	''
plant live alloc.h uid_incarnation_of \
	'key = uid_mix64(system ^ uid_mix64(live_id));' \
	'key = uid_mix64(system);'
plant restore backfill.h uid_restore_lease \
	'return file > lease_now ? file : lease_now;' \
	'return has_record ? 0 : lease_now;'
plant record backfill.c uid_state_has_record \
	'int nslots)\n{\n' \
	'int nslots)\n{\n\treturn false;\n'
# from when a part was used: bounded a tick late, or not lowered by a
# backend whose ID another widened the record over
plant from backfill.c uid_from_bound \
	'return f->timeline == 0 ? f->tick : ' \
	'return f->timeline == 0 ? f->tick + 1 : '
plant lower backfill.c uid_used_widen \
	'\t\tfresh_from = uid_from_lower(f->from, seq, seq, uid_from_bound(f));\n' \
	'\t\tfresh_from = false;\n'
# a session's proposal accepted (with each of the three plans below): the
# check dropped from the rule and from publication
gate() {
	local check='\tif (proposal->source != UID_SOURCE_POSTMASTER && proposal->source != UID_SOURCE_SINGLE_USER &&\n\t\tproposal->source != UID_SOURCE_INHERITED)\n\t\treturn UID_PUB_NOT_SERVER;\n'
	also uid_record_accepts "$check" ''
	also uid_record_publish "$check" ''
}
plant first record.c uid_record_plan \
	'\tif (need->own == UID_SOURCE_SINGLE_USER)' \
	'\tif (need->own == UID_SOURCE_SINGLE_USER || (need->own == UID_SOURCE_SESSION && in_force->gen == 0))'
gate
plant parallel record.c uid_record_plan \
	'\t\treturn UID_PLAN_USE;\n\treturn UID_PLAN_REFRESH;\n' \
	'\t\treturn UID_PLAN_USE;\n\tif (need->reload_time >= 0)\n\t\treturn UID_PLAN_PUBLISH_OWN;\n\treturn UID_PLAN_REFRESH;\n'
gate
plant restart record.c uid_record_plan \
	'\tif (!this_life)\n\t\treturn UID_PLAN_REFRESH;' \
	'\tif (!this_life)\n\t\treturn in_force->gen != 0 ? UID_PLAN_PUBLISH_OWN : UID_PLAN_REFRESH;'
gate
plant inherit record.c uid_record_fallback \
	'\tif (need->own == UID_SOURCE_SESSION && need->reload_time >= 0 && !need->pending &&\n\t\t!need->overridden' \
	'\tif (need->own == UID_SOURCE_SESSION &&\n\t\t!need->overridden'
# a record of a reload taken for a later one's because the wall clock
# stood still between them (their reload times are equal)
plant frozen record.c uid_record_plan \
	' &&\n\t\tin_force->published_us > in_force->reload_time)' \
	')'
plant dead-writer record.c uid_record_claim \
	'(w >> 32) == (self >> 32) && uid_plat_alive((uint32) w))\n\t\t\treturn false;' \
	'(w >> 32) == (self >> 32))\n\t\t\treturn false;'
plant stall record.c uid_record_claim \
	'\t\tif (w != 0 && (w >> 32) == (self >> 32) && uid_plat_alive((uint32) w))\n\t\t\treturn false;\n' \
	''
# the note of the signal other processes took dropped from the rule (with
# each of stale and signalled, which drop the rest of publication's check)
noted() {
	also uid_record_accepts \
		'\tif (proposal->source == UID_SOURCE_POSTMASTER && signalled >= proposal->requested)\n\t\treturn UID_PUB_STALE;\n' \
		''
}
# stale needs two workers forked across a reload out of the order of their
# requests, and then in order of publication the other way: the simulator's
# storms of paired reloads (an eighth of the runs) bring it within the seeds.
plant stale record.c uid_record_publish \
	'\t\tif ((proposal->source == UID_SOURCE_POSTMASTER ||\n\t\t\t proposal->source == UID_SOURCE_INHERITED) &&\n\t\t\t(uid_plat_reload_signalled() ||\n\t\t\t (proposal->source == UID_SOURCE_POSTMASTER &&\n\t\t\t  uid_record_signalled(signalled) >= proposal->requested)))\n\t\t\tverdict = UID_PUB_STALE;\n\t\telse ' \
	''
noted
plant signalled record.c uid_record_publish \
	'(uid_plat_reload_signalled() ||\n\t\t\t (proposal->source == UID_SOURCE_POSTMASTER &&\n\t\t\t  uid_record_signalled(signalled) >= proposal->requested))' \
	'uid_plat_reload_signalled()'
noted
plant wallclock record.c uid_record_accepts \
	'\t\treturn UID_PUB_OLDER;\n' \
	'\t\treturn UID_PUB_OLDER;\n\tif (in_force->gen != 0 && in_force->life == proposal->life &&\n\t\t(in_force->source == UID_SOURCE_POSTMASTER || in_force->source == UID_SOURCE_INHERITED) &&\n\t\tproposal->source == UID_SOURCE_POSTMASTER && in_force->reload_time > proposal->reload_time)\n\t\treturn UID_PUB_STALE;\n'
plant noslot record.c uid_record_fallback \
	'uid_record_same_identity(in_force, own))\n\t\t\treturn UID_PLAN_USE;\n\t\treturn UID_PLAN_REFUSE;' \
	'uid_record_same_identity(in_force, own))\n\t\t\treturn UID_PLAN_USE;\n\t\treturn UID_PLAN_USE;'
plant procedure record.h uid_record_need_after \
	'return need->signalled > need->after ? need->signalled : need->after;' \
	'return need->after;'
plant equal record.c uid_record_fallback \
	'if (!need->pending && !need->overridden && !need->parallel && own != NULL &&' \
	'if (!need->overridden && !need->parallel && own != NULL &&'
plant parallel-equal record.c uid_record_fallback \
	'if (!need->pending && !need->overridden && !need->parallel && own != NULL &&' \
	'if (!need->pending && !need->overridden && own != NULL &&'
plant refuse record.c uid_record_usable \
	'return in_force->gen != 0 && in_force->life == life;' \
	'return in_force->gen != 0 && in_force->life == life &&\n\t\tuid_plat_unix_us() - in_force->published_us < 1000000;'
# Citus's node group (source.h), in the simulator's Citus schedules
plant citus-first source.h uid_id_source \
	'\tif (in->hand)\n\t\treturn UID_ID_HAND;\n' \
	'\tif (in->group >= 0)\n\t\treturn UID_ID_CITUS;\n\tif (in->hand)\n\t\treturn UID_ID_HAND;\n'
plant stale-group source.h uid_group_current \
	'return c->read_at == invals;' \
	'return c->read_at != UINT64_MAX;'
plant split source.h uid_id_split \
	'\tif (id > max)\n\t\treturn false;\n' \
	''
plant unsynced-as-zero source.h uid_group_of_row \
	'return task ? UID_GROUP_UNSYNCED : 0;' \
	'return 0;'
plant keep-unknown source.h uid_group_keep \
	'\tif (group == UID_GROUP_UNKNOWN)\n\t\treturn;\n' \
	''
plant cluster-alone-split source.h uid_id_split_cluster \
	'\tif (id >= lows)\n\t\treturn false;\n\t*low = id;\n' \
	'\t*low = id % lows;\n'
plant shared source.h uid_id_source \
	'\tif (in->subscribed)\n\t\treturn UID_ID_SHARED;\n' \
	''
plant group-over-lease source.h uid_id_source \
	'\tif (in->leased)\n\t\treturn UID_ID_LEASE;' \
	'\tif (in->leased)\n\t\treturn in->group >= 0 ? UID_ID_CITUS : UID_ID_LEASE;'
# And the coordinator's rules for its own failures (pool.h), in the leased
# schedules (a crash, a restore of its last backup into a new cluster, a
# failover to its standby):
plant async pool.h uid_pool_commit_level \
	'return session < UID_COMMIT_REMOTE_WRITE ? UID_COMMIT_ON : session;' \
	'return session;'
plant back pool.h uid_pool_went_back \
	'return written && (!same_place || (!same_timeline && !synced));' \
	'return false;'
plant timeline pool.h uid_pool_went_back \
	'return written && (!same_place || (!same_timeline && !synced));' \
	'return written && !same_place;'
plant token pool.h uid_pool_token_floor \
	'return Max(claims, now_us);' \
	'return claims;'
plant renew pool.h uid_pool_renews \
	'return hold_us <= now_us || expires_us > now_us;' \
	'return true;'
plant reclaim pool.h uid_pool_reclaims \
	'return same_key && !released && expires_us > now_us;' \
	'return false;'
plant hold pool.h uid_pool_hold_end \
	'uid_pool_add_us(uid_pool_add_us(now_us, ttl), grace_us);' \
	'uid_pool_add_us(now_us, grace_us);'

# ---------------------------------------------------------------- the run

[ -n "$names" ] || { echo "no plant named ${PLANTS:-}" >&2; exit 2; }
# The plants found last start first, the others filling the jobs around
# them (each plant stops at the first seed that finds it).
slow="renew stale mark cluster-alone-split signalled durable split inherit"
objects_once build_sim
started=
for name in $slow $names; do
	case " $started " in *" $name "*) continue ;; esac
	[ -n "${pfile[$name]:-}" ] || continue
	started="$started $name"
	while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
	plant_one "$name" &
done
wait
missed= cannot=
for name in $names; do
	if [ -s "$work/$name/report" ]; then
		cat "$work/$name/report"
	else
		echo "plant $name: CANNOT PLANT: its run stopped with no report (the plant needs updating, not a bug found)"
	fi
	case $(cat "$work/$name/outcome" 2>/dev/null) in
	found) ;;
	missed) missed="$missed $name" ;;
	*) cannot="$cannot $name" ;;
	esac
done
[ -z "$missed" ] || echo "plants NOT FOUND:$missed" >&2
[ -z "$cannot" ] || echo "plants that CANNOT PLANT (they need updating to the code, not a bug found):$cannot" >&2
[ -z "$missed" ] || exit 1
[ -z "$cannot" ] || exit 2
echo "plants: all $(echo $names | wc -w) found"
