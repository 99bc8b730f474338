/*
 * core/backfill.h
 *		sno's back-fill beside live generation: the lanes that date IDs at
 *		past times, the back-fill ranges used, and the record of the live
 *		sequences, as decisions on shared words (core/backfill.c).
 *
 * Like core/alloc.c it is plain C over core/platform.h, so that the server
 * (sno.c, sno_backfill.c) and the simulator (test/sim) run the same code;
 * sno_backfill.c puts its answers into errors.  The protocol, and why no
 * back-filled ID equals a live one, is in sno_backfill.c and in doc/design.md
 * (invariants 9 and 10).
 */
#ifndef UID_CORE_BACKFILL_H
#define UID_CORE_BACKFILL_H

#include "core/alloc.h"

/* A range of sequences in 32 bits: min << 16 | max. */
static inline uint32
uid_range_enc(uint32 lo, uint32 hi)
{
	return lo << 16 | hi;
}

static inline uint32
uid_range_lo(uint32 enc)
{
	return enc >> 16;
}

static inline uint32
uid_range_hi(uint32 enc)
{
	return enc & 0xFFFF;
}

/* The smallest range of sequences a generator may have per tick. */
#define UID_BACKFILL_RANGE_MIN 4

#define UID_BACKFILL_LANES 2

/* Where sno keeps them: the sno slot's tt.type[] (the slot's words 4 to 6). */
#define UID_SNO_BF_LANE0	0
#define UID_SNO_BF_RANGES	2

/*
 * The shared words back-fill uses (in the server, the sno slot's tt.type[]
 * and the state file's UidSnoConfig):
 *   lanes[i]   0 while unused, else tick << UID_SEQ_BITS | (sequence + 1)
 *              of the lane's last ID
 *   ranges     the back-fill range in use << 32 | the smallest range that
 *              holds every back-fill range used; 0 before the first
 *   used       UID_USED_VALID | lowest << 16 | highest live sequence issued
 *              (UID_USED_DURABLE set once the state file holds it); 0: not
 *              recorded (a file of uid 0.5.0 or older, until sno.c takes it
 *              over)
 *   used_since the live sequences of ticks up to it are unknown; 0: none;
 *              UID_USED_SINCE_FENCE in a file made anew, until its first use
 *              sets it to the fence (every tick refused until then)
 *   from       (NULL: none) UID_FROM_WORDS words, one per 4096 sequences:
 *              from when live IDs of timeline 0 may hold them (below)
 */
typedef struct UidBackfillWords
{
	UidWord    *lanes;
	UidWord    *ranges;
	UidWord    *used;
	UidWord    *used_since;
	UidWord    *from;
} UidBackfillWords;

/*
 * From when each part of the record of live sequences was used: a word
 * per UID_FROM_SPAN sequences, the lowest tick + 1 that a live ID of
 * timeline 0 holding one of them may have; UID_FROM_NONE while none may;
 * 0 unknown (a file of an older library: used from the beginning of time).
 * Back-fill IDs have the tick bit 0, as live IDs of timeline 0 do; a
 * back-filled ID dated before every live use of its sequence's part
 * cannot equal a live ID, whatever the record.  A word only goes down
 * (compare-and-swap to the minimum), and is durable before a live ID it
 * bounds is handed out.
 */
#define UID_FROM_WORDS		16
#define UID_FROM_SHIFT		12
#define UID_FROM_SPAN		(1u << UID_FROM_SHIFT)
#define UID_FROM_NONE		UINT64_MAX

/*
 * May back-fill at tick use the sequences lo..hi (within the record of
 * live sequences), every part of them first used by live IDs after tick?
 */
extern bool uid_from_after(UidWord *from, uint32 lo, uint32 hi, uint64 tick);

#define UID_USED_VALID		(UINT64CONST(1) << 63)
#define UID_USED_SINCE_FENCE	UINT64_MAX
/*
 * The state file held the record when the bit was set.  A backend that
 * widens the record clears it, syncs the file, and sets it again; a live
 * ID whose sequence the record covers is handed out only once the bit is
 * set (uid_used_note), so an operating-system crash never loses the record
 * of a sequence a committed ID carries.
 */
#define UID_USED_DURABLE	(UINT64CONST(1) << 62)
/* recorded, and no sequence issued yet: lowest 0xFFFF, highest 0 */
#define UID_USED_EMPTY		(UID_USED_VALID | UID_USED_DURABLE | UINT64CONST(0xFFFF) << 16)

static inline uint32
uid_used_lo(uint64 u)
{
	return (uint32) (u >> 16) & 0xFFFF;
}

static inline uint32
uid_used_hi(uint64 u)
{
	return (uint32) u & 0xFFFF;
}

