/*
 * core/alloc.h
 *		The generator core: lock-free allocation of (tick, sequence) pairs
 *		over shared words, and the rules of the lease and the fence.
 *
 * The core knows nothing above it.  What it must respect comes in as data:
 * the slot's words, the clock (through the spec's now() and the platform),
 * the sequence part a call may issue from, the lease and fence words, the
 * incarnation and the lease that WAL holds.  It answers with a decision:
 * issued (and whether the lease must first reach further), out of time,
 * a fence to apply, a renewal to make or to wait for.  Leases in WAL,
 * fences, identities, settings and errors sit above it (generate.c, lease.c,
 * identity.c) and act on its answers.  It builds without the backend over
 * core/platform.h, so the simulator (test/sim) runs the same code.
 *
 * The invariants it owns (doc/design.md, "The generator core"):
 *   - no (timeline, tick, sequence) of a slot is issued twice: every state
 *     word only grows, and is changed only by a compare-and-swap against
 *     the value the decision was made from;
 *   - a call's clock reading is taken after the state it is compared with;
 *   - a single-timeline slot borrows ahead of its clock at most one tick
 *     per tick of monotonic time (the pace);
 *   - a fence marks every tick that starts before it used up;
 *   - an issued tick starts UID_LEASE_US / 2 before the lease, or the caller
 *     is told to extend the lease before handing the ID out.
 */
#ifndef UID_CORE_ALLOC_H
#define UID_CORE_ALLOC_H

#include "core/platform.h"

/*
 * A tick/sequence state word: tick << 20 | seq.  Ticks up to 2^44 and
 * sequences up to 2^20 - 1 fit, which covers every format's clock and
 * per-tick sequence.  A run-on sequence (see UidClockSpec) keeps there
 * start << w | seq instead, w the width of its seq_max: seq counts the
 * tick's IDs from 0, start is where the tick's sequence numbers began.
 */
#define UID_SEQ_BITS 20
#define UID_SEQ_MASK ((UINT64CONST(1) << UID_SEQ_BITS) - 1)
#define UID_TICK_MAX ((UINT64CONST(1) << (64 - UID_SEQ_BITS)) - 1)

/*
 * One slot of the state file per type: a cache line of state words, updated
 * by CAS on every ID, and one of counters, touched rarely (issued is batched
 * per backend), so that counting never contends with generating.
 *
 * The state words, by the allocator that uses them:
 *   one    single timeline (uid_alloc_tick, !ticktock): mark, the state
 *          word; pace, the monotonic time before which no backend may
 *          borrow again (uid_pace_claim).
 *   tt     tick-tock (sno): a state word per timeline; flips, whose low bit
 *          selects the current timeline; seen, the highest clock tick read.
 *          type[] is the type's own (sno_overflow.h: back-fill lanes and ranges,
 *          overflow notifications).
 *   uniq   strictly increasing ticks (muid): last, the last tick issued;
 *          seen, the highest clock tick read.
 */
typedef struct UidSlot
{
	union
	{
		UidWord		word[8];
		struct
		{
			UidWord		mark;
			UidWord		pace;
		}			one;
		struct
		{
			UidWord		mark[2];
			UidWord		flips;
			UidWord		seen;
			UidWord		type[4];
		}			tt;
		struct
		{
			UidWord		last;
			UidWord		seen;
		}			uniq;
	};
	UidWord		issued;
	UidWord		overflow_waits;
	UidWord		overflow_wait_us;
	UidWord		clock_regressions;
	UidWord		tick_flips;
	UidWord		fenced;			/* incarnation that fenced the slot's marks */
	UidWord		sharers;		/* backends sharing a tick, see uid_share_count */
	UidWord		spare[1];		/* sno: see sno_overflow.h (overflow notifications) */
} UidSlot;

UID_STATIC_ASSERT(sizeof(UidWord) == 8, "a shared word is 8 bytes");
UID_STATIC_ASSERT(sizeof(UidSlot) == 128, "a slot is two cache lines");
UID_STATIC_ASSERT(offsetof(UidSlot, one.pace) == 8 &&
				  offsetof(UidSlot, tt.flips) == 16 &&
				  offsetof(UidSlot, tt.seen) == 24 &&
				  offsetof(UidSlot, tt.type) == 32 &&
				  offsetof(UidSlot, uniq.seen) == 8,
				  "the slot's words keep the file layout of 0.5.0");

/*
 * The lease and fence words of the state file's header (lease.c):
 *   lease_us   every ID issued starts before it, and WAL holds it (Unix us)
 *   renewing   when a backend began renewing the lease (monotonic us), 0
 *   fences     fences applied to a slot
 *   fence_us   the fence of incarnation fence_key
 *   renewals   leases WAL-logged
 *   fence_key  the incarnation fence_us was taken in
 */
typedef struct UidLeaseWords
{
	UidWord		lease_us;
	UidWord		renewing;
	UidWord		fences;
	UidWord		fence_us;
	UidWord		renewals;
	UidWord		fence_key;
} UidLeaseWords;

