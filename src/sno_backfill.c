/*
 * sno_backfill.c
 *		sno's back-fill: sno_new_at(), which dates an ID at a given time with
 *		a sequence of the back-fill range, its lanes in the state file and
 *		the sync before a transaction that back-filled commits.  Called by
 *		SQL; it uses sno.c's clock and record of the live sequences issued,
 *		and sno_policy.c's ranges.
 */
#include "postgres.h"

#include "access/xact.h"
#include "fmgr.h"
#include "utils/timestamp.h"

#include "generate.h"
#include "type_support.h"
#include "guc.h"
#include "source.h"
#include "sno.h"
#include "core/backfill.h"

/*
 * Back-fill: sno_new_at(meta, time) makes an ID dated at a given time (the
 * seed's "bring your own time", to port old IDs), outside the tick-tock
 * scheme (its tick bit is 0) and never equal to another ID of this server.
 *
 * Its sequences come from the back-fill range, uid.sno_backfill_min..max,
 * which sno_new_at() refuses to use unless it is clear of the live range
 * and of the sequences live IDs used at or before its times (the record of
 * live sequences), and which sno_new() leaves out of its own range while it
 * is in use (see sno_live_clear_of_backfill).  Once a new range replaces
 * it, the timeline-0 mark is raised past the latest time any ID was
 * back-filled at (core/backfill.h, above UID_RANGE_NONE), and only then may
 * live IDs take its sequences: every live ID with the tick bit 0 (the
 * back-filled IDs' own) made after that is dated later than every ID
 * back-filled in it.  So no back-filled ID equals a live one.
 *
 * Among themselves, back-filled IDs are kept apart by two lanes, words of
 * the state file: lane 0 issues only the lower half of the range, lane 1
 * the upper half, and a lane's word, the (tick, sequence) it issued last,
 * only grows by compare-and-swap, like the generator's own words.  A call
 * for tick t takes the lane that is at t if it has a sequence left there
 * (lane 0 first), else the lane furthest ahead that is still before t (or
 * unused), which moves to t and the first sequence of its half.  One
 * session that fills a 4 ms unit gets the lower half, then the upper, in
 * increasing order.  So back-fill goes forward in time per lane: one
 * session (or any number back-filling the same times) going through time
 * in order, or two sessions back-filling two stretches at once, never have
 * a call refused; a call for a time that both lanes have passed is refused
 * (55000), and so is one for a 4 ms unit whose back-fill sequences are used
 * up (54000), never a duplicate.
 *
 * A new back-fill range (settings changed) begins a new pass: lanes that
 * hold a sequence of an earlier range count as unused.  That is safe only if
 * the new range shares no sequence with any earlier one, so type[2] keeps
 * the smallest range holding all of them, and a range that overlaps it but
 * is not the one in use is refused.  A lane's word holding a sequence
 * outside both is a later pass's: the range word moved on since it was
 * read, and the call looks again (and is refused, its range being older).
 * Such a session never writes a lane that a later pass has written, so a
 * pass's lane words only grow.  A call raises the state file's
 * backfill_until to its time before it writes a lane, and hands its ID out
 * only if the range word has not moved since it began (read again after
 * the lane's CAS): the pass that replaced its range, reading backfill_until
 * after it published its own, bounds every ID of the old range by it
 * (core/backfill.c, uid_backfill_finish).
 *
 * The lanes are not WAL-logged (the lease covers the live marks only): they
 * are exact on the server that wrote them, across restarts and crashes of
 * PostgreSQL; the state file is synced before a transaction that back-filled
 * commits, so an operating-system crash loses none of a committed
 * transaction's back-fill.  A copy of the data directory (a standby, a
 * backup, a rewound node) holds the lanes of when it was copied.
 */

StaticAssertDecl(UID_SNO_SEQ_LAST == SNO_SEQ_MAX,
				 "a timeline-0 mark raised past back-fill uses its tick up");

/* This backend back-filled in the current transaction: sync before commit. */
static bool sno_backfill_dirty = false;

static void
sno_backfill_xact(XactEvent event, void *arg)
{
	switch (event)
	{
		case XACT_EVENT_PRE_COMMIT:
		case XACT_EVENT_PARALLEL_PRE_COMMIT:
		case XACT_EVENT_PRE_PREPARE:
			if (sno_backfill_dirty)
			{
				sno_backfill_dirty = false;
				uid_state_sync();
			}
			break;
		case XACT_EVENT_ABORT:
		case XACT_EVENT_PARALLEL_ABORT:
			sno_backfill_dirty = false;
			break;
		default:
			break;
	}
}

