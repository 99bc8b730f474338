/*
 * clock.h
 *		The generator core shared by every ID type.
 *
 * Each type owns one slot of a small file in the data directory that every
 * backend maps MAP_SHARED.  A slot holds the type's state words, updated
 * only by compare-and-swap (no lock is ever held, so a backend that dies
 * mid-call cannot wedge the others), and its counters.  Because the file
 * outlives the server, the high-water marks survive restarts and crashes.
 *
 * The file is not WAL-logged, so copies of the data directory (a standby,
 * a restored backup, a rewound node) and an operating-system crash can
 * leave it behind the IDs the server's WAL holds.  The lease and the fence
 * close that gap: before an ID is handed out, WAL holds a lease, a time
 * that no ID issued so far reaches (kept in a replication origin, which
 * core WAL-logs, replays on standbys and checkpoints, without
 * shared_preload_libraries).  The first generation of a type in each server
 * incarnation (a start, a promotion) moves the type's marks past the lease
 * that recovery replayed.  See lease.c.
 */
#ifndef UID_CLOCK_H
#define UID_CLOCK_H

#include <time.h>

#include "port/atomics.h"

#include "compat.h"

#ifdef PG_HAVE_ATOMIC_U64_SIMULATION
#error "uid needs native 64-bit atomics: its state is shared through a file mapping"
#endif

/* Slot numbers are part of the file layout: never renumber, only append. */
typedef enum UidSlotId
{
	UID_SLOT_SNO = 0,
	UID_SLOT_MUID = 1,
	UID_SLOT_SNOWFLAKE_SI = 2,
	UID_SLOT_REVTS8 = 3,
	UID_SLOT_UID60 = 4
} UidSlotId;

#define UID_NSLOTS 8

/*
 * One cache line of state words, updated by CAS on every ID, and one of
 * counters, touched rarely (issued is batched per backend), so that
 * counting never contends with generating.
 */
typedef struct UidSlot
{
	pg_atomic_uint64 word[8];	/* type-specific state */
	pg_atomic_uint64 issued;
	pg_atomic_uint64 overflow_waits;
	pg_atomic_uint64 overflow_wait_us;
	pg_atomic_uint64 clock_regressions;
	pg_atomic_uint64 tick_flips;
	pg_atomic_uint64 fenced;	/* incarnation that fenced the slot's marks */
	pg_atomic_uint64 sharers;	/* backends sharing a tick, see clock.c */
	pg_atomic_uint64 spare[1];	/* sno: see sno.c (overflow notifications) */
} UidSlot;

/*
 * A tick/sequence state word: tick << 20 | seq.  Ticks up to 2^44 and
 * sequences up to 2^20 - 1 fit, which covers every format's clock and
 * per-tick sequence.  A run-on sequence (see UidClockSpec) keeps there
 * start << w | seq instead, w the width of its seq_max: seq counts the
 * tick's IDs from 0, start is where the tick's sequence numbers began.
 */
#define UID_SEQ_BITS 20
#define UID_TICK_MAX ((UINT64CONST(1) << (64 - UID_SEQ_BITS)) - 1)

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
 * Describes one format's clock for the generic allocator: the tick length
 * and origin, and the largest tick and sequence number it may issue.
 * uid_next_tick_in() narrows the sequence to part of 0..seq_max (sno's
 * sequence sharding); uid_next_tick() uses all of it.
 *
 * A sequence restarts at 0 each tick, unless seq_runs_on is set (uid60):
 * then it is not reset, it runs on by 1 modulo seq_max + 1 (a power of two,
 * whose square fits UID_SEQ_BITS) across ticks, and a tick is used up when
 * it would come back to the number the tick began with.  The first number
 * ever issued is one after a value drawn when the state file was made.
 */
typedef struct UidClockSpec UidClockSpec;

struct UidClockSpec
{
	const char *type_name;		/* for error messages */
	const char *func;			/* the generator, for error messages: "sno_new()" */
	UidSlotId	slot;
	int64		epoch_us;		/* Unix time of tick 0, microseconds */
	int64		tick_us;		/* length of one tick, microseconds */
	uint64		tick_max;
	uint32		seq_max;
	bool		seq_runs_on;
	bool		ticktock;		/* two timelines (sno), see uid_next_tick */

