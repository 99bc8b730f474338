/*
 * lease.c
 *		Uniqueness beyond one data directory: the lease and the fence.
 *
 * The state file's marks are exact on the server that wrote them, but a
 * copy of the data directory (a standby, a restored backup, a rewound node)
 * holds the marks of when it was copied, an operating-system crash or an
 * immediate shutdown can lose the file's last updates, a restore or a copy
 * written over it sets it back, and pg_upgrade starts without it.  WAL is what
 * all of those share with the server they came from, so:
 *
 * - The lease.  Before an ID is handed out, WAL holds a lease: a time
 *   past the start of every tick issued so far (lease_us).  It is kept in
 *   the replication origin "uid_fence" (its remote_lsn holds the lease, in
 *   Unix microseconds), which core WAL-logs, replays on standbys, checkpoints
 *   and restores after a crash, with no shared_preload_libraries.  The lease
 *   runs UID_LEASE_US past the newest ID; an ID in its second half makes
 *   one backend renew it, with a WAL flush and a sync of the state file, so
 *   that other backends never wait for WAL and an operating-system crash
 *   loses nothing the lease does not cover.  WAL is ordered: any WAL that
 *   holds a row with an ID holds a lease past it.
 *
 * - The fence.  A server incarnation is one run of one postmaster on one
 *   timeline of one system with one shared state: a start and a promotion
 *   each begin a new one (a crash-restart of the postmaster keeps its
 *   shared state, and the marks in it).  The first generation of each type in
 *   an incarnation moves the type's marks past the lease that the origin
 *   holds (as replayed by recovery) and past the file's own, before the
 *   first ID.  So IDs made after a promotion, a restore, a rewind or a crash
 *   sort after every ID that the WAL they replayed can hold, whatever the
 *   clock says.  A fence moves a type's IDs at most a lease and one of its
 *   ticks ahead of the newest ID or the clock.
 *
 * - During recovery (a hot standby) generators refuse, as nextval() does:
 *   the primary makes the IDs.
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "access/xact.h"
#include "access/xlog.h"
#include "catalog/pg_extension.h"
#include "catalog/pg_replication_origin.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "replication/origin.h"
#include "storage/lmgr.h"
#include "tcop/utility.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/rel.h"
#include "utils/timestamp.h"

#include "clock.h"
#include "lease.h"
#include "type_support.h"
#include "sql_api.h"

#define UID_FENCE_ORIGIN "uid_fence"

uint64		uid_incarnation = PG_UINT64_MAX;


/* This incarnation (uid_incarnation_of, core/alloc.h). */
static uint64
uid_incarnation_key(void)
{
	return uid_incarnation_of(GetSystemIdentifier(), uid_state_live_id(),
							  (uint64) PgStartTime, (uint64) PostmasterPid,
							  (uint64) GetWALInsertionTimeLine());
}

/*
 * The version of uid that the catalog of this database holds (palloc'd),
 * NULL outside a transaction or where there is none.
 */
static char *
uid_catalog_version(void)
{
	Relation	rel;
	SysScanDesc scan;
	ScanKeyData key;
	HeapTuple	tup;
	char	   *version = NULL;

	if (!IsTransactionState())
		return NULL;
	rel = table_open(ExtensionRelationId, AccessShareLock);
	ScanKeyInit(&key, Anum_pg_extension_extname, BTEqualStrategyNumber, F_NAMEEQ,
				CStringGetDatum("uid"));
	scan = systable_beginscan(rel, ExtensionNameIndexId, true, NULL, 1, &key);
	if (HeapTupleIsValid(tup = systable_getnext(scan)))
	{
		bool		isnull;
		Datum		v = heap_getattr(tup, Anum_pg_extension_extversion,
									 RelationGetDescr(rel), &isnull);

		if (!isnull)
			version = TextDatumGetCString(v);
	}
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
	return version;
}

/*
 * Is v one of the versions named, NULL-terminated?  False for NULL.
 */
static bool
uid_version_in(const char *v, const char *const *versions)
{
	if (v == NULL)
		return false;
	for (; *versions; versions++)
		if (strcmp(v, *versions) == 0)
			return true;
	return false;
}

