/*
 * sim.c
 *		A deterministic simulator of uid's generator core.
 *
 * Simulated servers, each with simulated backends, run the real allocator
 * (src/core/alloc.c, compiled with sim_platform.h).  Each backend is a
 * coroutine; every step it takes on shared memory or a clock hands control
 * to a scheduler that, from a seed, picks which backend goes next, moves
 * simulated time on and injects faults:
 *
 *   clock      a server's clock steps back or forward (or back to the true
 *              time), stops, runs at half or double speed
 *   backend    a backend dies at any step, even mid-renewal of the lease
 *   restart    a server restarts (a new incarnation; file and WAL intact)
 *   crash      an operating-system crash: the state file goes back to an
 *              image the disk held (one synced or written back earlier),
 *              WAL keeps what was flushed, the monotonic clock restarts
 *   failover   a standby with all flushed WAL (synchronous replication)
 *              becomes the primary: its own clock (skewed), its state file
 *              empty or an old copy (a base backup)
 *   reload     sno's sequence ranges change, and each backend takes the new
 *              ones at a different time
 *   partition  (leased identities) a server cannot reach the coordinator for
 *              a while: its lease runs out, and another server may claim
 *              its id
 *
 * Half the seeds give each server a hand-set identity of its own; the
 * other half lease ids from a coordinator (identity.c) from a pool with one
 * id fewer or more than the servers, with a grace of 2 s and a TTL of 4 s:
 * ids move between servers whose clocks the faults skew by up to 3 s, and
 * a lease lives in the state file (a crash may set it back with the rest).
 * The conversation with the coordinator is modelled here; which ticks a
 * lease allows, and how its clock is measured, are core/window.h's.
 *
 * What sits above the core in the server (lease.c's fence and renewal,
 * generate.c's loop) is modelled here in a few lines each, calling the same
 * core functions the server calls.  After every step it checks:
 *
 *   unique     no two IDs handed out are equal, across every server, crash
 *              and failover
 *   order      a call returns an ID after every ID that calls completed
 *              before it began (per timeline for sno; uid60's run-on
 *              sequence: its tick)
 *   lease      the tick of every ID handed out starts before the lease its
 *              server's WAL holds
 *   reach      a lease logged runs at most UID_LEASE_US past the later of
 *              the clock and the start of the tick it is for: a fence then
 *              moves each type at most a lease and one of its own ticks
 *   raise      a raise to a lease's floor moves the marks to the last tick
 *              that starts before the floor, no further
 *   pace       a single-timeline type borrows at the pace of real time: of
 *              the IDs that move its highest tick past both the last one
 *              and the server's clock, at most 4 + backends + 1 are handed
 *              out in any 4 ticks of real time
 *   window     (leased) every ID lies in the window of the lease it embeds
 *   live       no call lasts longer than LIVE_LIMIT_US of simulated time
 *
 * On a failure it prints the seed, shrinks the set of faults to those the
 * failure needs and the run to the step it fails at, and prints that
 * schedule's last events.  doc/testing.md says how to run it.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <time.h>
#include <ucontext.h>

#include "core/alloc.h"
#include "core/backfill.h"
#include "core/window.h"
#include "codec/muid_codec.h"
#include "codec/registry.h"
#include "codec/revts8_codec.h"
#include "codec/sno_codec.h"
#include "codec/uid60_codec.h"

#define NSERVERS_MAX	3
#define NBACKENDS_MAX	4		/* per server */
#define NIMAGES			8		/* disk images a crash may go back to */
#define STACK_SIZE		(64 * 1024)
#define TRACE_LEN		48
#define LIVE_LIMIT_US	INT64CONST(60000000)
#define NFAULTS_MAX		4096
#define START_UNIX_US	INT64CONST(1795651200000000)	/* 2026-11-26 */
#define PACE_RING		64
#define POOL_MAX		(NSERVERS_MAX + 1)
#define LEASE_TTL_US	INT64CONST(4000000)
#define LEASE_GRACE_US	INT64CONST(2000000)
#define RETRY_US		INT64CONST(1000000)
#define PACE_WINDOW		4		/* ticks */

/* ---------------------------------------------------------------- random */

typedef struct Rng
{
	uint64		s;
} Rng;

static uint64
rng_next(Rng *r)
{
	r->s += UINT64CONST(0x9E3779B97F4A7C15);
	return uid_mix64(r->s);
}

static uint64
rng_below(Rng *r, uint64 n)
{
	return n == 0 ? 0 : rng_next(r) % n;
}

/* ---------------------------------------------------------------- types */

/* The types, by their slots (codec/registry.h). */
#define SIM_TYPE_ENUM(ID, name, slot, nbytes, text) T_##ID = (slot),
enum
{
	UID_TYPES(SIM_TYPE_ENUM)
	NTYPES = UID_NTYPES
};

#define SIM_TYPE_NAME(ID, name, slot, nbytes, text) [T_##ID] = name,
static const char *type_names[NTYPES] = {UID_TYPES(SIM_TYPE_NAME)};

static uint64 sim_now(const UidClockSpec *spec);

/*
 * The five types' clocks as the server has them; snowflake_si with a 2-bit
 * sequence (its sequence width is a setting), so that its ticks fill.
 */
static const UidClockSpec specs[NTYPES] = {
	[T_SNO] = {.type_name = "sno", .slot = T_SNO, .ticktock = true,
		.epoch_us = SNO_EPOCH_UNIX_MS * 1000, .tick_us = SNO_UNIT_MS * 1000,
	.tick_max = SNO_UNITS_MAX, .seq_max = SNO_SEQ_MAX, .now = sim_now},
	[T_MUID] = {.type_name = "muid", .slot = T_MUID, .epoch_us = 0, .tick_us = 1,
	.tick_max = MUID_TS_MAX - 1, .seq_max = 0, .now = sim_now},
	[T_SNOWFLAKE_SI] = {.type_name = "snowflake_si", .slot = T_SNOWFLAKE_SI, .epoch_us = 0,
	.tick_us = 1000, .tick_max = UID_TICK_MAX, .seq_max = 3, .now = sim_now},
	[T_REVTS8] = {.type_name = "revts8", .slot = T_REVTS8, .epoch_us = 0, .tick_us = 1000,
	.tick_max = REVTS8_TS_MAX, .seq_max = REVTS8_SEQ_MAX, .now = sim_now},
	[T_UID60] = {.type_name = "uid60", .slot = T_UID60, .seq_runs_on = true,
		.epoch_us = UID60_EPOCH_UNIX_S * 1000000, .tick_us = 1000000,
	.tick_max = UID60_TS_MAX, .seq_max = UID60_SEQ_MAX, .now = sim_now},
};

/*
 * sno's sequence ranges a reload may deliver (narrow, so that ticks fill;
 * the last two across back-fill ranges below)
 */
static const uint32 sno_parts[][2] = {{0, 3}, {2, 5}, {4, 4}, {0, 1}, {6, 9}, {0, 9}, {20, 23}, {18, 25}};

#define NPARTS (sizeof(sno_parts) / sizeof(sno_parts[0]))