	/*
	 * Called, if set, when a call is about to wait for the clock to pass
	 * tick, whose sequence is used up (used_up) or the call's fair share of
	 * it: after the wait is counted in overflow_waits, before it begins.
	 * sno's overflow notifications.
	 */
	void		(*on_wait) (const UidClockSpec *spec, UidSlot *slot, uint64 tick,
							bool used_up);

	/*
	 * The current tick: uid_clock_tick() on this spec, compiled by the type
	 * where the spec is a constant, so that the division by the tick length
	 * is folded into a multiplication (a 64-bit division on every ID costs
	 * as much as the rest of the allocation).
	 */
	uint64		(*now) (const UidClockSpec *spec);
};

/*
 * The server's identity leased from a coordinator (identity.c).  gen is a
 * sequence lock: odd while a backend rewrites the lease, so that a reader
 * never pairs one lease's id with another's key or floor.
 */
typedef struct UidIdentState
{
	pg_atomic_uint64 gen;
	pg_atomic_uint64 word;		/* expiry_ms << UID_IDENT_ID_BITS | (id + 1);
								 * 0: no lease */
	pg_atomic_uint64 floor_us;	/* IDs under the lease begin at or after it */
	pg_atomic_uint64 key;		/* what the lease is for: coordinator, pool,
								 * size, system, timeline, state file, host */
	pg_atomic_uint64 token;		/* the coordinator's token of the claim */
	pg_atomic_uint64 renew_at_us;	/* renew from this time on (Unix us) */
	pg_atomic_uint64 busy;		/* when a backend began talking to the
								 * coordinator (monotonic us), 0 when none */
	pg_atomic_uint64 retry_at;	/* no renewal before this after a failure
								 * (monotonic us) */
	pg_atomic_uint64 unused[3];	/* zero */
	pg_atomic_uint64 last_sqlstate;	/* of last_error: the coordinator's code, packed */
	pg_atomic_uint64 last_key;	/* the key last_error was for */
	pg_atomic_uint64 spare[3];
	char		last_error[256];	/* of the last conversation, by its backend */

	/*
	 * This server's clock against the coordinator's, measured with the
	 * lease's last claim or renewal (identity.c, uid_ident_measure): its
	 * clock minus the coordinator's lies in offset_lo_us .. offset_hi_us
	 * (int64).  Appended in 0.6.0: zeros (a file of an older library, or a
	 * lease it claimed) read as not measured.
	 */
	pg_atomic_uint64 offset_lo_us;
	pg_atomic_uint64 offset_hi_us;
	pg_atomic_uint64 bound_us;	/* half the coordinator's uid.pool_grace */
	pg_atomic_uint64 measured_us;	/* when (this server's clock, Unix us);
									 * 0: not measured */
	pg_atomic_uint64 measured_by;	/* 1: a claim, 2: a renewal */
} UidIdentState;

#define UID_IDENT_ID_BITS 17

/*
 * sno's sequence ranges as the server issues from them (sno.c), and which
 * sequences sno_new() has issued.  Zeros in a file of uid 0.5.0 or older.
 *
 * ranges is the one word sno_new() reads on every ID: the live and the
 * back-fill range that a backend took from a reload and published (see
 * sno.c), 0 before any was.  The other words describe the switch for
 * sno_range() and are written under lock by the publishing backend.
 *
 * live_used is UID_SNO_USED_VALID | lowest << 16 | highest sequence that
 * sno_new() issued while it has been recorded, that is since the file was
 * made (live_used_since 0), or for an older file since the sno mark was
 * live_used_since: back-fill must keep clear of those sequences.
 */
typedef struct UidSnoConfig
{
	pg_atomic_uint64 ranges;
	pg_atomic_uint64 pm_key;	/* the postmaster life that published them */
	pg_atomic_uint64 lock;		/* a backend publishing (monotonic us), 0 if none */
	pg_atomic_uint64 taken_us;	/* when they were published (Unix us) */
	pg_atomic_uint64 previous;	/* the ranges word before, 0: none */
	pg_atomic_uint64 previous_until;	/* the highest sno tick issued when they
										 * were replaced, + 1; 0: none */
	pg_atomic_uint64 live_used;
	pg_atomic_uint64 live_used_since;
	pg_atomic_uint64 stamp;		/* uid_reload_stamp() of the publisher */
} UidSnoConfig;

