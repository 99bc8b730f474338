/*
 * sim.h
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
 *   restart    a server restarts (a new incarnation, WAL intact): a clean
 *              shutdown (every exiting process writes the state file), an
 *              immediate one (the file as last written), or its shared
 *              state removed while it runs (all its processes die and the
 *              next reads the file as last written, in the same postmaster
 *              life)
 *   crash      an operating-system crash: the state file goes back to an
 *              image the disk held (one synced or written back earlier),
 *              WAL keeps what was flushed, the monotonic clock restarts
 *   failover   a standby with all flushed WAL (synchronous replication)
 *              becomes the primary: its own clock (skewed), its state file
 *              empty or an old copy (a base backup)
 *   upgrade    pg_upgrade: a new cluster without the old WAL's lease, the
 *              old state file copied in or lost, then uid_fence_restore()
 *              (core/backfill.h's verdict and lease; server_upgrade)
 *   edit       the configuration files change (sno's ranges, a fresh hand-set
 *              partition, a partition the checks refuse, which a later
 *              edit puts right, a setting not uid's), with or without a reload,
 *              half the reloads followed by a second within 50 ms (a tool
 *              that edits and reloads twice)
 *   reload     the postmaster reads the files and signals each backend,
 *              which takes it late or never (busy), reading the files as
 *              they are then
 *   handover   server a is given a new partition; once a's record shows it
 *              and b's clock is well past a's last tick of the old one, b is
 *              given a's old one (half the time written in b's files ahead)
 *   partition  (leased identities) a server cannot reach the coordinator for
 *              a while: its lease runs out, and another server may claim
 *              its id
 *   coordinator (leased identities, drawn apart: no other schedule moves)
 *              the coordinator crashes and restarts from what it flushed,
 *              is restored from its last backup into a new cluster, or
 *              fails over to its standby (synchronous, or one that lags),
 *              at random and half the time within 2 s after an id moved
 *              between servers; its synchronous_commit is drawn, and each
 *              claim and renewal goes through core/pool.h's rules
 *
 * Half the seeds give each server a hand-set identity of its own; the
 * other half lease ids from a coordinator (identity.c) from a pool with one
 * id fewer or more than the servers, with a grace of 2 s and a TTL of 4 s:
 * ids move between servers whose clocks the faults skew by up to 3 s, and
 * a lease lives in the state file (a crash may set it back with the rest).
 * The conversation with the coordinator is modelled here; which ticks a
 * lease allows, and how its clock is measured, are core/window.h's.
 *
 * Half the seeds of hand-set identities on more than one server (a sixth of
 * all) are of a Citus cluster (core/source.h): server 0 is its coordinator
 * (node group 0), each other a worker not yet added (group 0 too) or, one
 * in three, a server outside the cluster (no Citus).  A worker is added at
 * some step (its row of pg_dist_local_group takes the next value of the
 * coordinator's pg_dist_groupid_seq, which starts at 1 or further on, at
 * times just below where a type's fields end), half the time removed later
 * (once the calls into the cluster under way there end; its row back to 0
 * half the time) and added again with a new group; a change of the row
 * sends an invalidation to every process of the node.  Each process keeps
 * the group it read (UidGroupCache, with the count taken before the read,
 * which takes steps), and takes the invalidations sent to it when a call
 * into the cluster begins (the lock of a table of the cluster's, which the
 * add's transaction held), at a new transaction's start, or at the read's
 * own lock.  Half the nodes set no identity by hand, the others all or some
 * of uid.partition, uid.medallion and uid.generator (edits change which);
 * the server outside the cluster sets all, at times to the group of a node
 * whose identities all stay set by hand (the coordinator's 0, a worker's
 * once added); other hand values are clear of every group.  Each ID embeds
 * the identity uid_id_source() picks for its type from the hand setting and
 * the group, as the type's fields hold it (split by uid_id_split where
 * source.c splits it: revts8's generator and cluster; each type's maximum,
 * beyond which the call is refused; the fields' widths), and a worker
 * outside the cluster makes IDs into a database of its own.  Handovers
 * move hand values only between servers that set all three.
 *
 * A quarter of a worker's adds are without metadata: the coordinator gives
 * it a group and runs tasks there, but its row stays 0 and its pg_dist_node
 * empty until start_metadata_sync_to_node() (half the time, later) sets
 * both.  Half a worker's processes are Citus's tasks (application_name):
 * the group they read there is uid_group_of_row()'s, UID_GROUP_UNSYNCED,
 * and they refuse; the others read 0 and write into a database of their
 * own (built with -DSIM_DIRECT_SHARDS, into the cluster's shards: then the
 * coordinator's group repeats).  A third of the nodes are upgraded once:
 * pg_dist_local_group is empty (every process reads again) for up to 20,000
 * steps, while calls without a hand value refuse, then filled with no
 * invalidation.  A quarter of the runs of hand-set identities set
 * uid.cluster alone on the coordinator and the workers, with a sequence that
 * hands out 64: revts8's generator is the group, refused past 63
 * (uid_id_split_cluster).  And a quarter of the leased schedules on more
 * than one server are of a Citus cluster too: every server leases (the doc
 * says to lease on every node or none), the servers outside the cluster
 * from the same pool, and the lease wins over the group.  Half the servers
 * outside the cluster in runs of identities not leased set none by hand,
 * and their database subscribes to another server's publication at some
 * step (logical replication; the invalidation of pg_subscription goes to
 * every process of the server): until a process has taken it, its IDs go
 * into a database of their own; from then on, where other servers' IDs
 * meet, and core/source.h refuses their default identity (UID_ID_SHARED).
 *
 * What sits above the core in the server (lease.c's fence and renewal,
 * generate.c's loop) is modelled here in a few lines each, calling the same
 * core functions the server calls.  After every step it checks the
 * invariants that checks.c lists.
 *
 * Settings: each generator call plans with uid_record_plan(); a refresh
 * starts a settings worker (a coroutine forked at a later step, holding the
 * postmaster's values at its fork, publishing with uid_record_publish();
 * it may stall for up to 3 s or die at any step; a slot may be missing;
 * the postmaster's reload signals it like every child, and it keeps the
 * signal pending, or loses it, a quarter of the time, as one that comes
 * before its handling is set up; a reload makes the postmaster fork a
 * requested worker late, half the time, and deschedules one under way, a
 * quarter of the time), one after another until the call's deadline, and
 * the caller falls back on uid_record_fallback() with its own values.
 * Every backend receives a reload's signal at once and notes it (need's
 * signalled, and the server's word); it takes it at its own time, or never
 * (a busy one: a long statement, a procedure).  The postmaster's wall
 * clock steps and changes rate (the faults), between reloads too.  Backends have startup
 * options (own values) or not, load uid at their start or their first call;
 * an eighth of calls run in a parallel worker (its leader's values).  An ID
 * is handed out only if uid_record_current() still names the record it was
 * made under, else it is made again.  Single-user servers are not modelled.
 *
 * On a failure it prints the seed, shrinks the set of faults to those the
 * failure needs and the run to the step it fails at, and prints that
 * schedule's last events.  doc/testing.md says how to run it.
 *
 * The simulator is in rooms, each a file of test/sim:
 *   sim.h       this: what is modelled, the types, the prototypes of each room
 *   world.c     servers and processes, the state file, clocks, IDs, coroutines
 *   settings.c  the settings record: plans, workers, publication, reloads
 *   ident.c     the lease, the fence, leased identities and the coordinator
 *   citus.c     Citus: node groups, adds and removals, upgrades, subscriptions
 *   faults.c    the faults, a table of named kinds, and handovers
 *   checks.c    the invariants
 *   generate.c  a backend's calls: generate and back-fill
 *   sim.c       the command line: runs, shrinking, the summary
 *   sim_switch.h  the switch between the scheduler and a process
 *   step.h      the scheduler's every step, inline in sim.c's loop
 */