/*
 * The origin's id.  Looked up each time (a syscache lookup, once per
 * renewal): an id kept across a drop and re-creation of the origin could
 * name another origin later.
 *
 * Missing, it is what pg_upgrade leaves (or an origin dropped by hand).
 * The hint leads to what creates it: ALTER EXTENSION uid UPDATE where the
 * catalog holds a version before the origin, else the procedure of
 * doc/operations.md, whose order matters: the old state file is put in
 * before the origin lets the first ID be made, so that the record of the
 * live sequences and the back-fill lanes it holds are the server's
 * (state.c takes a file of 0.6.0 or older over, record and lanes kept).
 * uid_fence_restore() creates the origin and refuses without that file;
 * where the catalog holds a version without it (0.3.0 to 0.6.0), ALTER
 * EXTENSION uid UPDATE brings it, and after that the hint names it alone.
 */
static ReplOriginId
uid_fence_origin(void)
{
	ReplOriginId id = replorigin_by_name(UID_FENCE_ORIGIN, true);

	if (id == InvalidReplOriginId)
	{
		static const char *const before_origin[] = {"0.1.0", "0.2.0", NULL};
		static const char *const before_restore[] = {"0.3.0", "0.4.0", "0.5.0", "0.6.0", NULL};
		char	   *version = uid_catalog_version();

		if (uid_version_in(version, before_origin))
			ereport(ERROR,
					(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
					 errmsg("uid cannot generate IDs: its lease is kept in replication origin \"%s\", which does not exist",
							UID_FENCE_ORIGIN),
					 errdetail("This database holds uid at a version older than 0.3.0, which had no lease; ALTER EXTENSION uid UPDATE creates the origin.  pg_upgrade carries neither it nor the state file uid_generator.state over."),
					 errhint("Run ALTER EXTENSION uid UPDATE; after pg_upgrade, copy the old data directory's uid_generator.state in first (doc/operations.md).")));
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("uid cannot generate IDs: its lease is kept in replication origin \"%s\", which does not exist",
						UID_FENCE_ORIGIN),
				 errdetail("CREATE EXTENSION uid makes it (ALTER EXTENSION uid UPDATE only from uid 0.2.0 or older, so it cannot make it here).  pg_upgrade carries neither it nor the state file uid_generator.state over."),
				 errhint("After pg_upgrade: stop the server, copy uid_generator.state from the old data directory into this one, start it, %srun SELECT uid_fence_restore(); see doc/operations.md.",
						 uid_version_in(version, before_restore) ?
						 psprintf("run ALTER EXTENSION uid UPDATE (this database holds uid %s, which has no uid_fence_restore()), then ", version) :
						 "")));
	}
	return id;
}

/* The lease that WAL holds (replayed by recovery), or 0. */
static uint64
uid_wal_lease(void)
{
	return (uint64) replorigin_get_progress(uid_fence_origin(), false);
}

/*
 * The fence of this incarnation (uid_fence_take, core/alloc.c): the lease in
 * WAL as recovery replayed it, or the file's own, the larger.
 */
static uint64
uid_incarnation_fence(void)
{
	uint64		fence;

	if (uid_fence_known(&uid_state->lease, uid_incarnation, &fence))
		return fence;
	return uid_fence_take(&uid_state->lease, uid_incarnation, uid_wal_lease());
}

UidSlot *
uid_gen_prepare(const UidClockSpec *spec, bool unique)
{
	UidSlot    *slot;

	if (RecoveryInProgress())
		ereport(ERROR,
				(errcode(ERRCODE_READ_ONLY_SQL_TRANSACTION),
				 errmsg("cannot execute %s during recovery", spec->func),
				 errhint("IDs are made on the primary server; a standby's IDs would repeat the primary's.")));
	/* as nextval() does: see doc/design.md, "Read-only transactions" */
	PreventCommandIfReadOnly(spec->func);
	/* before the state file is made: after pg_upgrade the old one goes there */
	(void) uid_fence_origin();
	if (uid_state == NULL)
		uid_state_attach();
	if (uid_incarnation == PG_UINT64_MAX)
		uid_incarnation = uid_incarnation_key();

	slot = &uid_state->slots[spec->slot];
	if (pg_atomic_read_u64(&slot->fenced) != uid_incarnation)
		uid_slot_fence(&uid_state->lease, slot, spec, unique, uid_incarnation,
					   uid_incarnation_fence());
	return slot;
}