/*
 * Does a backend's copy of the record cover seq?  A copy is only ever set
 * to a durable record (uid_used_widen), 0 before: the bit need not be
 * tested per ID.
 */
static inline bool
uid_used_covers(uint64 copy, uint32 seq)
{
	Assert(copy == 0 || (copy & UID_USED_DURABLE));
	return copy != 0 && seq >= uid_used_lo(copy) && seq <= uid_used_hi(copy);
}

/*
 * Before a live ID with sequence seq of the live range live_lo..live_hi is
 * handed out: the record covers it, durably.  *copy is the caller's copy of
 * the record (0 at first); the fast case reads no shared word.  sync()
 * makes the state file durable (uid_state_sync: a write and an fsync); it is called when this backend
 * widened the record, or found it widened by another backend that has not
 * synced yet.  The record widens by blocks of block sequences (a power of
 * two; the server's is UID_USED_BLOCK), within the live range, so that a
 * file is synced for it a few hundred times in its life at most, however
 * the load grows.
 */
#define UID_USED_BLOCK 256

/*
 * What the slow path needs to bound from when a part was used (UidBackfillWords'
 * from, NULL: none): the live ID's tick and timeline, and the timeline-0
 * mark (every later timeline-0 ID is at or above it).
 */
typedef struct UidUsedFrom
{
	UidWord    *from;
	UidWord    *mark0;
	uint64		tick;
	int			timeline;
} UidUsedFrom;

extern void uid_used_widen(UidWord *used, uint64 *copy, uint32 seq, uint32 live_lo,
						   uint32 live_hi, uint32 block, void (*sync) (void),
						   const UidUsedFrom *f);

static inline void
uid_used_note(UidWord *used, uint64 *copy, uint32 seq, uint32 live_lo, uint32 live_hi,
			  uint32 block, void (*sync) (void), const UidUsedFrom *f)
{
	if (unlikely(!uid_used_covers(*copy, seq)))
		uid_used_widen(used, copy, seq, live_lo, live_hi, block, sync, f);
}

/*
 * The live range lo..hi without the back-fill ranges used (the hull in the
 * ranges word): the larger part of it below or above them.  False, with
 * lo..hi unchanged, when fewer than UID_BACKFILL_RANGE_MIN are left.
 */
static inline bool
uid_live_clear_of_backfill(uint64 ranges, uint32 *lo, uint32 *hi)
{
	uint32		hull = (uint32) ranges;
	uint32		hlo = uid_range_lo(hull);
	uint32		hhi = uid_range_hi(hull);
	uint32		below;
	uint32		above;

	if (ranges == 0 || *hi < hlo || *lo > hhi)
		return true;
	below = hlo > *lo ? hlo - *lo : 0;
	above = hhi < *hi ? *hi - hhi : 0;
	if (Max(below, above) < UID_BACKFILL_RANGE_MIN)
		return false;
	if (below >= above)
		*hi = hlo - 1;
	else
		*lo = hhi + 1;
	return true;
}

/* What a back-fill call came to. */
typedef enum UidBackfillResult
{
	UID_BACKFILL_ISSUED,		/* *seq is the ID's sequence */
	UID_BACKFILL_OVERLAPS,		/* the range overlaps earlier ones, and is not the one in use */
	UID_BACKFILL_SPANS_LIVE,	/* with the earlier ones it would span the live range */
	UID_BACKFILL_UNRECORDED,	/* live IDs of the tick may hold any sequence */
	UID_BACKFILL_LIVE_USED,		/* the range holds sequences live IDs used */
	UID_BACKFILL_FULL,			/* the tick's back-fill sequences are used up */
	UID_BACKFILL_PASSED,		/* both lanes are past the tick */
	UID_BACKFILL_CORRUPT,		/* a lane holds a sequence of no range used */
} UidBackfillResult;

/* The words as the call last read them, for the caller's messages. */
typedef struct UidBackfillSeen
{
	uint64		ranges;
	uint64		hull_if_new;	/* SPANS_LIVE: the hull with this range */
	uint64		lanes[UID_BACKFILL_LANES];
	uint64		used;
	uint64		used_since;
} UidBackfillSeen;

/*
 * A sequence of lo..hi (the back-fill range, at least
 * UID_BACKFILL_RANGE_MIN, clear of the live range live_lo..live_hi) for an
 * ID dated at tick, or why there is none.
 */
extern UidBackfillResult uid_backfill_alloc(const UidBackfillWords *w, uint64 tick,
											uint32 lo, uint32 hi,
											uint32 live_lo, uint32 live_hi,
											UidBackfillSeen *seen, uint32 *seq);

#endif							/* UID_CORE_BACKFILL_H */