static void
sno_backfill_note(void)
{
	static bool registered = false;

	if (!registered)
	{
		RegisterXactCallback(sno_backfill_xact, NULL);
		registered = true;
	}
	sno_backfill_dirty = true;
}

/* A tick's time as text (a copy: timestamptz_to_str() reuses its buffer). */
static const char *
sno_tick_text(uint64 tick)
{
	return pstrdup(timestamptz_to_str(uid_tick_to_time(&sno_clock, tick)));
}

/*
 * A sequence of the back-fill range r for an ID dated at tick
 * (uid_backfill_alloc, core/backfill.c), or the error that says why not.
 */
static uint32
sno_backfill_alloc(UidSlot *slot, uint64 tick, const UidSnoRanges *r)
{
	UidSnoConfig *c = &uid_state->sno_cfg;
	UidBackfillWords w = {
		.lanes = &slot->tt.type[UID_SNO_BF_LANE0],
		.ranges = &slot->tt.type[UID_SNO_BF_RANGES],
		.used = &c->live_used,
		.used_since = &c->live_used_since,
		.from = uid_state->live_from,
		.kept = &uid_state->backfill_kept,
		.until = &uid_state->backfill_until,
		.mark0 = &slot->tt.mark[0],
	};
	UidBackfillSeen seen = {0};
	uint32		lo = (uint32) r->backfill_min;
	uint32		hi = (uint32) r->backfill_max;
	uint32		hull;
	uint32		cur;
	uint32		seq;

	(void) sno_used_read();		/* takes an older file's record over */
	switch (uid_backfill_alloc(&w, tick, sno_backfill_clock.now(&sno_backfill_clock), lo, hi,
							   &seen, &seq))
	{
		case UID_BACKFILL_ISSUED:
			return seq;
		case UID_BACKFILL_OVERLAPS:
			hull = (uint32) seen.ranges;
			cur = (uint32) (seen.ranges >> 32);
			ereport(ERROR,
					(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
					 errmsg("the back-fill range %u..%u overlaps the back-fill ranges used before on this server, %u..%u",
							lo, hi, uid_range_lo(hull), uid_range_hi(hull)),
					 errdetail("A new range begins a new pass, in which every time is free again: over sequences an earlier pass used, it could make an ID that pass back-filled at the same time again.  Back-fill continues in the range in use, %u..%u, or begins anew in a range clear of every one used before (the state file remembers them).",
							   uid_range_lo(cur), uid_range_hi(cur)),
					 errhint("Set \"uid.sno_backfill_min\" and \"uid.sno_backfill_max\" to %u and %u, or clear of %u..%u, and reload the configuration.",
							 uid_range_lo(cur), uid_range_hi(cur), uid_range_lo(hull), uid_range_hi(hull))));
			break;
		case UID_BACKFILL_UNRECORDED:
			ereport(ERROR,
					(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
					 errmsg("sno_new_at() cannot date an ID at %s: this server made live IDs up to %s before uid recorded which sequences they used",
							sno_tick_text(tick), sno_tick_text(seen.used_since)),
					 errdetail("The state file was made by uid 0.5.0 or older, or made anew after the one before was removed or left behind by pg_upgrade (uid_fence_restore(old_file_lost => true)): sno_new() IDs of that time may hold any sequence, the back-fill range's too."),
					 errhint("Back-fill only times after %s on this server.", sno_tick_text(seen.used_since))));
			break;
		case UID_BACKFILL_LIVE_USED:
			ereport(ERROR,
					(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
					 errmsg("the back-fill range %u..%u holds sequences that sno_new() has issued on this server, %u..%u",
							lo, hi, uid_used_lo(seen.used), uid_used_hi(seen.used)),
					 errdetail("A back-filled ID with such a sequence could equal a live ID made at its time."),
					 errhint("Set \"uid.sno_backfill_min\" and \"uid.sno_backfill_max\" clear of %u..%u and reload the configuration.",
							 uid_used_lo(seen.used), uid_used_hi(seen.used))));
			break;
		case UID_BACKFILL_FULL:
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("sno_new_at() has used up the back-fill sequences of the 4 ms unit at %s",
							sno_tick_text(tick)),
					 errdetail("The back-fill range %u..%u holds %u IDs per 4 ms unit, half in each of %d lanes; a lane that has back-filled a later time takes no earlier one.",
							   lo, hi, hi - lo + 1, UID_BACKFILL_LANES),
					 errhint("Spread the IDs over more time, or back-fill with a wider range; see doc/types.md.")));
			break;
		case UID_BACKFILL_PASSED:
			hull = (uint32) seen.ranges;
			ereport(ERROR,
					(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
					 errmsg("sno_new_at() cannot date an ID at %s: this server has back-filled past it",
							sno_tick_text(tick)),
					 errdetail("Back-fill goes forward in time in %d lanes, and both have made IDs dated after it (at %s and %s).",
							   UID_BACKFILL_LANES, sno_tick_text(seen.lanes[0] >> UID_SEQ_BITS),
							   sno_tick_text(seen.lanes[1] >> UID_SEQ_BITS)),
					 errhint("Back-fill in time order; to go over earlier times again, use a back-fill range clear of %u..%u.",
							 uid_range_lo(hull), uid_range_hi(hull))));
			break;
		case UID_BACKFILL_CORRUPT:
			ereport(ERROR,
					(errcode(ERRCODE_DATA_CORRUPTED),
					 errmsg("uid state file: a sno back-fill lane holds a sequence outside every back-fill range used"),
					 errdetail("Lanes %016llX and %016llX, ranges %016llX.",
							   (unsigned long long) seen.lanes[0], (unsigned long long) seen.lanes[1],
							   (unsigned long long) seen.ranges)));
			break;
	}
	pg_unreachable();
}