/*
 * Moves the origin's progress to lease, WAL-logged.  The first move after
 * the origin is made (or the server's first) takes a replication state slot
 * of the server's "max_active_replication_origins" (before 18
 * "max_replication_slots"), which every subscription's origin and every
 * table synchronization's takes too, and keeps it.  Where none is free,
 * PostgreSQL's error names neither uid nor the sharing: it is replaced by
 * uid's (raised before anything is logged, under a lock the abort frees).
 */
static void
uid_fence_advance(ReplOriginId origin, uint64 lease)
{
	MemoryContext cxt = CurrentMemoryContext;

	PG_TRY();
	{
		replorigin_advance(origin, (XLogRecPtr) lease, InvalidXLogRecPtr, false, true);
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		MemoryContextSwitchTo(cxt);
		edata = CopyErrorData();
		if (edata->sqlerrcode != ERRCODE_CONFIGURATION_LIMIT_EXCEEDED)
			PG_RE_THROW();
		FlushErrorState();
		ereport(ERROR,
				(errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
				 errmsg("uid cannot make IDs: no replication state slot is free for its replication origin \"%s\"",
						UID_FENCE_ORIGIN),
				 errdetail("uid keeps its lease in that origin, which needs one of the %d slots that \"%s\" sets; each subscription's origin holds one, and each table synchronization one while it runs.",
						   uid_max_origins(), UID_ORIGINS_SETTING),
				 errhint("Raise \"%s\" by one (it takes a restart), or drop a subscription or replication origin no longer used; see doc/multi-master.md.",
						 UID_ORIGINS_SETTING)));
	}
	PG_END_TRY();
}

/* The origin needs a replication state slot: refused where there are none. */
static void
uid_origins_check(void)
{
	if (uid_max_origins() < 1)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("uid cannot generate IDs with \"%s\" = 0", UID_ORIGINS_SETTING),
				 errdetail("uid keeps its lease in replication origin \"%s\", which needs one replication state slot.",
						   UID_FENCE_ORIGIN),
				 errhint("Set \"%s\" to 1 or more, here and on every standby.", UID_ORIGINS_SETTING)));
}

/*
 * WAL-logs a lease of at least need_us and flushes it, syncs the state file, then
 * publishes the lease.  The shared state is checked to be the one mapped
 * after the lease is logged: a backend that maps a new one fences past this
 * lease.
 */
static void
uid_lease_renew(uint64 need_us)
{
	ReplOriginId origin = uid_fence_origin();
	uint64		lease = uid_lease_next((uint64) Max(uid_clock_unix_us(), 0), need_us);

	uid_origins_check();

	uid_fence_advance(origin, lease);
	XLogFlush(XactLastRecEnd);
	uid_state_check_same();
	uid_state_sync();
	uid_lease_renewed(&uid_state->lease, lease);
}

/* Who renews is the core's decision (uid_lease_renewal); the WAL is ours. */
void
uid_lease_extend(uint64 need_us)
{
	for (;;)
	{
		switch (uid_lease_renewal(&uid_state->lease, need_us, uid_clock_mono_us()))
		{
			case UID_RENEWAL_COVERED:
				return;
			case UID_RENEWAL_MINE:
				PG_TRY();
				{
					uid_lease_renew(need_us);
				}
				PG_CATCH();
				{
					uid_lease_abandoned(&uid_state->lease);
					PG_RE_THROW();
				}
				PG_END_TRY();
				return;
			case UID_RENEWAL_WAIT:
				pg_usleep(50);
				CHECK_FOR_INTERRUPTS();
				break;
		}
	}
}

PG_FUNCTION_INFO_V1(uid_lease);
Datum
uid_lease(PG_FUNCTION_ARGS)
{
	TupleDesc	tupdesc;
	Datum		values[5];
	bool		nulls[5] = {0};
	uint64		lease;
	uint64		fence;
	uint64		wal;
	ReplOriginId origin;

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	if (uid_state == NULL)
		uid_state_attach();
	lease = pg_atomic_read_u64(&uid_state->lease.lease_us);
	fence = pg_atomic_read_u64(&uid_state->lease.fence_us);
	origin = replorigin_by_name(UID_FENCE_ORIGIN, true);
	wal = origin == InvalidReplOriginId ? 0 :
		(uint64) replorigin_get_progress(origin, false);

#define US_TO_TIMESTAMPTZ(us) TimestampTzGetDatum((TimestampTz) (us) - PG_EPOCH_UNIX_US)
	values[0] = US_TO_TIMESTAMPTZ(lease);
	nulls[0] = lease == 0;
	values[1] = US_TO_TIMESTAMPTZ(wal);
	nulls[1] = wal == 0;
	values[2] = US_TO_TIMESTAMPTZ(fence);
	nulls[2] = fence == 0;
	values[3] = Int64GetDatum((int64) pg_atomic_read_u64(&uid_state->lease.renewals));
	values[4] = Int64GetDatum((int64) pg_atomic_read_u64(&uid_state->lease.fences));
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}

