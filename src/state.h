/*
 * state.h
 *		The state: the generator core's shared words, in a shared memory
 *		object of the postmaster's life that every backend maps, and on disk
 *		in the data directory's state file.
 *
 * Each type owns one slot of the state.  A slot holds the type's state
 * words, updated only by compare-and-swap (no lock is ever held, so a
 * backend that dies mid-call cannot wedge the others), and its counters.
 * The shared memory object lives as long as the postmaster (a
 * crash-restart keeps it); its first backend reads it from the data
 * directory's file, which uid_state_sync() and every exiting backend
 * write, so the high-water marks survive restarts.
 *
 * The file is not WAL-logged, so copies of the data directory (a standby,
 * a restored backup, a rewound node), an operating-system crash and an
 * immediate shutdown can leave it behind the IDs the server's WAL holds.  The lease and the fence
 * close that gap: before an ID is handed out, WAL holds a lease, a time
 * that no ID issued so far reaches (kept in a replication origin, which
 * core WAL-logs, replays on standbys and checkpoints, without
 * shared_preload_libraries).  The first generation of a type in each server
 * incarnation (a start, a promotion) moves the type's marks past the lease
 * that recovery replayed.  See lease.c.
 */
#ifndef UID_STATE_H
#define UID_STATE_H

#include "codec/registry.h"
#include "core/alloc.h"
#include "core/backfill.h"
#include "core/record.h"

#include "compat.h"

/*
 * Slot numbers are part of the file layout: never renumber, only append
 * (codec/registry.h).
 */
#define UID_SLOT_ENUM(ID, name, slot, ...) UID_SLOT_##ID = (slot),
typedef enum UidSlotId
{
	UID_TYPES(UID_SLOT_ENUM)
} UidSlotId;
#undef UID_SLOT_ENUM

#define UID_NSLOTS 8
StaticAssertDecl(UID_NTYPES <= UID_NSLOTS, "every type has a slot in the state file");

/*
 * The server's identity leased from a coordinator (ident_store.c, ident_lease.c).  gen is a
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
	pg_atomic_uint64 host;		/* the host name's hash as this postmaster
								 * life first saw it (low 32 bits) and the
								 * life's tag (high 32 bits); zero in files
								 * of 0.6.0 and older */
	pg_atomic_uint64 unused[2];	/* zero */
	pg_atomic_uint64 last_sqlstate;	/* of last_error: the coordinator's code, packed */
	pg_atomic_uint64 last_key;	/* the key last_error was for */
	pg_atomic_uint64 spare[3];
	char		last_error[256];	/* of the last conversation, by its backend */

	/*
	 * This server's clock against the coordinator's, measured with the
	 * lease's last claim or renewal (coordinator.c, uid_ident_measure): its
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
 * sno's sequence ranges as the server issues from them (sno_policy.c), and
 * which sequences sno_new() has issued.  Zeros in a file of uid 0.5.0 or
 * older.
 *
 * The ranges in force are the settings record's (rec, published.c).
 * ranges, pm_key, lock and stamp were 0.6.0's publication of them, no longer
 * written nor read; taken_us, previous and previous_until describe the last
 * switch of ranges for sno_range(), written by the process that published
 * the record that switched them.
 *
 * live_used is UID_USED_VALID | lowest << 16 | highest sequence that
 * sno_new() issued while it has been recorded, that is since the file was
 * made (live_used_since 0), or for an older file since the sno mark was
 * live_used_since: back-fill must keep clear of those sequences.  With
 * UID_USED_DURABLE once the file on disk holds it (core/backfill.h).
 */
typedef struct UidSnoConfig
{
	pg_atomic_uint64 ranges;	/* unused (0.6.0's) */
	pg_atomic_uint64 pm_key;	/* unused (0.6.0's) */
	pg_atomic_uint64 lock;		/* unused (0.6.0's) */
	pg_atomic_uint64 taken_us;	/* when the ranges in force were published (Unix us) */
	pg_atomic_uint64 previous;	/* the ranges word before, 0: none */
	pg_atomic_uint64 previous_until;	/* the highest sno tick issued when they
										 * were replaced, + 1; 0: none */
	pg_atomic_uint64 live_used;
	pg_atomic_uint64 live_used_since;
	pg_atomic_uint64 stamp;		/* unused (0.6.0's) */
} UidSnoConfig;