/* The result of one allocation of a (tick, sequence) pair. */
typedef struct UidTickSeq
{
	uint64		tick;
	uint32		seq;
	int			timeline;		/* tick-tock bit; 0 for single-timeline types */
	int32		ident;			/* the lease id the ID embeds (see identity.c);
								 * -1: the identity settings apply */
} UidTickSeq;

/*
 * Describes one format's clock for the allocator: the tick length and
 * origin, and the largest tick and sequence number it may issue.
 *
 * A sequence restarts at 0 each tick, unless seq_runs_on is set (uid60):
 * then it is not reset, it runs on by 1 modulo seq_max + 1 (a power of two,
 * whose square fits UID_SEQ_BITS) across ticks, and a tick is used up when
 * it would come back to the number the tick began with.  The first number
 * ever issued is one after the cursor's seq_origin.
 */
typedef struct UidClockSpec UidClockSpec;

struct UidClockSpec
{
	const char *type_name;		/* for error messages */
	const char *func;			/* the generator, for error messages: "sno_new()" */
	int			slot;			/* its slot in the state file */
	int64		epoch_us;		/* Unix time of tick 0, microseconds */
	int64		tick_us;		/* length of one tick, microseconds */
	uint64		tick_max;
	uint32		seq_max;
	bool		seq_runs_on;
	bool		ticktock;		/* two timelines (sno), see uid_alloc_tick */
	bool		unique;			/* a tick of its own per call, no sequence
								 * (muid): uid_alloc_unique, not uid_alloc_tick */

	/*
	 * Called, if set, when a call is about to wait for the clock to pass
	 * tick, whose sequence is used up (used_up) or the call's fair share of
	 * it: after the wait is counted in overflow_waits, before it begins.
	 * sno's overflow notifications.
	 */
	void		(*on_wait) (const UidClockSpec *spec, UidSlot *slot, uint64 tick,
							bool used_up);

	/*
	 * The current tick, compiled by the type where the spec is a constant,
	 * so that the division by the tick length is folded into a
	 * multiplication.  It may end the call (a clock outside the format's
	 * range), as an interrupt may.
	 */
	uint64		(*now) (const UidClockSpec *spec);
};

/*
 * A type's clock as its codec header states it (codec/registry.h's clock
 * column, e.g. SNO_CLOCK) as the spec's fields: the generators and the
 * simulator write { UID_CLOCK_FIELDS(SNO_CLOCK), ... } and so cannot
 * disagree about a type's clock.
 */
#define UID_CLOCK_FIELDS(clock) UID_CLOCK_FIELDS_ clock
#define UID_CLOCK_FIELDS_(epoch, tick, last_tick, last_seq, runs_on, timelines, unique_) \
	.epoch_us = (epoch), .tick_us = (tick), .tick_max = (last_tick), \
	.seq_max = (last_seq), .seq_runs_on = (runs_on), .ticktock = (timelines), \
	.unique = (unique_)

/*
 * What one backend keeps per slot between calls: its share of the current
 * tick (see uid_share_count), and where the slot's run-on sequence starts
 * (a value drawn with the state file; the same in every backend).
 */
typedef struct UidCursor
{
	uint64		share_tick;		/* the tick this backend last took an ID in */
	uint32		share_taken;	/* how many it took in it */
	uint32		seq_origin;
} UidCursor;

typedef enum UidAllocResult
{
	UID_ALLOC_ISSUED,			/* *out holds the pair */
	UID_ALLOC_OUT_OF_TIME		/* the next ID would be past the format's time range */
} UidAllocResult;

/*
 * The next (tick, seq) of a slot, within the sequence part seq_lo..seq_hi
 * (within 0..seq_max; the whole of it for a run-on sequence).  See alloc.c.
 */
extern UidAllocResult uid_alloc_tick(UidSlot *slot, const UidClockSpec *spec,
									 UidCursor *cur, uint32 seq_lo, uint32 seq_hi,
									 UidTickSeq *out);

/*
 * A tick that strictly increases across every backend of the server:
 * max(clock, last + 1), never past spec->tick_max (muid).
 */
extern UidAllocResult uid_alloc_unique(UidSlot *slot, const UidClockSpec *spec,
									   uint64 *tick);

/* Moves a slot's marks past fence_us: every tick it issues next starts at or after it. */
extern void uid_fence_marks(UidSlot *slot, const UidClockSpec *spec, bool unique,
							uint64 fence_us);

/*
 * The fence of an incarnation: if this incarnation took it already, true
 * with *fence_us set; else the caller reads the lease WAL holds and takes
 * it with uid_fence_take (the larger of that and the file's own lease).
 */
extern bool uid_fence_known(UidLeaseWords *lw, uint64 incarnation, uint64 *fence_us);
extern uint64 uid_fence_take(UidLeaseWords *lw, uint64 incarnation, uint64 wal_lease_us);