/*
 * uid_fence_restore(old_file_lost): the last step after pg_upgrade, which
 * carries neither the origin nor the state file over.  Creates the origin,
 * once the data directory holds the old server's state file, and WAL-logs
 * into it the file's lease, or a lease of now where later
 * (core/backfill.h, uid_restore_lease): every later fence, here and on a
 * standby whatever its own file, starts past the old IDs; the file's record
 * of sno's live sequences and lanes keeps back-fill from repeating them.  A
 * state file made anew knows nothing of them (core/backfill.c,
 * uid_state_has_record): it is refused, unless old_file_lost, and then the
 * lease of now also ends the history back-fill does not know
 * (uid_used_take_over): back-fill before it is refused.  Returns that
 * lease where the file was lost, NULL where it holds the old server's
 * record.
 */
PG_FUNCTION_INFO_V1(uid_fence_restore);
Datum
uid_fence_restore(PG_FUNCTION_ARGS)
{
	bool		old_file_lost;
	bool		record;
	ReplOriginId origin;
	uint64		lease;

	/* not STRICT: a NULL would return NULL as if the origin were made */
	if (PG_ARGISNULL(0))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("old_file_lost must be true or false, not NULL")));
	old_file_lost = PG_GETARG_BOOL(0);

	if (RecoveryInProgress())
		ereport(ERROR,
				(errcode(ERRCODE_READ_ONLY_SQL_TRANSACTION),
				 errmsg("cannot execute uid_fence_restore() during recovery"),
				 errhint("Run it on the primary server: standbys replay its origin.")));
	PreventCommandIfReadOnly("uid_fence_restore()");
	uid_origins_check();

	/* no one creates it meanwhile, nor advances it before it is ours */
	LockRelationOid(ReplicationOriginRelationId, ExclusiveLock);
	if (replorigin_by_name(UID_FENCE_ORIGIN, true) != InvalidReplOriginId)
		ereport(ERROR,
				(errcode(ERRCODE_DUPLICATE_OBJECT),
				 errmsg("replication origin \"%s\" exists already", UID_FENCE_ORIGIN),
				 errdetail("uid_fence_restore() makes the origin that pg_upgrade leaves behind; this server has one, with the lease of the IDs it made."),
				 errhint("Nothing is to be done: uid generates with the origin that exists.")));

	if (uid_state == NULL)
		uid_state_attach();
	record = uid_state_has_record(&uid_state->lease, &uid_state->sno_cfg.live_used,
								  &uid_state->sno_cfg.live_used_since, uid_state->slots, UID_NSLOTS);
	if (!record)
	{
		if (!old_file_lost)
			ereport(ERROR,
					(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
					 errmsg("uid's state file holds no record of the server before pg_upgrade"),
					 errdetail("The data directory's %s was made anew, or by a server that made no ID since its file was made: with it, sno_new_at() could repeat IDs that the old server made, at any time before now.",
							   "uid_generator.state"),
					 errhint("Stop the server, copy %s from the old data directory into this one, start it and run uid_fence_restore() again.  If the old file is lost, run uid_fence_restore(old_file_lost => true): it refuses back-fill at times before now.",
							 "uid_generator.state")));
	}
	lease = uid_restore_lease(&uid_state->lease, record, (uint64) Max(uid_clock_unix_us(), 0));

	origin = replorigin_create(UID_FENCE_ORIGIN);
	if (lease != 0)
	{
		/*
		 * every fence from now on is past it, on this server and on every
		 * standby that replays it, whatever their state files hold
		 */
		uid_fence_advance(origin, lease);
		XLogFlush(XactLastRecEnd);
	}
	if (record)
		PG_RETURN_NULL();
	PG_RETURN_DATUM(US_TO_TIMESTAMPTZ(lease));
}
