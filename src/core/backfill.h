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
 *   kept       the back-fill ranges sno_new() keeps clear of besides the
 *              one in use: closing << 32 | lasting (below); 0: a file of an
 *              older library, not taken over yet
 *   until      the latest tick a back-filled ID may be dated at (0: none)
 *   mark0      the live generator's timeline-0 mark (tt.mark[0])
 */
typedef struct UidBackfillWords
{
	UidWord    *lanes;
	UidWord    *ranges;
	UidWord    *used;
	UidWord    *used_since;
	UidWord    *from;
	UidWord    *kept;
	UidWord    *until;
	UidWord    *mark0;
} UidBackfillWords;

/*
 * A back-fill range used before the one in use stays out of the live range
 * only while a back-filled ID of it could be dated at or after a live ID of
 * timeline 0 (the tick bit back-filled IDs have) with the same sequence.
 * A new pass (uid_backfill_alloc) closes the range in use: it adds it to
 * closing, publishes its own range, and then, once every ID back-filled in
 * the closing ranges is dated at most until (read after the range word
 * moved on: a call hands its ID out only if the range word is still the
 * one it began with, and raises until before that) and until is not after
 * the clock, raises the timeline-0 mark to until, its tick used up, and
 * empties closing.  Every live ID of timeline 0 made after that is dated
 * later than every ID of the ranges it closed: sno_new() may then use their
 * sequences.  With the clock behind until (it stepped back), they stay in
 * closing until a back-fill call finds the clock past it.  lasting holds
 * what the file of an older library had used that the lanes do not bound
 * (every range but a single pass, or lanes dated after the clock): kept out
 * of the live range for good.  No range: UID_RANGE_NONE.
 */