#ifndef SIM_H
#define SIM_H

#define _GNU_SOURCE
#include <inttypes.h>

#include <stdarg.h>

#include <stdio.h>

#include <stdlib.h>

#include <string.h>


#include <time.h>

#include <ucontext.h>

#include "core/alloc.h"

#include "core/backfill.h"

#include "core/pool.h"

#include "core/record.h"

#include "core/source.h"

#include "core/window.h"

#include "codec/registry.h"

#include "codec/revts8_codec.h"

#include "codec/snowflake_si_codec.h"

#include "codec/sno_codec.h"

#include "sim_switch.h"

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
#define NWORKERS_MAX	2		/* settings worker slots, per server */
#define NPROCS			(NSERVERS_MAX * (NBACKENDS_MAX + NWORKERS_MAX))
#define NPARTITIONS		1024	/* hand-set partitions: servers', fresh ones, sessions' own */
#define FRESH_MAX		800		/* fresh partitions an edit may give: below this */
#define OWN_PARTITION	900		/* sessions' own partitions (startup options): from here */
#define NSEEN			256		/* values a postmaster delivers in one server life */
#define WAIT_US			INT64CONST(200000)	/* how long a backend waits for a worker */
#define HANDOVER_WAIT_US INT64CONST(8000000)	/* margin past the last tick of a partition */
#define SI_INDEX_BITS	2		/* snowflake_si's index bits (specs: a 2-bit sequence) */
#define GROUPS_MAX		12		/* node groups one Citus run hands out at most */