#define UID_SNO_USED_VALID	(UINT64CONST(1) << 63)
/* recorded, and no sequence issued yet: lowest 0xFFFF, highest 0 */
#define UID_SNO_USED_EMPTY	(UID_SNO_USED_VALID | UINT64CONST(0xFFFF) << 16)

/*
 * The layout of the mapped state file, version 3.  Version 1 (uid 0.1.0 and
 * 0.2.0) had zeros where the header now has its lease and fence words, which
 * is what a later file starts with, so a version 1 file is taken over in
 * place.  Version 2 (0.3.0 to 0.5.0) had zeros where version 3 (0.6.0) keeps
 * sno's ranges and the record of its live sequences; version 3 exists so
 * that a 0.5.0 library, which would issue without recording, refuses it.
 */
typedef struct UidStateFile
{
	uint32		magic;
	uint32		version;
	uint64		secret;			/* random, drawn when the file is made */
	pg_atomic_uint64 lease_us;	/* WAL holds a lease at least this far:
								 * every ID issued ends before it (Unix us) */
	pg_atomic_uint64 renewing;	/* when a backend began renewing the lease
								 * (monotonic us), 0 when none is */
	pg_atomic_uint64 fences;	/* fences applied to a slot */
	pg_atomic_uint64 fence_us;	/* the fence of incarnation fence_key */
	pg_atomic_uint64 renewals;	/* leases WAL-logged */
	pg_atomic_uint64 fence_key; /* the incarnation fence_us was taken in */
	UidSlot		slots[UID_NSLOTS];
	UidIdentState ident;		/* zeros in a file of uid 0.3.0 or older */
	UidSnoConfig sno_cfg;		/* zeros in a file of uid 0.5.0 or older */
} UidStateFile;

extern UidStateFile *uid_state;
extern void uid_state_attach(void);

/* The device and inode of the mapped file, mixed. */
extern uint64 uid_state_file_id(void);

/* Errors if the state file at its path is no longer the one mapped. */
extern void uid_state_check_same(void);

/* Writes the mapped state to disk and waits for it. */
extern void uid_state_sync(void);

/*
 * This backend's server incarnation (see lease.c), UINT64_MAX until it has
 * checked that the server is out of recovery; a slot whose fenced word
 * equals it has been fenced in this incarnation.
 */
extern uint64 uid_incarnation;

extern UidSlot *uid_gen_prepare(const UidClockSpec *spec, bool unique);

/*
 * The slot of a type, for generating: maps the state file on first use,
 * refuses during recovery, and fences the slot once per incarnation.  One
 * comparison when all of that is done.
 */
static inline UidSlot *
uid_gen_slot(const UidClockSpec *spec, bool unique)
{
	if (likely(uid_state != NULL))
	{
		UidSlot    *slot = &uid_state->slots[spec->slot];

		if (likely(pg_atomic_read_u64(&slot->fenced) == uid_incarnation))
			return slot;
	}
	return uid_gen_prepare(spec, unique);
}

/* The system clock in microseconds since the Unix epoch. */
static inline int64
uid_clock_unix_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64) ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
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

/* Raises a shared word to at least value. */
static inline void
uid_raise_u64(pg_atomic_uint64 *word, uint64 value)
{
	uint64		old = pg_atomic_read_u64(word);

	while (old < value && !pg_atomic_compare_exchange_u64(word, &old, value))
		;
}