#define UID_RANGE_NONE		0xFFFF0000u
/* sno's last sequence: a mark raised to (tick, it) has used the tick up */
#define UID_SNO_SEQ_LAST	0xFFFFu
#define UID_KEPT_NONE		((uint64) UID_RANGE_NONE << 32 | UID_RANGE_NONE)

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
 * The record of live sequences at its first use (0 until then), taken over
 * and returned.  A file made anew (the server's first, or one that replaced
 * a lost, removed or damaged file: used 0, used_since UID_USED_SINCE_FENCE)
 * knows no live ID made before it: those are below the fence this
 * incarnation took (fence_us, from the lease in WAL, 0 on a new server), so
 * its unknown history ends at the fence's tick of spec's clock.  A file of
 * uid 0.5.0 or older (used 0, used_since not UID_USED_SINCE_FENCE) knows
 * none up to the sno slot's marks.  Back-fill at or before used_since is
 * refused.  The caller has fenced the slot (the server's sno_used_read).
 */
extern uint64 uid_used_take_over(UidWord *used, UidWord *used_since, uint64 fence_us,
								 const UidClockSpec *spec, UidSlot *sno_slot);

/*
 * Does a state file hold a record of a server that made IDs, one that
 * uid_fence_restore() may carry over a pg_upgrade (whose new origin holds no
 * lease)?  A file made anew has no lease, the record of live sequences not
 * begun (used 0, used_since UID_USED_SINCE_FENCE) and every slot word 0; a
 * file of a server that made an ID has a lease (0.3.0 on) or marks (0.1.0,
 * 0.2.0), and one of 0.5.0 or older zeros for the record (used_since 0).
 * Without one, the fence of the new origin would be 0, and
 * uid_used_take_over() would open every past time to back-fill: the old
 * server's IDs there would be made again.
 */
extern bool uid_state_has_record(UidLeaseWords *lease, UidWord *used, UidWord *used_since,
								 UidSlot *slots, int nslots);

/*
 * The lease uid_fence_restore() WAL-logs into the origin it makes after a
 * pg_upgrade, whose new origin holds none: a lease of now (now_us, the
 * server's clock), and, where the file holds the old server's record
 * (has_record), at least the file's lease.  Every later fence starts from
 * it, on this server and on every standby that replays it, whatever their
 * own files hold: before, the origin was made with no lease where the file
 * held a record, and only the primary's file knew how far the old IDs
 * reach until its first ID logged a lease (a standby promoted before that,
 * with no file or an older one, made the old server's IDs again).  Without
 * a record (old_file_lost => true) it also ends the history back-fill does
 * not know (uid_used_take_over).  Old IDs dated past both (the old
 * server's clock ahead of this one's, or its file behind its WAL after a
 * crash that no ID followed) are not known here: doc/operations.md.
 */
static inline uint64
uid_restore_lease(UidLeaseWords *lease, bool has_record, uint64 now_us)
{
	uint64		lease_now = uid_lease_next(now_us, 0);
	uint64		file = has_record ? uid_word_read(&lease->lease_us) : 0;

	return file > lease_now ? file : lease_now;
}

static inline bool
uid_range_empty(uint32 r)
{
	return uid_range_lo(r) > uid_range_hi(r);
}

/* Do ranges a and b share a sequence? */
static inline bool
uid_range_meets(uint32 a, uint32 b)
{
	return !uid_range_empty(a) && !uid_range_empty(b) &&
		uid_range_lo(a) <= uid_range_hi(b) && uid_range_lo(b) <= uid_range_hi(a);
}

/* The smallest range holding a and b. */
static inline uint32
uid_range_add(uint32 a, uint32 b)
{
	if (uid_range_empty(a))
		return b;
	if (uid_range_empty(b))
		return a;
	return uid_range_enc(Min(uid_range_lo(a), uid_range_lo(b)),
						 Max(uid_range_hi(a), uid_range_hi(b)));
}

/*
 * lo..hi without the range r: the larger part of it below or above r.
 * False, with lo..hi unchanged, when fewer than UID_BACKFILL_RANGE_MIN are
 * left.
 */
static inline bool
uid_live_clear_of_range(uint32 r, uint32 *lo, uint32 *hi)
{
	uint32		rlo = uid_range_lo(r);
	uint32		rhi = uid_range_hi(r);
	uint32		below;
	uint32		above;

	if (uid_range_empty(r) || *hi < rlo || *lo > rhi)
		return true;
	below = rlo > *lo ? rlo - *lo : 0;
	above = rhi < *hi ? *hi - rhi : 0;
	if (Max(below, above) < UID_BACKFILL_RANGE_MIN)
		return false;
	if (below >= above)
		*hi = rlo - 1;
	else
		*lo = rhi + 1;
	return true;
}

/*
 * The back-fill ranges sno_new() keeps clear of, from the ranges and kept
 * words (read in that order): the range in use, and those kept (closing and
 * lasting); in a file not taken over yet (kept 0), every range used (the
 * hull).  n[] gets them, empty ones as UID_RANGE_NONE.
 */
#define UID_KEPT_CLEAR 3

static inline void
uid_live_kept_clear(uint64 ranges, uint64 kept, uint32 n[UID_KEPT_CLEAR])
{
	n[0] = ranges == 0 ? UID_RANGE_NONE :
		kept == 0 ? (uint32) ranges : (uint32) (ranges >> 32);
	n[1] = ranges == 0 || kept == 0 ? UID_RANGE_NONE : (uint32) (kept >> 32);
	n[2] = ranges == 0 || kept == 0 ? UID_RANGE_NONE : (uint32) kept;
}

/*
 * The live range lo..hi clear of them (uid_live_kept_clear): the larger
 * part beside each.  False, with lo..hi unchanged, when fewer than
 * UID_BACKFILL_RANGE_MIN are left.
 */
static inline bool
uid_live_clear_of_backfill(uint64 ranges, uint64 kept, uint32 *lo, uint32 *hi)
{
	uint32		n[UID_KEPT_CLEAR];
	uint32		l = *lo;
	uint32		h = *hi;

	if (ranges == 0)
		return true;
	uid_live_kept_clear(ranges, kept, n);
	for (int i = 0; i < UID_KEPT_CLEAR; i++)
		if (!uid_live_clear_of_range(n[i], &l, &h))
			return false;
	*lo = l;
	*hi = h;
	return true;
}

/* What a back-fill call came to. */
typedef enum UidBackfillResult
{
	UID_BACKFILL_ISSUED,		/* *seq is the ID's sequence */
	UID_BACKFILL_OVERLAPS,		/* the range overlaps earlier ones, and is not the one in use */
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
	uint64		lanes[UID_BACKFILL_LANES];
	uint64		used;
	uint64		used_since;
} UidBackfillSeen;

/*
 * A sequence of lo..hi (the back-fill range, at least
 * UID_BACKFILL_RANGE_MIN, clear of the live range: the caller checks that)
 * for an ID dated at tick (at most now, the clock's tick), or why there is
 * none.
 */
extern UidBackfillResult uid_backfill_alloc(const UidBackfillWords *w, uint64 tick,
											uint64 now, uint32 lo, uint32 hi,
											UidBackfillSeen *seen, uint32 *seq);

#endif							/* UID_CORE_BACKFILL_H */