typedef struct Rng
{
	uint64		s;
} Rng;

static inline uint64
rng_next(Rng *r)
{
	r->s += UINT64CONST(0x9E3779B97F4A7C15);
	return uid_mix64(r->s);
}

static inline uint64
rng_below(Rng *r, uint64 n)
{
	return n == 0 ? 0 : rng_next(r) % n;
}

/* The types, by their slots (codec/registry.h). */
#define SIM_TYPE_ENUM(ID, name, slot, ...) T_##ID = (slot),

enum
{
	UID_TYPES(SIM_TYPE_ENUM)
	NTYPES = UID_NTYPES
};

/*
 * What each type embeds of an identity (Citus runs), as source.c works it
 * out, made from the type's ident (codec/registry.h) as src/identity.c's
 * rows are: the record's field of its hand setting and the largest hand
 * value it takes; the largest identity id (a node group or a lease id) it
 * takes, split by uid_id_split into lows values of the low part (the field
 * of a type of one field, revts8's 64 generators); and the fields' widths
 * in the format, which mask what exceeds them (the codecs' pack): revts8's
 * 6-bit generator and 4-bit cluster, one field of the other types.
 */
typedef struct TypeIdent
{
	int			field;			/* UID_REC_* of its hand setting */
	int			field2;			/* and of its second field's (revts8's cluster) */
	uint32		hand_max;
	uint32		max;
	uint32		lows;
	uint32		low_mask;
	uint32		high_mask;		/* 0: a type of one field */
	int			low_bits;
} TypeIdent;

/* the index width of the simulated servers: snowflake_si's machine id's bits */
#define UID_IDENT_INDEX_BITS SI_INDEX_BITS
#define SIM_IDENT(ID, name, slot, nbytes, text, clock, ident) \
	[T_##ID] = SIM_IDENT_ ident,

#define SIM_IDENT_(field_, setting, max_, collide, field2_, setting2, max2) { \
	.field = UID_REC_##setting, .field2 = UID_REC_##setting2, \
	.hand_max = (uint32) ((uint64) (max_) < INT32_MAX ? (uint64) (max_) : INT32_MAX), \
	.max = (uint32) UID_IDENT_ID_MAX_(field_, setting, max_, collide, field2_, setting2, max2), \
	.lows = (uint32) UID_IDENT_LOWS_(field_, setting, max_, collide, field2_, setting2, max2), \
	.low_mask = (uint32) ((uint64) (max_) < UINT32_MAX ? (uint64) (max_) : UINT32_MAX), \
	.high_mask = (uint32) (max2), \
	.low_bits = (max2) == 0 ? 0 : 64 - __builtin_clzll((uint64) (max_)) }

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
	UidWord		from[UID_FROM_WORDS];	/* from when its parts were used */
	UidWord		bf_kept;		/* back-fill ranges kept out of the live range */
	UidWord		bf_until;		/* the latest tick back-fill dated an ID at */
	UidRecordShared rec;		/* the settings record (core/record.h) */
} SimFile;

/*
 * A server's settings as a configuration file, a postmaster or a session
 * holds them: its hand-set partition, sno's live range (sno_parts) and
 * back-fill range (bf_parts, -1: off), and a setting that is not uid's.
 * Outside Citus runs the partition is every type's identity; in them, it is
 * the value of the identity settings that hand says are set (uid.partition,
 * uid.medallion, uid.generator: HAND_*), the others left at their default.
 */
