#!/usr/bin/env bash
# Plants known bugs in copies of the generator core and checks that the
# simulator finds each, within the seeds simcheck runs.  A plant whose text is
# no longer in the core fails: the check must not pass by planting nothing.
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
#          (found at seed 5753: it searches 1-6000)
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
# Each plant's perl dies when a part of it finds no text.
#
# Usage: test/sim/plant.sh [CC]   (run from the top of the source tree)
set -eu
CC=${1:-${CC:-cc}}
SEEDS=${SIM_SEEDS:-1-2000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# PLANT_JOBS plants run side by side (default: the number of cores);
# PLANTS names the plants to run (default: all).
jobs=${PLANT_JOBS:-$(nproc 2>/dev/null || echo 1)}
failed="$work/failed"
: >"$failed"
found=0

plant_one() {
	name=$1 file=$2 perl=$3 seeds=$4
	mkdir -p "$work/$name/core"
	cp src/core/*.c src/core/*.h "$work/$name/core/"
	if ! perl -0pi -e "$perl" "$work/$name/core/$file" 2>"$work/$name/perl" ||
		cmp -s "src/core/$file" "$work/$name/core/$file"; then
		echo "plant $name: its text is not in src/core/$file any more" >"$work/$name/report"
		echo "$name" >>"$failed"
		return
	fi
	$CC -std=gnu11 -O2 -DUID_SIM -Itest/sim -I"$work/$name" -Isrc -o "$work/$name/sim" \
		test/sim/*.c "$work/$name/core/alloc.c" "$work/$name/core/backfill.c" \
		"$work/$name/core/record.c"
	start=$(date +%s%N)
	if "$work/$name/sim" --seeds "$seeds" --quiet >"$work/$name/out" 2>&1; then
		echo "plant $name: NOT FOUND in seeds $seeds" >"$work/$name/report"
		echo "$name" >>"$failed"
		return
	fi
	secs=$(awk -v a="$start" -v b="$(date +%s%N)" 'BEGIN { printf "%.2f", (b - a) / 1e9 }')
	{
		printf 'plant %-8s found in %s s: %s\n' "$name" "$secs" \
			"$(sed -n 's/^FAIL //p' "$work/$name/out" | head -1)"
		sed -n 's/^shortest schedule found: /                 shortest: /p' "$work/$name/out"
	} >"$work/$name/report"
}

# plant NAME FILE PERL [SEEDS] defines a plant; they run once all are defined.
names=
declare -A pfile pperl pseeds
plant() {
	case " ${PLANTS:-$1} " in *" $1 "*) ;; *) return 0 ;; esac
	names="$names $1"
	pfile[$1]=$2 pperl[$1]=$3 pseeds[$1]=${4:-$SEEDS}
}

plant cas alloc.c \
	's/if \(!uid_word_cas\(&slot->word\[timeline\], &old, (tick << UID_SEQ_BITS \| start << width \| next)\)\)\n\t\treturn UID_ATTEMPT_RETRY;/uid_word_write(&slot->word[timeline], $1);/'
plant fence alloc.c \
	's/(\ttick = \(fence_us - 1 - \(uint64\) spec->epoch_us\) \/ \(uint64\) spec->tick_us;\n)/$1\ttick = Min(tick, spec->now(spec));\n/'
plant lease alloc.h \
	's/return uid_tick_lease_us\(spec, tick\) \+ UID_LEASE_US/return uid_tick_lease_us(spec, Min(tick, spec->now(spec))) + UID_LEASE_US/'
plant reach alloc.h \
	's/return \(uint64\) spec->epoch_us \+ tick \* \(uint64\) spec->tick_us \+ 1;/return (uint64) spec->epoch_us + (tick + 1) * (uint64) spec->tick_us;/'
plant pace alloc.c \
	's/if \(at > now && at <= now \+ spec->tick_us\)/if (0)/'
plant raise window.h \
	's/\treturn floor_us;\n/\treturn floor_us + (uint64) spec->tick_us - 1;\n/'
plant floor window.h \
	's/\tif \(end - \(uint64\) spec->tick_us < floor_us\)\n\t\treturn UID_WINDOW_RAISE;\n//'
# durable needs an OS crash right after a widening and a change of sno's
# ranges: it is found at seed 4767 (about two minutes), so it searches further.
plant durable backfill.c \
	's/\t\t\tsync\(\);\n//g' 1-6000
# (both checks go through uid_backfill_live_used: before a pass publishes
# its range, and after)
plant used backfill.c \
	's/(\tif \(used == 0\)\n\t\treturn true;\n)/\treturn false;\n$1/ or die "used"'
plant overlap backfill.c \
	's/\tif \(old != 0 && !\(hi < hlo \|\| lo > hhi\)\)\n\t\treturn UID_BACKFILL_OVERLAPS;\n// or die "overlap"'
# a replaced back-fill range freed for live IDs: the mark not raised, or
# raised to an until that back-fill calls never raised
plant mark backfill.c \
	's/\t\tif \(until != 0\)\n\t\t\tuid_raise_u64\(w->mark0, until << UID_SEQ_BITS \| UID_SNO_SEQ_LAST\);\n// or die "mark"'
plant until backfill.c \
	's/\t\tuid_raise_u64\(w->until, tick\);\n// or die "until"'
plant live alloc.h \
	's/key = uid_mix64\(system \^ uid_mix64\(live_id\)\);/key = uid_mix64(system);/ or die "live"'
# from when a part was used: bounded a tick late, or not lowered by a
# backend whose ID another widened the record over
plant restore backfill.h \
	's/return file > lease_now \? file : lease_now;/return has_record ? 0 : lease_now;/ or die "restore"'
plant record backfill.c \
	's/(uid_state_has_record\(UidLeaseWords \*lease, UidWord \*used, UidWord \*used_since,\n\t\t\t\t\t UidSlot \*slots, int nslots\)\n\{\n)/$1\treturn false;\n/ or die "record"'
plant from backfill.c \
	's/return f->timeline == 0 \? f->tick : /return f->timeline == 0 ? f->tick + 1 : / or die "from"'
plant lower backfill.c \
	's/\t\tfresh_from = uid_from_lower\(f->from, seq, seq, uid_from_bound\(f\)\);\n/\t\tfresh_from = false;\n/ or die "lower"'
# a session's proposal accepted (with each of the three plans below)
gate='(s/\tif \(proposal->source != UID_SOURCE_POSTMASTER && proposal->source != UID_SOURCE_SINGLE_USER &&\n\t\tproposal->source != UID_SOURCE_INHERITED\)\n\t\treturn UID_PUB_NOT_SERVER;\n//g == 2 or die "gate");'
plant first record.c \
	"$gate"' s/(\tif \(need->own == UID_SOURCE_SINGLE_USER)\)/$1 || (need->own == UID_SOURCE_SESSION \&\& in_force->gen == 0))/ or die "first"'
plant parallel record.c \
	"$gate"' s/(\t\treturn UID_PLAN_USE;\n)(\treturn UID_PLAN_REFRESH;\n)/$1\tif (need->reload_time >= 0)\n\t\treturn UID_PLAN_PUBLISH_OWN;\n$2/ or die "parallel"'
plant restart record.c \
	"$gate"' s/\tif \(!this_life\)\n\t\treturn UID_PLAN_REFRESH;/\tif (!this_life)\n\t\treturn in_force->gen != 0 ? UID_PLAN_PUBLISH_OWN : UID_PLAN_REFRESH;/ or die "restart"'
plant inherit record.c \
	's/\tif \(need->own == UID_SOURCE_SESSION && need->reload_time >= 0 && !need->pending &&\n\t\t!need->overridden/\tif (need->own == UID_SOURCE_SESSION \&\&\n\t\t!need->overridden/ or die "inherit"'
# a record of a reload taken for a later one's because the wall clock
# stood still between them (their reload times are equal)
plant frozen record.c \
	's/ \&\&\n\t\tin_force->published_us > in_force->reload_time\)/)/ or die "frozen"'
plant dead-writer record.c \
	's/\(w >> 32\) == \(self >> 32\) && uid_plat_alive\(\(uint32\) w\)\)\n\t\t\treturn false;/(w >> 32) == (self >> 32))\n\t\t\treturn false;/ or die "dead-writer"'
plant stall record.c \
	's/\t\tif \(w != 0 && \(w >> 32\) == \(self >> 32\) && uid_plat_alive\(\(uint32\) w\)\)\n\t\t\treturn false;\n// or die "stall"'
# stale needs two workers forked across a reload out of the order of their
# requests, and then in order of publication the other way: rare, so it
# searches further, as durable does.
plant stale record.c \
	's/\t\tif \(\(proposal->source == UID_SOURCE_POSTMASTER \|\|\n\t\t\t proposal->source == UID_SOURCE_INHERITED\) &&\n\t\t\t\(uid_plat_reload_signalled\(\) \|\|\n\t\t\t \(proposal->source == UID_SOURCE_POSTMASTER &&\n\t\t\t  uid_record_signalled\(signalled\) >= proposal->requested\)\)\)\n\t\t\tverdict = UID_PUB_STALE;\n\t\telse // or die "stale signal";
	 s/\tif \(proposal->source == UID_SOURCE_POSTMASTER && signalled >= proposal->requested\)\n\t\treturn UID_PUB_STALE;\n// or die "stale noted"' 1-6000
plant signalled record.c \
	's/\(uid_plat_reload_signalled\(\) \|\|\n\t\t\t \(proposal->source == UID_SOURCE_POSTMASTER &&\n\t\t\t  uid_record_signalled\(signalled\) >= proposal->requested\)\)/uid_plat_reload_signalled()/ or die "signalled publish";
	 s/\tif \(proposal->source == UID_SOURCE_POSTMASTER && signalled >= proposal->requested\)\n\t\treturn UID_PUB_STALE;\n// or die "signalled accepts"' 1-6000
plant wallclock record.c \
	's/(\t\treturn UID_PUB_OLDER;\n)/$1\tif (in_force->gen != 0 \&\& in_force->life == proposal->life \&\&\n\t\t(in_force->source == UID_SOURCE_POSTMASTER || in_force->source == UID_SOURCE_INHERITED) \&\&\n\t\tproposal->source == UID_SOURCE_POSTMASTER \&\& in_force->reload_time > proposal->reload_time)\n\t\treturn UID_PUB_STALE;\n/ or die "wallclock"'
plant noslot record.c \
	's/(uid_record_same_identity\(in_force, own\)\)\n\t\t\treturn UID_PLAN_USE;\n)\t\treturn UID_PLAN_REFUSE;/$1\t\treturn UID_PLAN_USE;/ or die "noslot"'
plant procedure record.h \
	's/return need->signalled > need->after \? need->signalled : need->after;/return need->after;/ or die "procedure"'
plant equal record.c \
	's/if \(!need->pending && !need->overridden && !need->parallel && own != NULL &&/if (!need->overridden \&\& !need->parallel \&\& own != NULL \&\&/ or die "equal"'
plant parallel-equal record.c \
	's/if \(!need->pending && !need->overridden && !need->parallel && own != NULL &&/if (!need->pending \&\& !need->overridden \&\& own != NULL \&\&/ or die "parallel-equal"'
plant refuse record.c \
	's/(return in_force->gen != 0 && in_force->life == life);/$1 \&\&\n\t\tuid_plat_unix_us() - in_force->published_us < 1000000;/ or die "refuse"'
# Citus's node group (source.h), in the simulator's Citus schedules
plant citus-first source.h \
	's/(\tif \(in->hand\)\n\t\treturn UID_ID_HAND;\n)/\tif (in->group >= 0)\n\t\treturn UID_ID_CITUS;\n$1/ or die "citus-first"'
plant stale-group source.h \
	's/return c->read_at == invals;/return c->read_at != UINT64_MAX;/ or die "stale-group"'
plant split source.h \
	's/\tif \(id > max\)\n\t\treturn false;\n// or die "split"'
plant unsynced-as-zero source.h \
	's/return task \? UID_GROUP_UNSYNCED : 0;/return 0;/ or die "unsynced-as-zero"'
plant keep-unknown source.h \
	's/\tif \(group == UID_GROUP_UNKNOWN\)\n\t\treturn;\n// or die "keep-unknown"'
plant cluster-alone-split source.h \
	's/\tif \(id >= lows\)\n\t\treturn false;\n\t\*low = id;\n/\t*low = id % lows;\n/ or die "cluster-alone-split"'
plant shared source.h \
	's/\tif \(in->subscribed\)\n\t\treturn UID_ID_SHARED;\n// or die "shared"'
plant group-over-lease source.h \
	's/\tif \(in->leased\)\n\t\treturn UID_ID_LEASE;/\tif (in->leased)\n\t\treturn in->group >= 0 ? UID_ID_CITUS : UID_ID_LEASE;/ or die "group-over-lease"'
# And the coordinator's rules for its own failures (pool.h), in the leased
# schedules (a crash, a restore of its last backup into a new cluster, a
# failover to its standby):
plant async pool.h \
	's/return session < UID_COMMIT_REMOTE_WRITE \? UID_COMMIT_ON : session;/return session;/ or die "async"'
plant back pool.h \
	's/return written && \(!same_place \|\| \(!same_timeline && !synced\)\);/return false;/ or die "back"'
plant timeline pool.h \
	's/return written && \(!same_place \|\| \(!same_timeline && !synced\)\);/return written && !same_place;/ or die "timeline"'
plant token pool.h \
	's/return Max\(claims, now_us\);/return claims;/ or die "token"'
plant renew pool.h \
	's/return hold_us <= now_us \|\| expires_us > now_us;/return true;/ or die "renew"' 1-6000
plant reclaim pool.h \
	's/return same_key && !released && expires_us > now_us;/return false;/ or die "reclaim"'
plant hold pool.h \
	's/now_us \+ Max\(max_ttl_us, ttl_us\) \+ grace_us;/now_us + grace_us;/ or die "hold"'
# The plants that search longest start first, the others filling the jobs
# around them (durable, stale, signalled and renew search 1-6000; inherit's first seed
# is past 1500).
slow="durable inherit stale signalled renew"
started=
for name in $slow $names; do
	case " $started " in *" $name "*) continue ;; esac
	[ -n "${pfile[$name]:-}" ] || continue
	started="$started $name"
	while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
	plant_one "$name" "${pfile[$name]}" "${pperl[$name]}" "${pseeds[$name]}" &
done
wait
for name in $names; do cat "$work/$name/report"; done
if [ -s "$failed" ]; then
	echo "plants not found: $(tr '\n' ' ' <"$failed")" >&2
	exit 1
fi
echo "plants: all $(echo $names | wc -w) found"