/*
 * sno's back-fill ranges a reload may deliver: most clear of every live
 * range above, two across live ones (refused while live IDs hold their
 * sequences), some overlapping each other (a second pass over them is
 * refused).
 */
static const uint32 bf_parts[][2] = {{12, 15}, {16, 19}, {20, 27}, {12, 19}, {8, 11}, {6, 9}};

#define NBF (sizeof(bf_parts) / sizeof(bf_parts[0]))

/* The sequences a range takes, as bits (every range here is below 32). */
static inline uint32
seq_bits(uint32 lo, uint32 hi)
{
	return (uint32) (((UINT64CONST(1) << (hi + 1)) - 1) & ~((UINT64CONST(1) << lo) - 1));
}

/* ---------------------------------------------------------------- world */

/* The state file, as far as the core uses it. */
/* A leased identity as the state file keeps it (identity.c's UidIdentState). */
typedef struct SimIdent
{
	int			id;				/* -1: none */
	uint64		key;			/* the server (a failover's standby has another) */
	uint64		token;
	uint64		floor_us;
	uint64		expiry_us;
	uint64		renew_at_us;
	bool		skewed;
} SimIdent;

typedef struct SimFile
{
	UidLeaseWords lease;
	UidSlot		slots[NTYPES];
	uint64		secret;
	SimIdent	ident;
	UidWord		used;			/* sno's record of live sequences (UidSnoConfig) */
	UidWord		used_since;
} SimFile;

typedef struct Server
{
	int			ident;			/* what its IDs embed: one per server, fixed */
	uint64		incarnation;
	uint64		wal_lease;		/* the lease its WAL holds (flushed) */
	int64		boot_t;			/* monotonic clock: t - boot_t + mono_base */
	int64		mono_base;
	int64		anchor_t;		/* wall clock: anchor_unix + (t - anchor_t) * rate */
	int64		anchor_unix;
	int			rate_num;
	int			rate_den;
	int			part;			/* the sno range its last reload delivered */
	int			bf;				/* the back-fill range it delivered, -1: off */
	/*
	 * Sequences this server, or one it was copied from, ever issued by
	 * back-fill, or may have issued live: after a failover, back-fill takes a
	 * range clear of all of them (doc/types.md, "Durability").
	 */
	uint32		bf_spent;
	bool		copied;			/* a failover made it from a copy */
	/* the ticks of its last live sno IDs, where back-fill is aimed half the time */
	uint64		live_ticks[64];
	int			nlive_ticks;
	/* leased identities: this server's key, its retries, its link */
	uint64		key;
	int64		retry_at;		/* no conversation before (real time) */
	int64		cut_until;		/* cannot reach the coordinator until */
	int64		talk_began;		/* a backend's conversation (real time), 0: none */
	/* pace: the highest tick handed out, and when the last borrows were */
	uint64		max_tick[NTYPES];
	int64		borrows[NTYPES][PACE_RING];
	int			nborrows[NTYPES];
	SimFile		file;
	SimFile		images[NIMAGES];	/* what the disk held, oldest first */
	int			nimages;
} Server;

typedef struct Backend
{
	bool		alive;
	int			server;
	int			num;			/* for the trace: the n-th backend started */
	ucontext_t	ctx;			/* to enter the coroutine the first time */
	jmp_buf		jb;				/* where it stopped since */
	bool		entered;
	char	   *stack;
	int64		wake_t;
	UidCursor	cur[NTYPES];
	int			part;			/* the sno range it issues from */
	int			bf;				/* the back-fill range it takes, -1: off */
	uint64		used_copy;		/* its copy of the live sequences' record */
	/* the call under way */
	int			type;
	int64		call_t;
	uint64		floor[2];
	bool		in_call;
} Backend;

typedef struct Fault
{
	int			kind;
	uint64		a;
	uint64		b;
} Fault;

enum
{
	F_CLOCK_STEP, F_CLOCK_RATE, F_BACKEND, F_RESTART, F_CRASH, F_FAILOVER, F_RELOAD,
	F_WRITEBACK, F_PARTITION, NFAULTKINDS
};

static const char *fault_names[NFAULTKINDS] = {
	"clock-step", "clock-rate", "backend-dies", "restart", "os-crash", "failover",
	"reload", "writeback", "partition"
};

/* The coordinator's pool: who holds each id, until when (its clock). */
typedef struct PoolEntry
{
	int			holder;			/* a server, -1: none */
	uint64		holder_key;
	uint64		token;
	int64		expiry_us;
} PoolEntry;

/* An ID handed out: its value as the formats embed it. */
typedef struct IdKey
{
	uint32		server;
	uint32		type;
	uint32		timeline;
	uint32		seq;
	uint64		tick;
} IdKey;

typedef struct Trace
{
	uint64		step;
	int64		t;
	int			backend;
	int			server;
	char		text[96];
} Trace;

typedef struct Sim
{
	uint64		step;
	int64		t;				/* real time, us */
	int			nservers;
	int			nbackends;		/* per server */
	int			dt_scale;
	uint64		fault_period;
	bool		leased;
	int			pool_size;
	PoolEntry	pool[POOL_MAX];
	uint64		next_token;
	uint64		refused;		/* calls refused: no usable lease */
	uint64		moves;			/* ids claimed that another server held before */
	uint64		leased_ids;		/* IDs handed out under a leased id */
	uint32		used_block;		/* how the record of live sequences widens: 1, 2 or 256 */
	uint64		live_refused;	/* sno calls refused: the live range is all back-fill's */
	uint64		backfilled;		/* IDs back-filled (committed) */
	uint64		bf_refused;		/* back-fill calls refused */
	Rng			sched;
	Rng			frng;
	Server		servers[NSERVERS_MAX];
	Backend		backends[NSERVERS_MAX * NBACKENDS_MAX];
	int			started;
	uint64		next_incarnation;
	/* order: the largest key of completed calls, per server, type, timeline */
	uint64		done_max[NSERVERS_MAX][NTYPES][2];
	/* unique: open addressing over the IDs handed out */
	IdKey	   *ids;
	uint64		ids_cap;
	uint64		nids;
	/* faults: which ones this run leaves out, which it applied */
	const bool *skip;
	int			nfaults;
	Fault		faults[NFAULTS_MAX];
	uint64		fault_step[NFAULTS_MAX];
	uint64		fault_counts[NFAULTKINDS];
	/* the outcome */
	bool		failed;
	uint64		fail_step;
	char		why[512];
	Trace		trace[TRACE_LEN];
	uint64		ntrace;
	bool		record_trace;
} Sim;

static Sim *sim;
static Backend *running;
static ucontext_t sched_ctx;
static jmp_buf sched_jb;