typedef struct Settings
{
	int			partition;
	int			part;
	int			bf;
	uint32		other;
	int			hand;
	bool		cluster;		/* Citus runs: uid.cluster set alone (Sim's cluster) */
	bool		refused;		/* uid.partition holds a value the checks refuse (a
								 * typo): a process holds the default in its place,
								 * and the refusal (outside Citus runs) */
} Settings;

#define HAND_PARTITION	1
#define HAND_MEDALLION	2
#define HAND_GENERATOR	4
#define HAND_ALL		7

/* A server of a Citus run: what it is to the cluster. */
enum
{
	ROLE_COORDINATOR, ROLE_WORKER, ROLE_OUTSIDE
};

typedef struct Server
{
	int			ident;			/* what its IDs embed: one per server, fixed */
	uint64		incarnation;	/* uid_incarnation_of(key, live_id, pm_start) */
	uint64		live_id;		/* drawn each time the state is read from the file */
	uint64		pm_start;		/* the postmaster's start (PgStartTime, pid) */
	uint64		wal_lease;		/* the lease its WAL holds (flushed) */
	int64		boot_t;			/* monotonic clock: t - boot_t + mono_base */
	int64		mono_base;
	int64		anchor_t;		/* wall clock: anchor_unix + (t - anchor_t) * rate */
	int64		anchor_unix;
	int			rate_num;
	int			rate_den;
	/* settings: the files, the postmaster's (its last reload's), its reload time */
	Settings	files;
	Settings	delivered;
	int64		reload_time;	/* PgReloadTime: its wall clock at its last reload
								 * (stopped or stepped by the faults) */
	uint64		reloads;		/* its reloads this life, in order (the truth
								 * that reload_time may not tell) */
	UidWord		signalled;		/* the live state's note of the latest reload
								 * signal a process took (monotonic us) */
	uint64		worker_trouble; /* its settings workers that stalled, died or
								 * found the writer word held, and failed starts */
	int64		last_reload_t;	/* when the postmaster last reloaded (real time) */
	int64		reload_mono;	/* and on the monotonic clock, 0: not since its start */
	uint64		life;			/* the server life: incarnation << 32 */
	Settings	seen[NSEEN];	/* every value the postmaster held this life */
	int			nseen;
	bool		hostile;		/* the files hold an edit made ahead of its reload */
	/* the record in force as the checks know it: what its publisher proposed */
	uint64		shadow_cur;
	bool		shadow_known;	/* false: of a file a crash or failover brought back */
	UidRecord	shadow;
	uint64		shadow_reloads;	/* the reload the record in force is of */
	uint64		shadow_words[UID_REC_WORDS];
	int64		life_since;		/* step a record of this life came in force, -1: none */
	/*
	 * Sequences this server, or one it was copied from, ever issued by
	 * back-fill, or may have issued live: after a failover, back-fill takes a
	 * range clear of all of them (doc/types.md, "Durability").
	 */
	uint32		bf_spent;
	bool		copied;			/* a failover made it from a copy */
	/* the latest tick it back-filled a sno at, per sequence (all below 32) */
	uint64		bf_last[32];
	/* the ticks of its last live sno IDs, where back-fill is aimed half the time */
	uint64		live_ticks[64];
	int			nlive_ticks;
	/* leased identities: this server's key, its retries, its link */
	uint64		key;
	int64		retry_at;		/* no conversation before (real time) */
	int64		cut_until;		/* cannot reach the coordinator until */
	int64		again_at;		/* a tool's second reload, due then (0: none) */
	int64		talk_began;		/* a backend's conversation (real time), 0: none */
	/* pace: the highest tick handed out, and when the last borrows were */
	uint64		max_tick[NTYPES];
	int64		borrows[NTYPES][PACE_RING];
	int			nborrows[NTYPES];
	/*
	 * Citus runs: its role, the row of its pg_dist_local_group (in every
	 * database of it; WAL-logged: crashes and failovers keep it), whether
	 * it is in the cluster now, a removal waiting for the calls into the
	 * cluster under way there (the drop of its tables waits for their
	 * locks), whether its identities stay all set by hand (another server's
	 * hand value is its group), the step of its next add or removal, and
	 * the draws of its events (its own: the same whatever the schedule)
	 */
	int			role;
	int32		group;
	bool		in_cluster;
	bool		remove_pending;
	bool		pinned;
	uint64		citus_at;
	Rng			crng;
	/*
	 * whether its pg_dist_node lists any node (a worker added without
	 * metadata has it empty and its row at 0), the group the coordinator
	 * gave it then and the step its metadata is synced; a Citus upgrade:
	 * the step its row is emptied and the step citus_finish_pg_upgrade()
	 * fills it again, the row it holds, and the step of the fill
	 */
	bool		synced;
	int32		meta_group;
	uint64		sync_at;
	uint64		upgrade_at;
	uint64		fill_at;
	int32		upgrade_row;
	uint64		filled_at;
	/*
	 * a server outside the cluster that sets no identity by hand: the step
	 * its database subscribes to another server's publication (logical
	 * replication; UINT64_MAX: never), and whether it has
	 */
	uint64		sub_at;
	bool		subscribed;
	SimFile		file;
	SimFile		images[NIMAGES];	/* what the disk held, oldest first */
	int			nimages;
} Server;