/*
 * The layout of the state and of its file, version 4.  Version 1 (uid 0.1.0 and
 * 0.2.0) had zeros where the header now has its lease and fence words, which
 * is what a later file starts with, so a version 1 file is taken over.
 * Version 2 (0.3.0 to 0.5.0) had zeros where version 3 (0.6.0) keeps sno's
 * ranges and the record of its live sequences; version 3 exists so that a
 * 0.5.0 library, which would issue without recording, refuses it.  Version 4
 * (0.7.0) has version 3's layout: the file is no longer mapped, and a 0.6.0
 * library, which would map it, refuses it (state.c, uid_live_build).
 */
typedef struct UidStateFile
{
	uint32		magic;
	uint32		version;
	uint64		secret;			/* random, drawn when the file is made */
	UidLeaseWords lease;		/* the lease and the fence (core/alloc.h) */
	UidSlot		slots[UID_NSLOTS];
	UidIdentState ident;		/* zeros in a file of uid 0.3.0 or older */
	UidSnoConfig sno_cfg;		/* zeros in a file of uid 0.5.0 or older */
	UidRecordShared rec;		/* the settings record (published.c); zeros: none */

	/*
	 * From when each part of sno's live sequences was used
	 * (core/backfill.h, UID_FROM_WORDS): UID_FROM_NONE in a file made by
	 * this library, zeros (unknown) in an older one.
	 */
	pg_atomic_uint64 live_from[UID_FROM_WORDS];

	/*
	 * What the leased identity's key takes from this file
	 * (uid_state_file_id) when it is not the file's own device and inode:
	 * the file of version 3 that 0.7.0 replaced by a new inode (state.c,
	 * uid_live_build) had its own, and the key stays.  Valid while
	 * file_inode is this file's device and inode, mixed (a copy's are
	 * others); zeros in a file made anew.
	 */
	uint64		file_id;
	uint64		file_inode;

	/*
	 * sno's back-fill ranges that sno_new() keeps clear of besides the one
	 * in use, and the latest time a back-filled ID may be dated at
	 * (core/backfill.h, UidBackfillWords' kept and until): zeros in a file
	 * of an older library, which back-fill takes over.
	 */
	pg_atomic_uint64 backfill_kept;
	pg_atomic_uint64 backfill_until;
} UidStateFile;

extern UID_HIDDEN UidStateFile *uid_state;
extern void uid_state_attach(void);

/*
 * This backend's cursor of each slot (core/alloc.h): its share of a tick,
 * and where the slot's run-on sequence starts, a value drawn when the state
 * file was made, the same for every backend and across restarts (the state
 * word holds the sequence relative to it).  Set when the state is mapped,
 * before any backend can generate from it.
 */
extern UID_HIDDEN UidCursor uid_cursors[UID_NSLOTS];

/*
 * The device and inode of the data directory's file when the state was
 * read from it, mixed: the same across the restarts of one data directory
 * while the file stays, another for a copy of it.
 */
extern uint64 uid_state_file_id(void);

/* The word where processes note their latest reload signal (reload.c). */
extern UidWord *uid_state_signalled(void);

/* Drawn when the shared state was read from the file; never 0. */
extern uint64 uid_state_live_id(void);

/*
 * Errors if the shared memory object at its name is no longer the one
 * mapped (something removed it while the server ran).
 */
extern void uid_state_check_same(void);

/* Writes the shared state to the data directory's file and fsyncs it. */
extern void uid_state_sync(void);

/*
 * A 64-bit value drawn once per server start: every backend of one
 * postmaster computes the same value for the same purpose, and it differs
 * between server starts and between data directories.
 */
extern uint64 uid_boot_value(uint64 purpose);

#endif							/* UID_STATE_H */