static void
trace(Backend *b, int server, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void
trace(Backend *b, int server, const char *fmt, ...)
{
	Trace	   *e;
	va_list		ap;

	if (!sim->record_trace)
		return;
	e = &sim->trace[sim->ntrace++ % TRACE_LEN];
	e->step = sim->step;
	e->t = sim->t;
	e->backend = b ? b->num : -1;
	e->server = server;
	va_start(ap, fmt);
	vsnprintf(e->text, sizeof(e->text), fmt, ap);
	va_end(ap);
}

static void
fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void
fail(const char *fmt, ...)
{
	va_list		ap;

	if (sim->failed)
		return;
	sim->failed = true;
	sim->fail_step = sim->step;
	va_start(ap, fmt);
	vsnprintf(sim->why, sizeof(sim->why), fmt, ap);
	va_end(ap);
}

/* ---------------------------------------------------------------- clocks */

/* The true time: what a server's clock reads when it is right. */
static int64
true_unix_us(void)
{
	return START_UNIX_US + sim->t;
}

static int64
server_unix_us(Server *s)
{
	return s->anchor_unix + (sim->t - s->anchor_t) * s->rate_num / s->rate_den;
}

static void
server_set_clock(Server *s, int64 unix_us, int num, int den)
{
	s->anchor_unix = unix_us;
	s->anchor_t = sim->t;
	s->rate_num = num;
	s->rate_den = den;
}

int64
sim_unix_us(void)
{
	sim_step();
	return server_unix_us(&sim->servers[running->server]);
}

int64
sim_mono_us(void)
{
	Server	   *s = &sim->servers[running->server];

	sim_step();
	return sim->t - s->boot_t + s->mono_base;
}

static uint64
sim_now(const UidClockSpec *spec)
{
	int64		us = sim_unix_us() - spec->epoch_us;

	return us < 0 ? 0 : (uint64) us / (uint64) spec->tick_us;
}

bool
sim_sleep_us(int64 us)
{
	running->wake_t = sim->t + (us > 0 ? us : 0);
	sim_step();
	return true;
}

/* ---------------------------------------------------------------- scheduling */

/*
 * Back to the scheduler.  A coroutine is entered once with swapcontext and
 * switched with _setjmp/_longjmp from then on: swapcontext saves the signal
 * mask with a system call on every switch, which cost half the run time.
 */
void
sim_step(void)
{
	if (_setjmp(running->jb) == 0)
		_longjmp(sched_jb, 1);
}

static void
sim_resume(Backend *b)
{
	running = b;
	if (_setjmp(sched_jb) == 0)
	{
		if (!b->entered)
		{
			b->entered = true;
			swapcontext(&sched_ctx, &b->ctx);
		}
		else
			_longjmp(b->jb, 1);
	}
}

/* ---------------------------------------------------------------- IDs */

static uint64
key_hash(const IdKey *k)
{
	return uid_mix64(k->tick * 31 + ((uint64) k->seq << 24 | (uint64) k->timeline << 20 |
									 (uint64) k->type << 8 | k->server));
}

/* Adds an ID; false if it was handed out before. */
static bool
ids_add(const IdKey *k)
{
	uint64		i;

	if (2 * (sim->nids + 1) > sim->ids_cap)
	{
		IdKey	   *old = sim->ids;
		uint64		cap = sim->ids_cap;

		sim->ids_cap = cap ? 2 * cap : 1 << 16;
		sim->ids = calloc(sim->ids_cap, sizeof(IdKey));
		sim->nids = 0;
		for (i = 0; i < cap; i++)
			if (old[i].tick != 0)
				ids_add(&old[i]);
		free(old);
	}
	for (i = key_hash(k) & (sim->ids_cap - 1);; i = (i + 1) & (sim->ids_cap - 1))
	{
		if (sim->ids[i].tick == 0)
		{
			sim->ids[i] = *k;
			sim->nids++;
			return true;
		}
		if (memcmp(&sim->ids[i], k, sizeof(IdKey)) == 0)
			return false;
	}
}

/* Records an ID handed out; false if it was handed out before. */
static bool
id_new(int ident, int type, int timeline, uint32 seq, uint64 tick)
{
	IdKey		k;

	memset(&k, 0, sizeof(k));
	k.server = (uint32) ident;
	k.type = (uint32) type;
	k.timeline = (uint32) timeline;
	k.seq = seq;
	k.tick = tick + 1;			/* 0 marks a free entry */
	return ids_add(&k);
}

/* ---------------------------------------------------------------- the layers above the core */

/* The state file's current image goes to disk (a sync, or the OS's writeback). */
static void
disk_write(Server *s)
{
	if (s->nimages == NIMAGES)
	{
		memmove(&s->images[0], &s->images[1], sizeof(SimFile) * (NIMAGES - 1));
		s->nimages--;
	}
	s->images[s->nimages++] = s->file;
}

/*
 * uid_state_sync(): the disk holds the file as it is when the sync begins;
 * no crash goes back further.  It takes time, during which the backend may
 * die.
 */
static void
disk_sync(Server *s)
{
	s->images[0] = s->file;
	s->nimages = 1;
	sim_sleep_us((int64) rng_below(&sim->sched, 500));
}

/* The sync a core function asks for: the running backend's server's. */
static void
sync_running(void)
{
	disk_sync(&sim->servers[running->server]);
}

/*
 * lease.c's renewal: the core decides who renews; the renewer logs the lease
 * in WAL and flushes it, syncs the state file, and publishes the lease.  It
 * takes time, during which the backend may die.
 */
static void
lease_extend(Backend *b, Server *s, const UidClockSpec *spec, uint64 tick)
{
	uint64		need = uid_tick_lease_us(spec, tick);	/* generate.h */
	uint64		start = (uint64) spec->epoch_us + tick * (uint64) spec->tick_us;

	for (;;)
	{
		switch (uid_lease_renewal(&s->file.lease, need, sim_mono_us()))
		{
			case UID_RENEWAL_COVERED:
				return;
			case UID_RENEWAL_MINE:
				{
					int64		now = sim_unix_us();
					uint64		lease = uid_lease_next((uint64) Max(now, 0), need);

					/*
					 * reach: a lease runs a lease past the clock or past the
					 * start of the tick it is for, no further, so that a
					 * fence moves a type at most a lease and one of its own
					 * ticks, whatever the other types' ticks
					 */
					if (lease > Max((uint64) Max(now, 0), start + 1) + UID_LEASE_US)
						fail("reach: server %d logs a lease to %" PRIu64 " for %s tick %"
							 PRIu64 " starting at %" PRIu64 ", clock %" PRId64
							 ": past a lease from both", s->ident, lease,
							 spec->type_name, tick, start, now);

					sim_sleep_us((int64) rng_below(&sim->sched, 2000));	/* the WAL flush */
					if (lease > s->wal_lease)
						s->wal_lease = lease;
					trace(b, b->server, "lease logged to %" PRIu64, lease);
					sim_sleep_us((int64) rng_below(&sim->sched, 500));	/* the msync */
					disk_write(s);
					uid_lease_renewed(&s->file.lease, lease);
					return;
				}
			case UID_RENEWAL_WAIT:
				sim_sleep_us(50);
				break;
		}
	}
}

/* lease.c's uid_gen_prepare: fence the slot once per incarnation. */
static UidSlot *
gen_slot(Server *s, const UidClockSpec *spec)
{
	UidSlot    *slot = &s->file.slots[spec->slot];
	bool		unique = spec->slot == T_MUID;

	if (uid_word_read(&slot->fenced) != s->incarnation)
	{
		uint64		fence;

		if (!uid_fence_known(&s->file.lease, s->incarnation, &fence))
			fence = uid_fence_take(&s->file.lease, s->incarnation, s->wal_lease);
		uid_slot_fence(&s->file.lease, slot, spec, unique, s->incarnation, fence);
	}
	return slot;
}

/*
 * The pace: an ID whose tick is past the highest one handed out and past the
 * server's clock moved the mark by borrowing (or right after a fence).  The
 * core lets one backend borrow a tick per tick of monotonic (here, real)
 * time; backends that took the right before being descheduled may hand
 * theirs out together, hence the slack.
 */
static void
check_pace(Backend *b, Server *s, int type, uint64 tick)
{
	const UidClockSpec *spec = &specs[type];
	int64		clock_tick = (server_unix_us(s) - spec->epoch_us) / spec->tick_us;
	int64		window = PACE_WINDOW * spec->tick_us;
	int			limit = PACE_WINDOW + sim->nbackends + 1;
	int			n = 0;

	if (tick <= s->max_tick[type])
		return;
	s->max_tick[type] = tick;
	if ((int64) tick <= clock_tick)
		return;
	s->borrows[type][s->nborrows[type]++ % PACE_RING] = sim->t;
	for (int i = 0; i < PACE_RING && i < s->nborrows[type]; i++)
		n += s->borrows[type][i] > sim->t - window;
	if (n > limit)
		fail("pace: server %d handed out %d %s IDs that borrowed a tick within %d ticks "
			 "of real time (at most %d)", s->ident, n, spec->type_name, PACE_WINDOW, limit);
}

/* A crash or a failover may lose the pace word: borrowing starts afresh. */
static void
pace_forget(Server *s)
{
	memset(s->nborrows, 0, sizeof(s->nborrows));
}

/* ------------------------------------------------ leased identities */

/* The coordinator's clock: true time. */
static int64
coord_now_us(void)
{
	return true_unix_us();
}

static int
server_index(const Server *s)
{
	return (int) (s - sim->servers);
}

/* A conversation under way, not one that died with its backend long ago. */
static bool
ident_busy(Server *s)
{
	return s->talk_began != 0 && sim->t - s->talk_began < 10 * RETRY_US;
}

/*
 * One conversation with the coordinator, as identity.c's uid_ident_talk:
 * renew the lease held, or claim an id; the answer measures the clock.  The
 * backend may die at any step of it.
 */
static void
ident_talk(Backend *b, Server *s)
{
	SimIdent   *li = &s->file.ident;
	SimIdent	n = *li;
	int			me = server_index(s);
	bool		held = li->id >= 0 && li->key == s->key;
	bool		claim = !held;
	int64		t0;
	int64		t1;
	int64		c;
	int64		expiry_c = 0;
	UidClockOffset o;

	s->talk_began = sim->t;
	t0 = sim_unix_us();
	sim_sleep_us((int64) rng_below(&sim->sched, 20000));	/* the query's way there */
	if (sim->t < s->cut_until)
	{
		/* no answer: the conversation times out */
		sim_sleep_us(100000);
		trace(b, me, "coordinator unreachable");
		s->retry_at = sim->t + RETRY_US;
		s->talk_began = 0;
		return;
	}
	c = coord_now_us();
	if (held)
	{
		PoolEntry  *e = &sim->pool[li->id];

		if (e->holder == me && e->holder_key == s->key && e->token == li->token)
		{
			e->expiry_us = c + LEASE_TTL_US;
			expiry_c = e->expiry_us;
		}
		else
		{
			/* handed to another holder: not ours from now on; claim another */
			n.id = -1;
			claim = true;
		}
	}
	if (claim)
	{
		int			id = -1;

		for (int i = 0; i < sim->pool_size && id < 0; i++)
		{
			PoolEntry  *e = &sim->pool[i];

			if (e->holder < 0 || e->expiry_us + LEASE_GRACE_US <= c)
				id = i;
		}
		if (id < 0)
		{
			sim_sleep_us((int64) rng_below(&sim->sched, 20000));
			trace(b, me, "no id free in the pool");
			li->id = n.id;
			s->retry_at = sim->t + RETRY_US;
			s->talk_began = 0;
			return;
		}
		if (sim->pool[id].holder >= 0 && sim->pool[id].holder != me)
			sim->moves++;
		sim->pool[id].holder = me;
		sim->pool[id].holder_key = s->key;
		sim->pool[id].token = ++sim->next_token;
		sim->pool[id].expiry_us = c + LEASE_TTL_US;
		expiry_c = sim->pool[id].expiry_us;
		n.id = id;
		n.key = s->key;
		n.token = sim->pool[id].token;
	}
	sim_sleep_us((int64) rng_below(&sim->sched, 20000));	/* the answer's way back */
	t1 = sim_unix_us();

	o = uid_window_measure(t0, t1, expiry_c, LEASE_TTL_US, LEASE_GRACE_US);
	if (claim)
		n.floor_us = (uint64) t1;
	else if (li->skewed && !uid_window_skewed(&o))
		n.floor_us = Max(n.floor_us, (uint64) t1);
	n.expiry_us = uid_window_expiry(t0, LEASE_TTL_US);
	n.renew_at_us = (uint64) (t0 + LEASE_TTL_US / 2);
	n.skewed = uid_window_skewed(&o);
	*li = n;					/* published at once, as under identity.c's seqlock */
	if (n.skewed)
		s->retry_at = sim->t + RETRY_US;
	trace(b, me, "%s id %d: floor %" PRIu64 ", expiry %" PRIu64 ", clock off by %" PRId64
		  "..%" PRId64 " us%s", claim ? "claims" : "renews", n.id, n.floor_us, n.expiry_us,
		  o.lo_us, o.hi_us, n.skewed ? ": skewed" : "");
	s->talk_began = 0;
}

typedef enum
{
	LEASE_ISSUE, LEASE_AGAIN, LEASE_REFUSED
} LeaseStep;

/*
 * identity.c's uid_ident_check on an allocated tick: issue it under the
 * lease (*id, *used), or raise the marks to the floor, or talk to the
 * coordinator first; refuse when no usable lease can be had.
 */
static LeaseStep
ident_cover(Backend *b, Server *s, UidSlot *slot, const UidClockSpec *spec, uint64 tick,
			int *talks, int *id, SimIdent *used)
{
	SimIdent	li = s->file.ident;
	bool		usable = li.id >= 0 && li.key == s->key && !li.skewed;

	switch (uid_window_check(spec, tick, usable, li.floor_us, li.expiry_us, li.renew_at_us))
	{
		case UID_WINDOW_ISSUE:
			break;
		case UID_WINDOW_RENEW:
			if (!ident_busy(s) && sim->t >= s->retry_at)
			{
				ident_talk(b, s);
				return LEASE_AGAIN;
			}
			break;
		case UID_WINDOW_RAISE:
			{
				uint64		to = uid_window_raise_to(spec, li.floor_us);
				uint64		epoch = (uint64) spec->epoch_us;

				/*
				 * raise: the marks go to the last tick that starts before
				 * the floor and no further (uid_fence_marks marks every tick
				 * that starts before its fence), so the first ID after a
				 * claim is not dated a tick later than the floor allows
				 */
				if (to > epoch && li.floor_us > epoch &&
					(to - 1 - epoch) / (uint64) spec->tick_us >
					(li.floor_us - 1 - epoch) / (uint64) spec->tick_us)
					fail("raise: server %d raises %s past the floor %" PRIu64
						 " to %" PRIu64 ": a tick later than the floor's",
						 s->ident, spec->type_name, li.floor_us, to);
				uid_fence_marks(slot, spec, spec->slot == T_MUID, to);
			}
			return LEASE_AGAIN;
		case UID_WINDOW_ACQUIRE:
			if (*talks > 0 || (sim->t < s->retry_at && !ident_busy(s)))
				return LEASE_REFUSED;
			if (ident_busy(s))
				sim_sleep_us(10000);
			else
			{
				ident_talk(b, s);
				(*talks)++;
			}
			return LEASE_AGAIN;
	}
	*id = li.id;
	*used = li;
	return LEASE_ISSUE;
}

/* The order key of a pair: what later calls must exceed. */
static uint64
order_key(int type, const UidTickSeq *ts)
{
	if (type == T_MUID)
		return ts->tick;
	if (type == T_UID60)
		return ts->tick << UID_SEQ_BITS;	/* the run-on sequence does not sort */
	return ts->tick << UID_SEQ_BITS | ts->seq;
}

/* generate.c's uid_next_tick_in / uid_unique_tick, then the checks. */
static void
generate(Backend *b, int type)
{
	Server	   *s = &sim->servers[b->server];
	const UidClockSpec *spec = &specs[type];
	UidSlot    *slot;
	UidTickSeq	ts = {0};
	UidAllocResult r;
	int			ident = -1;
	SimIdent	used = {0};
	uint64		start;
	uint64		key;

	b->type = type;
	b->call_t = sim->t;
	b->in_call = true;
	b->floor[0] = sim->done_max[b->server][type][0];
	b->floor[1] = sim->done_max[b->server][type][1];

	slot = gen_slot(s, spec);
	for (;;)
	{
		/* sno.c's sno_new(): its live range clear of the back-fill ranges used */
		uint64		bfw = type == T_SNO ? uid_word_read(&slot->tt.type[UID_SNO_BF_RANGES]) : 0;
		uint32		lo = type == T_SNO ? sno_parts[b->part][0] : 0;
		uint32		hi = type == T_SNO ? sno_parts[b->part][1] : spec->seq_max;

		if (!uid_live_clear_of_backfill(bfw, &lo, &hi))
		{
			/* sno_new() raises an error: its range is all back-fill's */
			sim->live_refused++;
			b->in_call = false;
			return;
		}
		for (int talks = 0;;)
		{
			LeaseStep	st;

			if (type == T_MUID)
				r = uid_alloc_unique(slot, spec, &ts.tick);
			else
				r = uid_alloc_tick(slot, spec, &b->cur[type], lo, hi, &ts);
			if (r != UID_ALLOC_ISSUED)
			{
				fail("%s: out of time at tick %" PRIu64, spec->type_name, ts.tick);
				return;
			}
			if (!sim->leased)
			{
				ident = s->ident;
				break;
			}
			st = ident_cover(b, s, slot, spec, ts.tick, &talks, &ident, &used);
			if (st == LEASE_ISSUE)
				break;
			if (st == LEASE_REFUSED)
			{
				/* the generator raises an error: no ID */
				sim->refused++;
				b->in_call = false;
				return;
			}
		}
		if (uid_lease_short(&s->file.lease, spec, ts.tick))
			lease_extend(b, s, spec, ts.tick);
		if (type != T_SNO)
			break;
		/* recorded, then issued only under the back-fill ranges it was made in */
		uid_used_note(&s->file.used, &b->used_copy, ts.seq, lo, hi, sim->used_block,
					  sync_running);
		if (uid_word_read(&slot->tt.type[UID_SNO_BF_RANGES]) == bfw)
			break;
	}

	/* handed out */
	b->in_call = false;
	trace(b, b->server, "%s tick %" PRIu64 " seq %u tl %d id %d", spec->type_name, ts.tick,
		  ts.seq, ts.timeline, ident);
	sim->leased_ids += sim->leased;
	if (!id_new(ident, type, ts.timeline, ts.seq, ts.tick))
		fail("unique: server %d handed out %s tick %" PRIu64 " seq %u timeline %d "
			 "of identity %d twice", s->ident, spec->type_name, ts.tick, ts.seq,
			 ts.timeline, ident);
	if (sim->leased &&
		(uid_tick_end_us(spec, ts.tick) > used.expiry_us ||
		 uid_tick_end_us(spec, ts.tick) - (uint64) spec->tick_us < used.floor_us))
		fail("window: server %d handed out %s tick %" PRIu64 " of id %d outside its "
			 "lease's window %" PRIu64 "..%" PRIu64, s->ident, spec->type_name, ts.tick,
			 ident, used.floor_us, used.expiry_us);
	start = (uint64) spec->epoch_us + ts.tick * (uint64) spec->tick_us;
	if (start >= s->wal_lease)
		fail("lease: server %d handed out %s tick %" PRIu64 " starting at %" PRIu64
			 ", not before the lease in WAL, %" PRIu64,
			 s->ident, spec->type_name, ts.tick, start, s->wal_lease);
	key = order_key(type, &ts);
	if (type == T_UID60 ? key < b->floor[ts.timeline] : key <= b->floor[ts.timeline])
		fail("order: server %d: %s tick %" PRIu64 " seq %u timeline %d is not after "
			 "tick %" PRIu64 " seq %u, completed before the call began",
			 s->ident, spec->type_name, ts.tick, ts.seq, ts.timeline,
			 b->floor[ts.timeline] >> (type == T_MUID ? 0 : UID_SEQ_BITS),
			 (uint32) (type == T_MUID ? 0 : b->floor[ts.timeline] & UID_SEQ_MASK));
	if (key > sim->done_max[b->server][type][ts.timeline])
		sim->done_max[b->server][type][ts.timeline] = key;
	if (!spec->ticktock && type != T_MUID)
		check_pace(b, s, type, ts.tick);
	if (type == T_SNO)
		s->live_ticks[s->nlive_ticks++ % 64] = ts.tick;
}

/*
 * sno.c's sno_new_at(): an ID dated at a past tick, from the back-fill
 * range, committed (the file synced first) before it counts as handed out.
 */
static void
backfill(Backend *b)
{
	Server	   *s = &sim->servers[b->server];
	const UidClockSpec *spec = &specs[T_SNO];
	UidSlot    *slot;
	UidBackfillWords w;
	UidBackfillSeen seen = {0};
	UidBackfillResult res;
	uint32		lo = bf_parts[b->bf][0];
	uint32		hi = bf_parts[b->bf][1];
	uint32		llo = sno_parts[b->part][0];
	uint32		lhi = sno_parts[b->part][1];
	int64		now_tick = (server_unix_us(s) - spec->epoch_us) / spec->tick_us;
	uint64		back = rng_below(&sim->sched, 4) == 0 ? rng_below(&sim->sched, 3000) :
		rng_below(&sim->sched, 40);
	uint64		tick;

	/* half the time at the tick of a recent live ID, where a mistake would show */
	if (s->nlive_ticks > 0 && rng_below(&sim->sched, 2) == 0)
	{
		uint64		at = s->live_ticks[rng_below(&sim->sched, (uint64) Min(s->nlive_ticks, 64))];

		back = now_tick > (int64) at ? (uint64) now_tick - at : 0;
	}
	uint32		seq;

	if (now_tick <= (int64) back)
		return;
	tick = (uint64) now_tick - back;
	/* the settings' check: the back-fill range is clear of the live range */
	if (lo <= lhi && hi >= llo)
	{
		sim->bf_refused++;
		return;
	}
	b->type = T_SNO;
	b->call_t = sim->t;
	b->in_call = true;
	slot = gen_slot(s, spec);
	w.lanes = &slot->tt.type[UID_SNO_BF_LANE0];
	w.ranges = &slot->tt.type[UID_SNO_BF_RANGES];
	w.used = &s->file.used;
	w.used_since = &s->file.used_since;
	res = uid_backfill_alloc(&w, tick, lo, hi, llo, lhi, &seen, &seq);
	b->in_call = false;
	if (res != UID_BACKFILL_ISSUED)
	{
		sim->bf_refused++;
		return;
	}
	s->bf_spent |= seq_bits(lo, hi);
	/* the transaction's work, then the sync before its commit */
	sim_sleep_us((int64) rng_below(&sim->sched, 1000));
	disk_sync(s);
	trace(b, b->server, "back-fills sno tick %" PRIu64 " seq %u", tick, seq);
	/* a back-filled sno's tick bit is 0: timeline 0 */
	if (!id_new(s->ident, T_SNO, 0, seq, tick))
		fail("unique: server %d back-filled sno tick %" PRIu64 " seq %u, an ID handed "
			 "out before", s->ident, tick, seq);
	sim->backfilled++;
}

static void
backend_main(void)
{
	Backend    *b = running;

	for (;;)
	{
		Server	   *s = &sim->servers[b->server];

		/* a reload reaches each backend at its own time */
		if ((b->part != s->part || b->bf != s->bf) && rng_below(&sim->sched, 4) == 0)
		{
			b->part = s->part;
			b->bf = s->bf;
			trace(b, b->server, "takes sno range %u..%u, back-fill %d",
				  sno_parts[b->part][0], sno_parts[b->part][1], b->bf);
		}
		/* runs of one type, so that a type's ticks fill and borrowing is asked for */
		if (rng_below(&sim->sched, 8) == 0)
			b->type = (int) rng_below(&sim->sched, NTYPES);
		/* back-fill beside live sno (a partition set by hand only) */
		if (b->type == T_SNO && b->bf >= 0 && !sim->leased && rng_below(&sim->sched, 3) == 0)
			backfill(b);
		else
			generate(b, b->type);
	}
}

static void
backend_start(Backend *b, int server)
{
	Server	   *s = &sim->servers[server];

	b->alive = true;
	b->entered = false;
	b->server = server;
	b->num = sim->started++;
	b->wake_t = sim->t;
	b->in_call = false;
	b->part = (int) rng_below(&sim->sched, NPARTS);
	b->bf = s->bf;
	b->used_copy = 0;
	memset(b->cur, 0, sizeof(b->cur));
	for (int i = 0; i < NTYPES; i++)
		b->cur[i].seq_origin = uid_seq_origin(s->file.secret, i);
	if (b->stack == NULL)
		b->stack = malloc(STACK_SIZE);
	getcontext(&b->ctx);
	b->ctx.uc_stack.ss_sp = b->stack;
	b->ctx.uc_stack.ss_size = STACK_SIZE;
	b->ctx.uc_link = NULL;
	makecontext(&b->ctx, backend_main, 0);
}

/* All of a server's backends die where they are; new ones start. */
static void
server_backends_restart(int server)
{
	for (int i = 0; i < sim->nbackends; i++)
		backend_start(&sim->backends[server * sim->nbackends + i], server);
}

static void
server_new_incarnation(Server *s)
{
	s->incarnation = ++sim->next_incarnation;
}

static void
file_init(SimFile *f, uint64 secret)
{
	memset(f, 0, sizeof(*f));
	f->secret = secret;
	f->ident.id = -1;
	f->used.value = UID_USED_EMPTY;
}

/* A boot: the monotonic clock starts again, from an arbitrary value. */
static void
server_boot(Server *s, uint64 r)
{
	s->boot_t = sim->t;
	s->mono_base = (int64) (r % 1000000000);
}


/* ---------------------------------------------------------------- faults */

/*
 * The back-fill range a reload delivers, -1: off.  On a server made from a
 * copy, one clear of every sequence the servers it came from used, by
 * back-fill or live, as doc/types.md says to set after such a copy takes
 * over (the copy's lanes and record of live sequences are of when it was
 * copied).
 */
static int
server_bf_pick(Server *s, uint64 r)
{
	int			i = (int) (r % (NBF + 2)) - 2;

	if (i < 0)
		return -1;
	if (s->copied && (seq_bits(bf_parts[i][0], bf_parts[i][1]) & s->bf_spent))
		return -1;
	return i;
}

static void
apply_fault(const Fault *f)
{
	int			si = (int) (f->a % (uint64) sim->nservers);
	Server	   *s = &sim->servers[si];

	switch (f->kind)
	{
		case F_CLOCK_STEP:
			{
				/* mostly back, up to 3 s; sometimes a little, sometimes forward */
				int64		mag = (int64) (f->b % 3000000) + 1;
				int64		d = (f->b >> 32) % 4 == 0 ? mag : -mag;

				if ((f->b >> 40) % 3 == 0)
					d /= 1000;
				/* a third of the steps are NTP's, back to the true time */
				if ((f->b >> 48) % 3 == 0)
					d = true_unix_us() - server_unix_us(s);
				server_set_clock(s, server_unix_us(s) + d, s->rate_num, s->rate_den);
				trace(NULL, si, "clock steps %+" PRId64 " us", d);
				break;
			}
		case F_CLOCK_RATE:
			{
				static const int rates[][2] = {{0, 1}, {1, 2}, {2, 1}, {1, 1}, {1, 1}};
				int			r = (int) (f->b % 5);

				server_set_clock(s, server_unix_us(s), rates[r][0], rates[r][1]);
				trace(NULL, si, "clock runs at %d/%d", rates[r][0], rates[r][1]);
				break;
			}
		case F_BACKEND:
			{
				Backend    *b = &sim->backends[si * sim->nbackends +
											   (int) (f->b % (uint64) sim->nbackends)];

				trace(b, si, "backend dies%s", b->in_call ? " mid-call" : "");
				backend_start(b, si);
				break;
			}
		case F_RESTART:
			s->talk_began = 0;
			server_new_incarnation(s);
			server_backends_restart(si);
			trace(NULL, si, "server restarts");
			break;
		case F_CRASH:
			{
				/* the disk holds one of the images written since it was made */
				if (s->nimages > 0)
					s->file = s->images[f->b % (uint64) s->nimages];
				else
					file_init(&s->file, s->file.secret);
				server_boot(s, f->a >> 8);
				s->talk_began = 0;
				if ((f->b >> 32) % 2 == 0)
					server_set_clock(s, server_unix_us(s) - (int64) ((f->b >> 33) % 2000000), 1, 1);
				server_new_incarnation(s);
				server_backends_restart(si);
				pace_forget(s);
				trace(NULL, si, "operating-system crash: state file back to image %d of %d",
					  s->nimages ? (int) (f->b % (uint64) s->nimages) : -1, s->nimages);
				break;
			}
		case F_FAILOVER:
			{
				/* a standby with every flushed WAL record; its own clock and file */
				int64		skew = (int64) (f->b % 6000000) - 3000000;

				if ((f->b >> 32) % 2 == 0 && s->nimages > 0)
					s->file = s->images[0];
				else
					file_init(&s->file, uid_mix64(f->a ^ f->b));
				s->nimages = 0;
				server_boot(s, f->a >> 8);
				server_set_clock(s, true_unix_us() + skew, 1, 1);
				server_new_incarnation(s);
				s->key = uid_mix64(f->a + f->b) | 1;	/* another system: another key */
				/* its lanes and record are of when it was copied */
				s->copied = true;
				s->bf_spent |= seq_bits(0, 9) | seq_bits(18, 25);	/* every live range */
				s->bf = server_bf_pick(s, f->b >> 40);
				s->talk_began = 0;
				s->retry_at = 0;
				server_backends_restart(si);
				pace_forget(s);
				trace(NULL, si, "failover to a standby %+" PRId64 " us off, %s state file",
					  skew, s->file.lease.lease_us.value ? "an old" : "an empty");
				break;
			}
		case F_RELOAD:
			s->part = (int) (f->b % NPARTS);
			s->bf = server_bf_pick(s, f->b >> 32);
			trace(NULL, si, "reload: sno range %u..%u, back-fill %d", sno_parts[s->part][0],
				  sno_parts[s->part][1], s->bf);
			break;
		case F_WRITEBACK:
			disk_write(s);
			break;
		case F_PARTITION:
			s->cut_until = sim->t + (int64) (f->b % 10000000);
			trace(NULL, si, "cut off from the coordinator for %" PRId64 " us",
				  s->cut_until - sim->t);
			break;
	}
}

/* Draws the step's fault, if any: the same draws whatever the schedule. */
static void
maybe_fault(void)
{
	uint64		r = rng_next(&sim->frng);
	Fault		f;
	int			n;

	if (r % sim->fault_period != 0 || sim->nfaults >= NFAULTS_MAX)
		return;
	f.kind = (int) (rng_next(&sim->frng) % NFAULTKINDS);
	f.a = rng_next(&sim->frng);
	f.b = rng_next(&sim->frng);
	n = sim->nfaults++;
	sim->faults[n] = f;
	sim->fault_step[n] = sim->step;
	if (sim->skip && sim->skip[n])
		return;
	sim->fault_counts[f.kind]++;
	apply_fault(&f);
}

/* ---------------------------------------------------------------- a run */

typedef struct RunResult
{
	bool		failed;
	uint64		fail_step;
	uint64		steps;
	uint64		ids;
	uint64		refused;
	uint64		moves;
	uint64		leased_ids;
	uint64		backfilled;
	uint64		bf_refused;
	bool		leased;
	int			nfaults;
	uint64		fault_counts[NFAULTKINDS];
	int64		sim_us;
	char		why[512];
} RunResult;

static void
run(uint64 seed, uint64 max_steps, const bool *skip, bool show, RunResult *out)
{
	Rng			setup = {seed};
	static const int dt_scales[] = {2, 20, 200};

	sim = calloc(1, sizeof(Sim));
	sim->skip = skip;
	sim->record_trace = show;
	sim->sched.s = rng_next(&setup);
	sim->frng.s = rng_next(&setup);
	sim->nservers = 1 + (int) rng_below(&setup, NSERVERS_MAX);
	sim->nbackends = 1 + (int) rng_below(&setup, NBACKENDS_MAX);
	sim->dt_scale = dt_scales[rng_below(&setup, 3)];
	sim->fault_period = 200 + rng_below(&setup, 4000);
	sim->leased = rng_below(&setup, 2) == 1;
	sim->used_block = (uint32[]) {1, 2, 256}[rng_below(&setup, 3)];
	sim->pool_size = Max(1, sim->nservers + (rng_below(&setup, 2) ? 1 : -1));
	for (int i = 0; i < POOL_MAX; i++)
		sim->pool[i].holder = -1;
	sim->t = 0;

	for (int i = 0; i < sim->nservers; i++)
	{
		Server	   *s = &sim->servers[i];

		s->ident = i;
		s->key = uid_mix64(seed * 8 + (uint64) i) | 1;
		file_init(&s->file, rng_next(&setup));
		server_boot(s, rng_next(&setup));
		server_set_clock(s, true_unix_us() + (int64) rng_below(&setup, 2000000) - 1000000, 1, 1);
		server_new_incarnation(s);
		s->part = (int) rng_below(&setup, NPARTS);
		s->bf = server_bf_pick(s, rng_next(&setup));
		server_backends_restart(i);
	}

	for (sim->step = 0; sim->step < max_steps && !sim->failed; sim->step++)
	{
		int			n = sim->nservers * sim->nbackends;
		int			pick = -1;
		int64		soonest = INT64_MAX;
		uint64		r;

		/* time moves on: mostly a little, sometimes far */
		r = rng_next(&sim->sched);
		if (r % 100 < 90)
			sim->t += (int64) ((r >> 8) % (uint64) sim->dt_scale);
		else if (r % 100 < 99)
			sim->t += (int64) ((r >> 8) % (uint64) (50 * sim->dt_scale));
		else
			sim->t += (int64) ((r >> 8) % 100000);

		maybe_fault();

		/* a runnable backend, at random; else time moves to the first that wakes */
		for (int tries = 0; tries < 2 && pick < 0; tries++)
		{
			int			start = (int) rng_below(&sim->sched, (uint64) n);

			for (int i = 0; i < n; i++)
			{
				Backend    *b = &sim->backends[(start + i) % n];

				if (!b->alive)
					continue;
				if (b->wake_t <= sim->t)
				{
					pick = (start + i) % n;
					break;
				}
				soonest = Min(soonest, b->wake_t);
			}
			if (pick < 0 && soonest != INT64_MAX)
				sim->t = soonest;
		}
		if (pick < 0)
			break;

		sim_resume(&sim->backends[pick]);
		if (running->in_call && sim->t - running->call_t > LIVE_LIMIT_US)
			fail("live: a %s call on server %d has lasted %" PRId64 " us",
				 type_names[running->type], running->server, sim->t - running->call_t);
		running = NULL;
	}

	out->failed = sim->failed;
	out->fail_step = sim->fail_step;
	out->steps = sim->step;
	out->ids = sim->nids;
	out->refused = sim->refused;
	out->moves = sim->moves;
	out->leased_ids = sim->leased_ids;
	out->backfilled = sim->backfilled;
	out->bf_refused = sim->bf_refused;
	out->leased = sim->leased;
	out->nfaults = sim->nfaults;
	out->sim_us = sim->t;
	memcpy(out->fault_counts, sim->fault_counts, sizeof(out->fault_counts));
	snprintf(out->why, sizeof(out->why), "%s", sim->why);

	if (show)
	{
		uint64		first = sim->ntrace > TRACE_LEN ? sim->ntrace - TRACE_LEN : 0;

		printf("  %d servers, %d backends each, time steps of ~%d us, a fault every ~%" PRIu64 " steps\n",
			   sim->nservers, sim->nbackends, sim->dt_scale, sim->fault_period);
		if (sim->leased)
			printf("  identities leased from a pool of %d ids\n", sim->pool_size);
		printf("  faults applied:\n");
		for (int i = 0; i < sim->nfaults; i++)
			if (!(skip && skip[i]))
				printf("    #%d at step %" PRIu64 ": %s\n", i, sim->fault_step[i],
					   fault_names[sim->faults[i].kind]);
		printf("  the last events (step, time in us, server, backend):\n");
		for (uint64 i = first; i < sim->ntrace; i++)
		{
			Trace	   *e = &sim->trace[i % TRACE_LEN];
			char		who[16] = "";

			if (e->backend >= 0)
				snprintf(who, sizeof(who), "b%d", e->backend);
			printf("    %8" PRIu64 " %12" PRId64 "  s%d %-5s %s\n", e->step, e->t, e->server,
				   who, e->text);
		}
	}

	for (int i = 0; i < NSERVERS_MAX * NBACKENDS_MAX; i++)
		free(sim->backends[i].stack);
	free(sim->ids);
	free(sim);
	sim = NULL;
}

/*
 * The shortest schedule that shows a failure: leave out each fault in turn
 * and keep it out when the run still fails; the run then ends at the step
 * it fails at.
 */
static void
shrink(uint64 seed, uint64 max_steps, const RunResult *first)
{
	bool	   *skip = calloc(NFAULTS_MAX, sizeof(bool));
	RunResult	r = *first;
	uint64		steps = first->fail_step + 1;
	int			kept = 0;

	for (int i = 0; i < first->nfaults && i < NFAULTS_MAX; i++)
	{
		RunResult	t;

		skip[i] = true;
		run(seed, steps, skip, false, &t);
		if (t.failed)
		{
			r = t;
			steps = t.fail_step + 1;
		}
		else
			skip[i] = false;
	}
	for (int i = 0; i < first->nfaults; i++)
		kept += !skip[i];
	printf("shortest schedule found: %" PRIu64 " steps, %d of %d faults (seed %" PRIu64 "):\n",
		   steps, kept, first->nfaults, seed);
	run(seed, steps, skip, true, &r);
	printf("  fails: %s\n", r.why);
	printf("  replay: test/sim/sim --seed %" PRIu64 " --steps %" PRIu64 "\n", seed, max_steps);
	free(skip);
}

static void
usage(void)
{
	fprintf(stderr,
			"usage: sim [--seeds FIRST-LAST | --seed N] [--steps N] [--seconds S]\n"
			"  --seeds A-B   run seeds A to B (default 1-200)\n"
			"  --seed N      run one seed\n"
			"  --steps N     steps per run (default 200000)\n"
			"  --seconds S   run seeds from FIRST on until S seconds have passed\n"
			"  --quiet       print only the summary\n");
	exit(2);
}

int
main(int argc, char **argv)
{
	uint64		first = 1,
				last = 200,
				steps = 200000;
	double		seconds = 0;
	bool		quiet = false;
	uint64		runs = 0,
				total_steps = 0,
				total_ids = 0,
				total_refused = 0,
				total_moves = 0,
				total_leased_ids = 0,
				total_backfilled = 0,
				total_bf_refused = 0,
				leased_runs = 0;
	uint64		fault_counts[NFAULTKINDS] = {0};
	int64		total_sim_us = 0;
	struct timespec t0,
				t1;

	for (int i = 1; i < argc; i++)
	{
		if (strcmp(argv[i], "--seeds") == 0 && i + 1 < argc)
		{
			if (sscanf(argv[++i], "%" SCNu64 "-%" SCNu64, &first, &last) != 2 || last < first)
				usage();
		}
		else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
			first = last = strtoull(argv[++i], NULL, 10);
		else if (strcmp(argv[i], "--steps") == 0 && i + 1 < argc)
			steps = strtoull(argv[++i], NULL, 10);
		else if (strcmp(argv[i], "--seconds") == 0 && i + 1 < argc)
			seconds = atof(argv[++i]);
		else if (strcmp(argv[i], "--quiet") == 0)
			quiet = true;
		else
			usage();
	}
	if (steps == 0)
		usage();

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (uint64 seed = first;; seed++)
	{
		RunResult	r;

		if (seconds > 0)
		{
			clock_gettime(CLOCK_MONOTONIC, &t1);
			if ((t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9 >= seconds)
				break;
		}
		else if (seed > last)
			break;

		run(seed, steps, NULL, false, &r);
		runs++;
		total_steps += r.steps;
		total_ids += r.ids;
		total_refused += r.refused;
		total_moves += r.moves;
		total_leased_ids += r.leased_ids;
		total_backfilled += r.backfilled;
		total_bf_refused += r.bf_refused;
		leased_runs += r.leased;
		total_sim_us += r.sim_us;
		for (int k = 0; k < NFAULTKINDS; k++)
			fault_counts[k] += r.fault_counts[k];
		if (r.failed)
		{
			clock_gettime(CLOCK_MONOTONIC, &t1);
			printf("FAIL seed %" PRIu64 " at step %" PRIu64 " (%.1f s into the run): %s\n",
				   seed, r.fail_step,
				   (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9, r.why);
			shrink(seed, steps, &r);
			return 1;
		}
		if (!quiet && runs % 50 == 0)
		{
			printf("  %" PRIu64 " schedules passed\n", runs);
			fflush(stdout);
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("simcheck: %" PRIu64 " schedules (seeds %" PRIu64 "-%" PRIu64 "), %" PRIu64
		   " steps, %" PRIu64 " IDs, %.0f simulated s; %" PRIu64 " schedules with leased "
		   "identities: %" PRIu64 " IDs under them, %" PRIu64 " ids moved between servers, %"
		   PRIu64 " calls refused (no usable lease); %" PRIu64 " sno back-filled beside "
		   "live IDs, %" PRIu64 " back-fill calls refused; faults:",
		   runs, first, first + runs - 1, total_steps, total_ids, total_sim_us / 1e6,
		   leased_runs, total_leased_ids, total_moves, total_refused, total_backfilled,
		   total_bf_refused);
	for (int k = 0; k < NFAULTKINDS; k++)
		printf(" %s %" PRIu64, fault_names[k], fault_counts[k]);
	printf("; all invariants held (%.1f s)\n",
		   (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
	return 0;
}