typedef struct Backend
{
	bool		alive;
	int			server;
	int			num;			/* for the trace: the n-th backend started */
	SimJump		jb;				/* where its coroutine stopped (sim_switch.h) */
	bool		entered;		/* it ran since it started */
#ifndef SIM_SWITCH_ASM
	ucontext_t	ctx;			/* to enter the coroutine the first time */
#endif
	char	   *stack;
	UidCursor	cur[NTYPES];
	int			part;			/* the sno range it issues from (the record's) */
	int			bf;				/* the back-fill range it takes, -1: off */
	/* a process: a backend, or a settings worker (kind) */
	int			kind;
	uint32		pid;
	uint32		par_pid;		/* a parallel worker making the call, 0: none */
	int64		par_after;
	int64		par_reload;
	bool		has_opts;		/* startup options: its own values, whatever the files */
	bool		busy;			/* never takes a reload signal */
	bool		late;			/* loads uid at its first call */
	bool		sig_pending;	/* a reload signal it has not taken */
	int64		sig_at;			/* need.signalled: the last reload signal it
								 * received, taken or not (monotonic us), 0 */
	Settings	own;			/* its own values */
	int64		after;			/* need.after: its load, or the last reload it took */
	int64		reload_time;	/* need.reload_time: the postmaster's at its fork, -1 */
	UidRecord	rec;			/* its copy of the record */
	bool		publishing;
	UidRecord	prop;			/* its proposal, while publishing */
	int64		req;			/* a worker: the request it answers */
	uint64		prop_reloads;	/* the postmaster's reloads its values are of */
	uint64		known;			/* the postmaster's reloads it knows of (forked
								 * after, or took) */
	uint64		gen_used;		/* the record generation of the ID being made */
	uint64		used_copy;		/* its copy of the live sequences' record */
	/* the call under way */
	int			type;
	int64		call_t;
	uint64		floor[2];
	bool		in_call;
	/*
	 * Citus runs: its copy of the node group (citus.c's), the invalidations
	 * it took (uid_ident_invals) and those sent to it, taken or not, and
	 * whether its call under way generates into the cluster (scope 0) or
	 * into a database of its own (1 + its server: a worker outside the
	 * cluster)
	 */
	UidGroupCache gcache;
	uint64		invals;
	uint64		inval_sent;
	int			scope;
	bool		citus_call;
	bool		task;			/* a session Citus opened from another node (application_name) */
	/*
	 * its copy of whether the database has a subscription (subscription.c's,
	 * kept per count of invalidations as a group is: group 1 or 0), and the
	 * count of invalidations sent to it once its server subscribed (0: none
	 * sent, it started after)
	 */
	UidGroupCache subcache;
	uint64		sub_mark;
	uint64		call_step;		/* the step its call began */
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
	F_WRITEBACK, F_PARTITION, F_EDIT, F_HANDOVER, F_UPGRADE, NFAULTKINDS
};

enum
{
	K_BACKEND, K_WORKER
};

/* The coordinator's pool: who holds each id, until when (its clock). */
typedef struct PoolEntry
{
	int			holder;			/* a server, -1: none */
	uint64		holder_key;
	uint64		token;
	int64		expiry_us;
} PoolEntry;

/*
 * The coordinator's rows (leased runs): its pool and the count of claims, and
 * what pool_functions.sql records with each claim and renewal for
 * core/pool.h's rules: where it was written (a cluster and database, a
 * timeline), whether a synchronous standby waited for it, the longest TTL,
 * the hold.  The live rows and three copies: what a crash keeps (flushed),
 * what the standby holds, the last backup.
 */