PG_FUNCTION_INFO_V1(sno_new_at);
Datum
sno_new_at(PG_FUNCTION_ARGS)
{
	int32		meta = PG_GETARG_INT32(0);
	UidSnoRanges r;
	const char *problem;
	UidSlot    *slot;
	sno_fields	f;
	uint64		rec;

	f.meta = (unsigned) uid_check_field("sno", "meta", meta, 0, 255);
	f.units = uid_time_to_tick(&sno_backfill_clock, PG_GETARG_TIMESTAMPTZ(1), false);

	/*
	 * Back-fill dates IDs at times that have passed.  A lane goes forward
	 * only: one call dated in the future would take every earlier time from
	 * it, and two would end back-fill in its range until the clock got there.
	 */
	if (f.units > sno_backfill_clock.now(&sno_backfill_clock))
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("sno_new_at() cannot date an ID at %s: that is later than the server's clock",
						sno_tick_text(f.units)),
				 errdetail("Back-fill makes IDs of times that have passed; sno_new() makes those of now."),
				 errhint("Check the time given; if the server's clock is behind, correct it.")));
	slot = uid_gen_slot(&sno_backfill_clock, false);

	/* made under the record still in force when it is handed out, as sno_new() */
	do
	{
		rec = uid_rec_sync();
		uid_sno_ranges_dec(sno_ranges_word(), &r);
		uid_sno_check_live(&r);
		if ((problem = uid_sno_backfill_problem(&r)) != NULL)
			ereport(ERROR,
					(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
					 errmsg("sno_new_at() has no back-fill range"),
					 errdetail("There is none because %s.  Back-filled IDs take their sequences from \"uid.sno_backfill_min\"..\"uid.sno_backfill_max\", a range of at least %d that sno_new() does not use.",
							   problem, UID_SNO_RANGE_MIN),
					 errhint("Set both clear of the live range and reload the configuration; see doc/types.md.")));
		if (uid_rec_value(UID_REC_LEASED))
			ereport(ERROR,
					(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
					 errmsg("sno_new_at() needs a partition set by hand"),
					 errdetail("A partition leased from a coordinator (\"uid.coordinator\") is this server's for the lease's time only: other servers that held it before made IDs of earlier times with it."),
					 errhint("Back-fill on a server without \"uid.coordinator\", with \"uid.partition\" set.")));
		f.sequence = sno_backfill_alloc(slot, f.units, &r);
		f.partition = (unsigned) uid_effective_partition();
	} while (unlikely(!uid_rec_still(rec)));
	f.tick = 0;
	sno_backfill_note();
	uid_count_issued(UID_SLOT_SNO);
	PG_RETURN_SNO_P(sno_make(&f));
}