/* Fences a slot once per incarnation: its marks pass fence_us. */
extern void uid_slot_fence(UidLeaseWords *lw, UidSlot *slot, const UidClockSpec *spec,
						   bool unique, uint64 incarnation, uint64 fence_us);

/*
 * The lease.  It runs UID_LEASE_US past the newest ID; an ID whose tick
 * starts within UID_LEASE_US / 2 of it makes one backend renew it (WAL, then
 * a sync of the state file: the caller's), so that the others never wait.
 */
#define UID_LEASE_US	INT64CONST(1000000)

/* The end of a tick in Unix microseconds. */
static inline uint64
uid_tick_end_us(const UidClockSpec *spec, uint64 tick)
{
	return (uint64) spec->epoch_us + (tick + 1) * (uint64) spec->tick_us;
}

/*
 * The least lease that covers an ID of tick: one microsecond past the
 * tick's start.  A fence marks every tick that starts before the lease used
 * up, so a type's IDs move at most a lease and one of its own ticks past the
 * newest ID, whatever the other types' ticks.  (A lease past the tick's end
 * moved every type as far as the coarsest: with uid60's one-second ticks in
 * use, up to two seconds.  doc/design.md, "The lease and the fence jump".)
 */
static inline uint64
uid_tick_lease_us(const UidClockSpec *spec, uint64 tick)
{
	return (uint64) spec->epoch_us + tick * (uint64) spec->tick_us + 1;
}

/* Whether the lease must be extended before an ID of tick is handed out. */
static inline bool
uid_lease_short(UidLeaseWords *lw, const UidClockSpec *spec, uint64 tick)
{
	return uid_tick_lease_us(spec, tick) + UID_LEASE_US / 2 > uid_word_read(&lw->lease_us);
}

typedef enum UidRenewal
{
	UID_RENEWAL_COVERED,		/* the lease covers it: nothing to do */
	UID_RENEWAL_MINE,			/* this backend renews: log the lease, then
								 * uid_lease_renewed() or uid_lease_abandoned() */
	UID_RENEWAL_WAIT			/* another backend renews: wait a little, ask again */
} UidRenewal;

/* A renewal that has taken longer than this is taken over by another backend. */
#define UID_RENEW_STALE_US INT64CONST(5000000)

extern UidRenewal uid_lease_renewal(UidLeaseWords *lw, uint64 need_us, int64 mono_us);

/* The lease a renewal for need_us (uid_tick_lease_us) logs, at Unix time now_us. */
static inline uint64
uid_lease_next(uint64 now_us, uint64 need_us)
{
	return (now_us > need_us ? now_us : need_us) + UID_LEASE_US;
}

extern void uid_lease_renewed(UidLeaseWords *lw, uint64 lease_us);
extern void uid_lease_abandoned(UidLeaseWords *lw);

/* The tick of a state word (its high-water mark). */
static inline uint64
uid_word_tick(uint64 word)
{
	return word >> UID_SEQ_BITS;
}

/* Raises a shared word to at least value. */
static inline void
uid_raise_u64(UidWord *word, uint64 value)
{
	uint64		old = uid_word_read(word);

	while (old < value && !uid_word_cas(word, &old, value))
		;
}

/* splitmix64's finalizer: a bijection that spreads every input bit. */
static inline uint64 uid_mix64(uint64 x);

/*
 * Where a slot's run-on sequence starts (UidCursor.seq_origin): drawn from
 * the state file's secret, the same in every backend while the file is.
 */
static inline uint32
uid_seq_origin(uint64 secret, int slot)
{
	return (uint32) uid_mix64(secret ^ uid_mix64((uint64) slot + 1));
}

/* splitmix64's finalizer: a bijection that spreads every input bit. */
static inline uint64
uid_mix64(uint64 x)
{
	x ^= x >> 30;
	x *= UINT64CONST(0xbf58476d1ce4e5b9);
	x ^= x >> 27;
	x *= UINT64CONST(0x94d049bb133111eb);
	x ^= x >> 31;
	return x;
}

/*
 * The key of a server incarnation (lease.c), whose first ID of each type
 * is fenced past the lease in WAL (invariant 7): the system, the shared
 * state, the postmaster's start and pid, the WAL timeline.  live_id is
 * drawn each time the shared state is read from the state file: a state
 * read again, even within one postmaster life (its shared memory removed),
 * holds the file's marks, as old as its last write, and only the fence
 * makes them safe.  Never 0 (a fresh file's slots) or UINT64_MAX.
 */
static inline uint64
uid_incarnation_of(uint64 system, uint64 live_id, uint64 start, uint64 pid,
				   uint64 timeline)
{
	uint64		key;

	key = uid_mix64(system ^ uid_mix64(live_id));
	key = uid_mix64(key ^ start);
	key = uid_mix64(key ^ pid);
	key = uid_mix64(key ^ timeline);
	key |= 1;
	if (key == UINT64_MAX)
		key ^= 2;
	return key;
}

#endif							/* UID_CORE_ALLOC_H */