typedef struct CoordRows
{
	PoolEntry	pool[POOL_MAX];
	uint64		next_token;
	bool		written;
	int			place;
	int			timeline;
	bool		synced;
	int64		max_ttl_us;
	int64		hold_us;
} CoordRows;

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
	bool		storm;			/* reloads come in pairs, a few ms apart */
	int			nbackends;		/* per server */
	int			dt_scale;
	uint64		fault_period;
	bool		leased;
	int			pool_size;
	/*
	 * (leased) the coordinator: its live rows and their copies (what a
	 * crash keeps, what its standby holds, its last backup), where it runs
	 * now (a cluster and database; a timeline), its session's
	 * synchronous_commit, whether it has a synchronous standby, when the WAL
	 * writer flushes next and the next backup is taken, the draws of its
	 * failures (apart: no other schedule moves), what happened
	 */
	CoordRows	live;
	CoordRows	rows_flushed;
	CoordRows	rows_standby;
	CoordRows	rows_backup;
	int			coord_place;
	int			coord_timeline;
	UidCommitLevel coord_commit;
	bool		coord_sync_standby;
	int64		coord_flush_at;
	int64		coord_backup_at;
	int64		coord_event_at;	/* a failure due then (0: none) */
	int			coord_event_kind;
	Rng			krng;
	uint64		coord_events[3];	/* crashes, restores, failovers */
	uint64		coord_holds;
	uint64		coord_held;		/* conversations answered "not now" by a hold */
	uint64		coord_reclaims;
	uint64		refused;		/* calls refused: no usable lease */
	uint64		moves;			/* ids claimed that another server held before */
	uint64		leased_ids;		/* IDs handed out under a leased id */
	uint32		used_block;		/* how the record of live sequences widens: 1, 2 or 256 */
	uint64		live_refused;	/* sno calls refused: the live range is all back-fill's */
	uint64		live_in_old_bf;	/* live sno (timeline 0) in a back-fill range used before */
	uint64		backfilled;		/* IDs back-filled (committed) */
	uint64		bf_refused;		/* back-fill calls refused */
	Rng			sched;
	Rng			frng;
	Server		servers[NSERVERS_MAX];
	Backend		backends[NPROCS];	/* backends, then settings workers */
	uint32		alive_mask;		/* bit i: backends[i] is alive (proc_alive) */
	/*
	 * when each process can run next (proc_wake_at), and what the scheduler
	 * keeps of it: bit i of ready, backends[i] could run when the scheduler
	 * last looked or it was woken; of the living, every one whose bit is
	 * clear wakes at ready_until or later (sched_first, step.h)
	 */
	int64		wake_t[NPROCS];
	uint32		ready;
	int64		ready_until;
	uint32		next_pid;
	/* settings: who may issue each hand-set partition (bits of servers) */
	unsigned char owners[NPARTITIONS];
	unsigned char inherited[NPARTITIONS];	/* handed over to a server (bits) */
	uint64		part_last_end[NPARTITIONS];	/* the end of its last tick issued (unix us) */
	int			next_partition;
	/* a handover of a partition from server ho_a to ho_b: its phase, 0: none */
	int			ho_phase;
	int			ho_a;
	int			ho_b;
	int			ho_old;			/* a's partition, given to b */
	int			ho_new;			/* a's new partition */
	int			ho_b_old;		/* b's partition before */
	uint64		handovers;
	uint64		upgrades_lost;	/* pg_upgrades with the old state file lost */
	uint64		upgrades_waited;	/* pg_upgrades not applied: the clock behind the old IDs */
	uint64		rec_refused;	/* calls refused: no record of this life */
	uint64		refusal_edits;	/* edits that gave uid.partition a refused value */
	uint64		kept;			/* records that kept a refused partition's value */
	uint64		partition_refused;	/* calls refused: the record's partition is */
	uint64		reload_refused; /* calls refused: a reload no worker published */
	int64		ho_reload_t;	/* when a's reload gave ho_old up */
	uint64		lost_signals;	/* settings workers' reload signals lost */
	/*
	 * how each settings worker ended, by pid % NOUTCOMES (its struct may
	 * serve another before a waiter looks): it died, or found the writer
	 * word held by another
	 */
	unsigned char outcome[4096];
	uint64		workers;		/* settings workers started */
	uint64		published;		/* records published */
	uint64		stalls;
	uint64		worker_deaths;
	uint64		parallel_calls;
	/*
	 * Citus runs: the next value of the coordinator's pg_dist_groupid_seq,
	 * its first (hand values are chosen clear of the GROUPS_MAX from it),
	 * and what happened
	 */
	bool		citus;
	Rng			crng;
	int32		group_seq;
	int32		group_first;
	uint64		citus_adds;
	uint64		citus_removes;
	uint64		citus_reads;
	uint64		citus_group_ids;	/* IDs into the cluster that embed a node group */
	uint64		citus_local_ids;	/* IDs of workers outside the cluster */
	uint64		citus_refused;	/* calls refused: the identity does not fit the type */
	/*
	 * uid.cluster set alone on every node of the cluster (revts8's cluster),
	 * -1: not; the draws of the events below (apart from the others, so
	 * that they move no other schedule); and what happened
	 */
	int			cluster_alone;
	Rng			xrng;
	uint64		citus_unsynced_adds;
	uint64		citus_unsynced_refused;	/* tasks refused: no metadata */
	uint64		citus_upgrades;
	uint64		citus_unknown_refused;	/* calls refused: pg_dist_local_group empty */
	uint64		citus_leased_ids;	/* IDs into the cluster of a leased id */
	uint64		subscribes;		/* servers outside the cluster that subscribed */
	uint64		shared_refused; /* calls refused: a default identity where a subscription brings rows */
	uint64		default_ids;	/* IDs of a default identity, into a database of the server's own */
	int			started;
	uint64		next_incarnation;
	uint64		next_live;
	/* order: the largest key of completed calls, per server, type, timeline */
	uint64		done_max[NSERVERS_MAX][NTYPES][2];
	/* unique: open addressing over the IDs handed out */
	IdKey	   *ids;
	uint64		ids_cap;
	uint64		nids;
	/* faults: which ones this run leaves out, which it applied */
	const bool *skip;
	int			nfaults;
	int64		again_first;	/* no server's again_at is earlier (0: look) */
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

