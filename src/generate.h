/*
 * generate.h
 *		Generating in the server: the generator core (core/alloc.h) on the
 *		state file's slots, under the lease, the fence and a leased
 *		identity.  What every type's generator calls.
 */
#ifndef UID_GENERATE_H
#define UID_GENERATE_H

#include "access/xact.h"

#include "clock.h"
#include "compat.h"
#include "ident_lease.h"
#include "lease.h"
#include "published.h"
#include "state.h"


/*
 * The slot of a type, for generating: maps the shared state on first use,
 * refuses during recovery and in a read-only transaction, and fences the
 * slot once per incarnation.  Two comparisons when all of that is done.
 */
static inline UidSlot *
uid_gen_slot(const UidClockSpec *spec, bool unique)
{
	if (likely(uid_state != NULL && !XactReadOnly))
	{
		UidSlot    *slot = &uid_state->slots[spec->slot];

		if (likely(pg_atomic_read_u64(&slot->fenced) == uid_incarnation))
			return slot;
	}
	return uid_gen_prepare(spec, unique);
}

UID_NORETURN extern void uid_clock_out_of_range(const UidClockSpec *spec, int64 now_us) UID_NORETURN_AFTER;

/*
 * Current tick of a format's clock; errors when the clock is out of range.
 * Inline so that the division by a constant tick length is folded.
 */
static inline uint64
uid_clock_tick(const UidClockSpec *spec)
{
	int64		us = uid_clock_unix_us() - spec->epoch_us;
	uint64		tick;

	if (unlikely(us < 0))
		uid_clock_out_of_range(spec, us + spec->epoch_us);
	tick = (uint64) us / (uint64) spec->tick_us;
	if (unlikely(tick > spec->tick_max))
		uid_clock_out_of_range(spec, us + spec->epoch_us);
	return tick;
}

/*
 * The next (tick, seq) of a type: the core's allocation (uid_alloc_tick, see
 * core/alloc.c) within the sequence part seq_lo..seq_hi, under the lease of
 * an identity if one is leased (identity.c), with the lease in WAL past it
 * before it returns (lease.c).
 */
extern UidTickSeq uid_next_tick_in(const UidClockSpec *spec, uint32 seq_lo, uint32 seq_hi);

static inline UidTickSeq
uid_next_tick(const UidClockSpec *spec)
{
	return uid_next_tick_in(spec, 0, spec->seq_max);
}

/*
 * A tick that strictly increases across every backend of the server
 * (uid_alloc_unique; muid's transaction timestamps), leased like
 * uid_next_tick.
 */
extern uint64 uid_unique_tick(const UidClockSpec *spec, int32 *ident);

/* The identity to embed in a tick's IDs: -1 for the identity settings (ident_lease.h). */

static inline int32
uid_ident_cover(UidSlot *slot, const UidClockSpec *spec, bool unique, uint64 tick)
{
	if (likely(!uid_rec.values[UID_REC_LEASED]))
		return -1;
	return uid_ident_check(slot, spec, unique, tick);
}

/* WAL holds a lease past the tick's start when it returns (lease.h). */
static inline void
uid_lease_cover(const UidClockSpec *spec, uint64 tick)
{
	if (unlikely(uid_lease_short(&uid_state->lease, spec, tick)))
		uid_lease_extend(uid_tick_lease_us(spec, tick));
}

/* IDs issued by this backend, not yet added to the slots' counters. */
extern UID_HIDDEN uint64 uid_pending_issued[UID_NSLOTS];
extern UID_HIDDEN bool uid_pending_any;

/* Counts one ID issued by this backend; flushed to the slot at transaction end. */
static inline void
uid_count_issued(UidSlotId id)
{
	uid_pending_issued[id]++;
	uid_pending_any = true;
}

extern void uid_flush_counts(void);

#endif							/* UID_GENERATE_H */