/* The monotonic clock in microseconds, which no clock step moves. */
static inline int64
uid_clock_mono_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64) ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
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
 * The next (tick, seq) of a type, under the clock-regression policy of
 * doc/design.md: the allocator reads the clock after the state.  A fresh tick
 * restarts the sequence (a run-on one goes on from the last tick's).  While
 * the clock is behind the high-water mark, it issues at that mark and moves
 * past it without waiting (borrowing from the future).  When the clock's
 * own tick is used up it sleeps until the next tick; if a full wait did not
 * move the clock (a stopped clock), it borrows the next tick instead of
 * waiting again, so generation never stalls for more than about one tick.
 *
 * One timeline: word[0] is tick << UID_SEQ_BITS | seq.  The tick-tock
 * variant (spec->ticktock, sno) has two timelines, each with its own state
 * word (word[0] and word[1]), word[2] counting flips, whose low bit selects
 * the current timeline, and word[3] the highest clock tick read so far.
 * When the clock goes back to a time behind the current timeline but ahead
 * of the other one, generation flips to the other timeline at the clock's
 * time; when it is behind both, it holds at the current timeline's
 * high-water mark.  Every timeline word only ever grows, so no pair is
 * issued twice whatever the races on the selector.
 *
 * Before it returns, WAL holds a lease past the tick (see lease.c).
 *
 * uid_next_tick_in() issues within a part of the sequence, seq_lo..seq_hi
 * (within 0..seq_max; the whole of it for a run-on sequence): a fresh tick
 * begins at seq_lo, a tick is used up at seq_hi, and the fair share divides
 * the part's size.  The word keeps the sequence last issued, which within a
 * tick only grows, so a part that changes between calls (a reload; backends
 * that have and have not taken it yet) never makes a pair be issued twice:
 * a call issues the larger of the word's sequence + 1 and its seq_lo, and
 * finds the tick used up when that is past its seq_hi.  A fence marks a tick
 * used up with seq_max, which is past every part's seq_hi.
 */
extern UidTickSeq uid_next_tick_in(const UidClockSpec *spec, uint32 seq_lo, uint32 seq_hi);

static inline UidTickSeq
uid_next_tick(const UidClockSpec *spec)
{
	return uid_next_tick_in(spec, 0, spec->seq_max);
}

/*
 * A tick that strictly increases across every backend of the server:
 * max(clock, last + 1), never past spec->tick_max (muid's transaction
 * timestamps).  While the clock is behind the last tick, or several callers
 * share one clock tick, it borrows from the future without waiting.
 * word[0] is the last tick issued, word[1] the highest clock tick read.
 * Leased like uid_next_tick.
 */
extern uint64 uid_unique_tick(const UidClockSpec *spec, int32 *ident);

/*
 * The identity leased from a coordinator (identity.c).  Once a tick is
 * allocated: the lease id to embed, -1 for the identity settings, or
 * UID_IDENT_AGAIN when the tick may not be issued under the lease (it begins
 * before the lease's floor, whose marks are now raised, or the lease was
 * renewed or claimed meanwhile): allocate again.  Errors when no lease can
 * be had.
 */
#define UID_IDENT_AGAIN (-2)
extern bool uid_ident_leased;	/* uid.coordinator is set (or refused) */
extern int32 uid_ident_check(UidSlot *slot, const UidClockSpec *spec, bool unique,
							 uint64 tick);

static inline int32
uid_ident_cover(UidSlot *slot, const UidClockSpec *spec, bool unique, uint64 tick)
{
	if (likely(!uid_ident_leased))
		return -1;
	return uid_ident_check(slot, spec, unique, tick);
}

/*
 * The lease: WAL holds a lease past every ID handed out.  lease.c renews it
 * when an ID reaches into its second half, so that one backend writes WAL
 * about once per half lease and the others never wait for it.
 */
#define UID_LEASE_US	INT64CONST(1000000)

extern void uid_lease_extend(uint64 end_us);

/* The end of a tick in Unix microseconds: the lease must be past it. */
static inline uint64
uid_tick_end_us(const UidClockSpec *spec, uint64 tick)
{
	return (uint64) spec->epoch_us + (tick + 1) * (uint64) spec->tick_us;
}

static inline void
uid_lease_cover(const UidClockSpec *spec, uint64 tick)
{
	uint64		end = uid_tick_end_us(spec, tick);

	if (unlikely(end + UID_LEASE_US / 2 > pg_atomic_read_u64(&uid_state->lease_us)))
		uid_lease_extend(end);
}

/* Moves a slot's marks past the fence: every tick it issues next ends after fence_us. */
extern void uid_fence_marks(UidSlot *slot, const UidClockSpec *spec, bool unique,
							uint64 fence_us);

/* The tick of a state word (its high-water mark). */
static inline uint64
uid_word_tick(uint64 word)
{
	return word >> UID_SEQ_BITS;
}

/* Counts one ID issued by this backend; flushed to the slot at transaction end. */
extern void uid_count_issued(UidSlotId id);
extern void uid_flush_counts(void);

/*
 * A 64-bit value drawn once per server start: every backend of one
 * postmaster computes the same value for the same purpose, and it differs
 * between server starts and between data directories.
 */
extern uint64 uid_boot_value(uint64 purpose);

#endif							/* UID_CLOCK_H */