/* the run under way, and the process that runs (world.c) */
extern Sim *sim;
extern Backend *running;

#ifdef SIM_SWITCH_ASM
/* where the scheduler stopped, to switch to a process (world.c) */
extern SimJump sched_jb;

/* The scheduler runs process b to its next step (sim_step). */
static inline __attribute__((always_inline)) void
sim_resume(Backend *b)
{
	running = b;
	b->entered = true;
	sim_switch(&sched_jb, &b->jb);
}
#else
extern void sim_resume(Backend *b);
#endif

/* A process starts or ends: its alive, and its bit of the mask sched_pick reads. */
static inline void
proc_alive(Backend *b, bool alive)
{
	uint32		bit = UINT32_C(1) << (b - sim->backends);

	b->alive = alive;
	sim->alive_mask = alive ? sim->alive_mask | bit : sim->alive_mask & ~bit;
}

/* When process b can run next. */
static inline int64
proc_wake(const Backend *b)
{
	return sim->wake_t[b - sim->backends];
}

/*
 * Process b can run from t on: its bit of the scheduler's ready mask, and
 * ready_until, the time by which the scheduler looks again.
 */
static inline void
proc_wake_at(Backend *b, int64 t)
{
	uint32		bit = UINT32_C(1) << (b - sim->backends);

	sim->wake_t[b - sim->backends] = t;
	if (t <= sim->t)
		sim->ready |= bit;
	else
	{
		sim->ready &= ~bit;
		sim->ready_until = Min(sim->ready_until, t);
	}
}

/* The true time: what a server's clock reads when it is right. */
static inline int64
true_unix_us(void)
{
	return START_UNIX_US + sim->t;
}

static inline int64
server_unix_us(Server *s)
{
	return s->anchor_unix + (sim->t - s->anchor_t) * s->rate_num / s->rate_den;
}

static inline int64
server_mono_us(Server *s)
{
	return sim->t - s->boot_t + s->mono_base;
}

static inline int
server_index(const Server *s)
{
	return (int) (s - sim->servers);
}

typedef enum
{
	LEASE_ISSUE, LEASE_AGAIN, LEASE_REFUSED
} LeaseStep;

/* The identity a type's ID embeds in a Citus run. */
typedef struct CitusIdent
{
	UidIdSource source;
	int64		value;			/* the hand value, the node group or the lease id */
	uint32		key;			/* its fields as the format holds them */
	int32		group;			/* the node group read */
} CitusIdent;

/* An ID a generator call made: what the checks of its hand-out read. */
typedef struct MadeId
{
	int			type;
	UidTickSeq	ts;
	int			ident;			/* the identity outside Citus runs (a lease id, a partition) */
	SimIdent	used;			/* (leased) the lease it was made under */
	CitusIdent	ci;				/* (Citus runs) the identity it embeds */
	uint32		bf_hull;		/* sno: the back-fill ranges used, */
	uint32		bf_cur;			/* and the one in use, as issued under */
} MadeId;

/*
 * A call's MadeId before it makes its ID: no identity (-1), the rest 0.
 * Field by field (a field added above is cleared here too): the compiler
 * clears the whole with rep stos, whose start-up took 2% of the
 * simulator's time, where a field's clearing is a few stores.
 */
static inline void
made_init(MadeId *m, int type)
{
	m->type = type;
	m->ts = (UidTickSeq) {0};
	m->ident = -1;
	m->used = (SimIdent) {0};
	m->ci = (CitusIdent) {0};
	m->bf_hull = 0;
	m->bf_cur = 0;
}

/* world.c */
extern UidClockSpec specs[NTYPES];
extern void trace(Backend *b, int server, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
extern void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
extern void server_set_clock(Server *s, int64 unix_us, int num, int den);
extern bool id_new(int scope, uint32 ident, int type, int timeline, uint32 seq, uint64 tick);
extern void disk_write(Server *s);
extern void disk_sync(Server *s);
extern void sync_running(void);
extern void pace_forget(Server *s);
extern Backend *worker_of(int server, int j);
extern void proc_init(Backend *b, int server, void (*main_fn) (void));
extern void backend_start(Backend *b, int server);
extern void server_backends_restart(int server);
extern void server_new_live(Server *s);
extern void server_new_incarnation(Server *s);
extern void file_init(SimFile *f, uint64 secret);
extern void server_boot(Server *s, uint64 r);
extern void server_setup(int i, uint64 seed, Rng *setup);
extern void sched_look(void);
extern void types_setup(void);

/* ident.c */
extern void lease_extend(Backend *b, Server *s, const UidClockSpec *spec, uint64 tick);
extern UidSlot *gen_slot(Server *s, const UidClockSpec *spec);
extern void coord_events(uint64 r);
extern void coord_setup(uint64 seed);
extern LeaseStep ident_cover(Backend *b, Server *s, UidSlot *slot, const UidClockSpec *spec, uint64 tick,
			int *talks, int *id, SimIdent *used);

/* settings.c */
extern void settings_values(const Settings *v, int64 *values);
extern void server_seen(Server *s, const Settings *v);
extern void worker_hazard(Backend *w);
extern bool settings_ready(Backend *b, Server *s);
extern bool settings_refuse_partition(Backend *b);
extern int settings_take(Backend *b);
extern void server_reload(Server *s);

/* checks.c */
extern void record_in_force(Server *s, Backend *p, uint64 cur);
extern void check_torn_in_force(Server *s, Backend *p, uint64 cur);
extern void check_live_fail(Backend *p);
extern void record_forget(Server *s);
extern void check_busy(Server *s, uint32 pid);
extern void check_stale(Server *s, Backend *w);
extern void settings_check_id(Backend *b, Server *s, int partition, uint64 end_us);
extern void check_handout(Backend *b, Server *s, const MadeId *m);
extern void check_held_once(Server *s, int id, int64 c);
extern void check_fresh_use(Backend *b, Server *s);

/* citus.c */
extern TypeIdent type_idents[NTYPES];
extern bool citus_ident(Backend *b, Server *s, int type, int lease_id, CitusIdent *out);
extern int citus_hand(const CitusIdent *ci);
extern void citus_refusal(Backend *b, Server *s, const UidClockSpec *spec, const CitusIdent *ci);
extern void citus_call_begins(Backend *b);
extern void citus_step(void);
extern void citus_setup(void);
extern void citus_show(void);

/* faults.c */
extern const char *fault_name(int kind);
extern int server_bf_pick(Server *s, uint64 r);
extern int fresh_partition(void);
extern void handover_step(void);
extern void reloads_again(void);
extern void fault_draw(void);

/* generate.c */
extern void backend_main(void);

#endif							/* SIM_H */
