/*
 * ident_lease.c
 *		The life of the identity leased from a coordinator: when it is
 *		claimed, renewed or refused.
 *
 * With uid.coordinator set, the server leases one id of a pool from a
 * coordinator (identity.c says what each type embeds of it).  This file
 * decides, for every tick a generator issues (generate.c calls
 * uid_ident_check), whether the lease covers it, renews it early, claims or
 * renews one when none covers it (the conversation itself is
 * coordinator.c's), and raises what failed; and it is uid_identity_renew().
 *
 * The lease is kept in the state file, so it is the server's (every backend
 * and database) and outlives restarts.  It is bound to a key: the
 * coordinator's address, the pool and its size, and the incarnation family
 * of the server (system identifier, timeline, state file, host name).  A
 * restart keeps the key and the lease; a promoted standby, a restored
 * backup on a new timeline or a copy of the data directory elsewhere does
 * not, and claims an id of its own.
 *
 * Two holders of one id never issue the same ID because their IDs' times
 * are disjoint:
 *
 * - The holder's IDs end before its expiry: the holder's clock read before
 *   it asked, plus the TTL, so never later (by the holder's clock) than the
 *   coordinator's expiry (by the coordinator's), give or take the clock
 *   difference.  A tick that would end after it is not issued: the backend
 *   renews the lease, or refuses.
 * - The next holder of the id gets it only after the coordinator's expiry
 *   plus the grace period (uid.pool_grace on the coordinator), and its IDs
 *   begin at or after its floor: its clock read after the claim returned.
 *   A tick before the floor (the clock stepped back, sno's other timeline)
 *   is not issued: the type's marks are raised to the floor and the
 *   allocation is made again.
 *
 * Both are checked against the tick being issued, in the allocator
 * (generate.c calls uid_ident_cover), not against the wall clock: IDs dated
 * ahead of the clock (borrowed, or a fence after a start) never pass the
 * expiry, so only the clocks matter.
 *
 * The clocks: see coordinator.c (uid_ident_measure).
 *
 * Renewal: an ID in the second half of the lease's TTL makes one backend
 * renew it (others go on generating); a failure is a WARNING and is retried
 * after a pause, and generation goes on until the lease ends.  After that a
 * generator that finds no usable lease renews or claims one itself and
 * raises the error if it cannot.  No shared_preload_libraries, no worker:
 * the backend that needs the lease talks to the coordinator, with every
 * wait bounded by uid.coordinator_timeout and interruptible.
 */
#include "postgres.h"

#include "access/xlog.h"
#include "common/hashfn.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "storage/latch.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"

#include "clock.h"
#include "coordinator.h"
#include "ident_lease.h"
#include "published.h"
#include "reload.h"
#include "guc.h"
#include "guc_coordinator.h"
#include "remote.h"
#include "sql_api.h"

/* A conversation that lasted this much longer than its timeout died. */
#define UID_IDENT_STALE_EXTRA_US INT64CONST(5000000)

/* The longest pause between failed attempts at renewing early. */
#define UID_IDENT_RETRY_MAX_US INT64CONST(60000000)


/* uid_ident_settings_changes when key_cached was worked out (UINT64_MAX: never) */
static uint64 key_for = UINT64_MAX;
static uint64 key_cached;

static uint64
uid_hash_str(uint64 seed, const char *s)
{
	return uid_mix64(seed ^ hash_bytes_extended((const unsigned char *) s, (int) strlen(s), seed));
}

/*
 * The host name as this server life first saw it, hashed, for the key:
 * read once per postmaster life (kept in the shared state with a tag of
 * the life), so that a host renamed while the server runs changes no key,
 * and sessions begun before and after the rename hold one lease; the next
 * start takes the new name.
 */
static uint64
uid_host_hash(void)
{
	pg_atomic_uint64 *w = &uid_state->ident.host;
	uint64		life = (uid_pm_key() & UINT64CONST(0xFFFFFFFF)) | 1;
	uint64		seen = pg_atomic_read_u64(w);
	uint64		mine;

	if (seen >> 32 == life)
		return seen & UINT64CONST(0xFFFFFFFF);
	mine = life << 32 | (uid_hash_str(0, uid_host_name()) & UINT64CONST(0xFFFFFFFF));
	if (pg_atomic_compare_exchange_u64(w, &seen, mine))
		return mine & UINT64CONST(0xFFFFFFFF);
	/* another backend of this life was first: its reading stands */
	return (seen >> 32 == life ? seen : mine) & UINT64CONST(0xFFFFFFFF);
}

/*
 * What a lease is for: where the coordinator is (not how we log in to it),
 * the pool and its size, and this server's system, timeline, state file and
 * host (as this server life first saw it).  Never 0.
 */
/* uid_rec_word when key_cached was worked out */
static uint64 key_rec_for = UINT64_MAX;

uint64
uid_ident_key(void)
{
	uint64		k;

	if (key_for == uid_ident_settings_changes && key_rec_for == uid_rec_word)
		return key_cached;
	k = uid_mix64(GetSystemIdentifier());
	k = uid_mix64(k ^ uid_state_file_id());
	k = uid_mix64(k ^ (uint64) GetWALInsertionTimeLine());
	k = uid_mix64(k ^ uid_host_hash());
	/* the coordinator, pool and size of the server's settings record */
	k = uid_mix64(k ^ (uint64) uid_rec_value(UID_REC_LEASE_KEY));
	key_cached = k | 1;
	key_for = uid_ident_settings_changes;
	key_rec_for = uid_rec_word;
	return key_cached;
}

/*
 * Errors unless this session's coordinator, pool and pool size are those of
 * the server's settings record: a session talks to the coordinator with its
 * own, and one whose own came from a startup option or from configuration
 * files edited after the last reload must not claim or renew the server's
 * lease with them.
 */
static bool
uid_ident_own_settings_ok(void)
{
	return uid_lease_settings_key() == (uint64) uid_rec_value(UID_REC_LEASE_KEY);
}

static void
uid_ident_check_own_settings(void)
{
	if (likely(uid_ident_own_settings_ok()))
		return;
	ereport(ERROR,
			(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
			 errmsg("this session's \"uid.coordinator\", \"uid.pool\" or \"uid.pool_size\" is not the server's"),
			 errdetail("The server's lease is claimed and renewed with the values of its last reload; this session holds others (a startup option, or configuration files edited after that reload)."),
			 errhint("Reload the configuration, or use a session that sets no uid settings of its own.")));
}

/*
 * This backend's copy of the lease and the gen it was read at: every
 * rewrite moves gen on, so while gen stays the copy is the lease.
 */
static UidIdentSnap cached;
static uint64 cached_gen = 1;

static inline void
uid_ident_read_cached(UidIdentSnap *s)
{
	if (unlikely(pg_atomic_read_u64(&uid_state->ident.gen) != cached_gen))
		uid_ident_read_at(&cached, &cached_gen);
	*s = cached;
}

/*
 * Talking to the coordinator and rewriting the lease are one backend's at a
 * time: the one that set busy.  A conversation that outlived its timeout by
 * far died with its backend (or before a reboot: the monotonic clock
 * restarts), and is taken over.
 */
static bool
uid_ident_begin(uint64 *stamp)
{
	UidIdentState *st = &uid_state->ident;
	uint64		began = pg_atomic_read_u64(&st->busy);
	int64		now = uid_clock_mono_us();
	int64		stale = (int64) uid_coordinator_timeout_ms * 1000 + UID_IDENT_STALE_EXTRA_US;
	uint64		gen;

	if (!(began == 0 || (int64) began > now || now - (int64) began > stale))
		return false;
	if (!pg_atomic_compare_exchange_u64(&st->busy, &began, (uint64) now))
		return false;
	*stamp = (uint64) now;

	/* a backend died rewriting the lease: it is no lease */
	gen = pg_atomic_read_u64(&st->gen);
	if (gen & 1)
	{
		pg_atomic_write_u64(&st->word, 0);
		pg_atomic_write_u64(&st->gen, gen + 1);
	}
	return true;
}

static void
uid_ident_end(uint64 stamp)
{
	(void) pg_atomic_compare_exchange_u64(&uid_state->ident.busy, &stamp, 0);
}

/* The SQLSTATE kept by uid_ident_set_error, into sqlstate (6 bytes). */
static void
uid_ident_last_sqlstate(char *sqlstate)
{
	uint64		packed = pg_atomic_read_u64(&uid_state->ident.last_sqlstate);

	for (int i = 0; i < 5; i++)
		sqlstate[i] = (char) (packed >> (8 * i));
	sqlstate[5] = '\0';
}

/*
 * Does the lease cover ticks ending at end_us, for key?  Not one measured
 * beyond the bound.
 */
static inline bool
uid_ident_covers(const UidIdentSnap *s, uint64 key, uint64 end_us)
{
	return s->word != 0 && s->key == key && end_us <= SNAP_EXPIRY_US(s) && !s->skewed;
}

/* Is the lease for key one measured beyond the bound? */
static inline bool
uid_ident_skewed(const UidIdentSnap *s, uint64 key)
{
	return s->word != 0 && s->key == key && s->skewed;
}

const char *
uid_us_text(uint64 us)
{
	return timestamptz_to_str((TimestampTz) us - PG_EPOCH_UNIX_US);
}

/*
 * Raises what failed, with the coordinator's SQLSTATE if it answered; who
 * is the context ("while generating an ID with sno_new()"), end_us the end
 * of the tick being issued (0: none).
 */
UID_NORETURN static void
uid_ident_refuse(const char *who, const UidIdentSnap *s, uint64 key, uint64 end_us,
				 const char *err, const char *sqlstate) UID_NORETURN_AFTER;

static void
uid_ident_refuse(const char *who, const UidIdentSnap *s, uint64 key, uint64 end_us,
				 const char *err, const char *sqlstate)
{
	int			code = ERRCODE_CONNECTION_FAILURE;
	const char *log = uid_remote_log_text(err);

	if (sqlstate != NULL && strlen(sqlstate) == 5)
		code = MAKE_SQLSTATE(sqlstate[0], sqlstate[1], sqlstate[2], sqlstate[3], sqlstate[4]);
	/* where the coordinator is and who logs in to it: the server log's only */
	if (s->word != 0 && s->key == key && SNAP_EXPIRY_US(s) > (uint64) uid_clock_unix_us() && end_us != 0)
		ereport(ERROR,
				(errcode(code),
				 errmsg("this server's lease of id %d in pool \"%s\" ends at %s, before the tick of the ID being made ends at %s",
						SNAP_ID(s), uid_pool, pstrdup(uid_us_text(SNAP_EXPIRY_US(s))),
						pstrdup(uid_us_text(end_us))),
				 errdetail("Renewing it failed: %s.", err),
				 errdetail_log("Renewing it failed: %s.", log),
				 errhint("Generation resumes once the server renews or claims a lease from the coordinator in \"uid.coordinator\"."),
				 errcontext("%s", who)));
	if (s->word != 0 && s->key == key && SNAP_EXPIRY_US(s) > (uint64) uid_clock_unix_us())
		ereport(ERROR,
				(errcode(code),
				 errmsg("this server's lease of id %d in pool \"%s\", which ends at %s, could not be renewed",
						SNAP_ID(s), uid_pool, uid_us_text(SNAP_EXPIRY_US(s))),
				 errdetail("Renewing it failed: %s.", err),
				 errdetail_log("Renewing it failed: %s.", log),
				 errhint("Generation resumes once the server renews or claims a lease from the coordinator in \"uid.coordinator\"."),
				 errcontext("%s", who)));
	if (s->word != 0 && s->key == key)
		ereport(ERROR,
				(errcode(code),
				 errmsg("this server's lease of id %d in pool \"%s\" expired at %s",
						SNAP_ID(s), uid_pool, uid_us_text(SNAP_EXPIRY_US(s))),
				 errdetail("Renewing it failed: %s.", err),
				 errdetail_log("Renewing it failed: %s.", log),
				 errhint("Generation resumes once the server renews or claims a lease from the coordinator in \"uid.coordinator\"."),
				 errcontext("%s", who)));
	ereport(ERROR,
			(errcode(code),
			 errmsg("this server holds no lease in pool \"%s\"", uid_pool),
			 errdetail("Claiming one failed: %s.", err),
			 errdetail_log("Claiming one failed: %s.", log),
			 errhint("Generation resumes once the server claims a lease from the coordinator in \"uid.coordinator\"."),
			 errcontext("%s", who)));
}

/*
 * The settings a leased identity depends on must not have been refused, and
 * every session must load the library (UID_PRELOAD_UNCHECKED, set whenever
 * uid.coordinator is assigned: by each reload that sets it in a file).
 */
#define UID_IDENT_SETTINGS ((1u << UID_SET_COORDINATOR) | (1u << UID_SET_POOL) | \
							(1u << UID_SET_POOL_SIZE) | (1u << UID_SET_POOL_TTL) | \
							(1u << UID_SET_COORDINATOR_TIMEOUT) | UID_PRELOAD_UNCHECKED)

static void
uid_ident_check_settings(void)
{
	uid_coordinator_check();
	uid_check_setting(UID_SET_POOL);
	uid_check_setting(UID_SET_POOL_SIZE);
	uid_check_setting(UID_SET_POOL_TTL);
	uid_check_setting(UID_SET_COORDINATOR_TIMEOUT);
	if (uid_settings_refused & UID_PRELOAD_UNCHECKED)
	{
		uid_preload_check();
		uid_settings_refused &= ~UID_PRELOAD_UNCHECKED;
	}
}

/*
 * No lease covers a tick ending at end_us: renew or claim one, waiting for
 * another backend that is doing so.  Errors if that fails.
 */
static void
uid_ident_acquire(const UidClockSpec *spec, uint64 key, uint64 end_us)
{
	UidIdentState *st = &uid_state->ident;

	uid_ident_check_own_settings();
	for (;;)
	{
		UidIdentSnap s;
		uint64		stamp;
		char		sqlstate[6] = "";
		char	   *volatile err = NULL;

		if (uid_ident_begin(&stamp))
		{
			PG_TRY();
			{
				UidIdentSnap before;

				uid_ident_read(&before);
				if (!uid_ident_covers(&before, key, end_us))
				{
					if ((int64) pg_atomic_read_u64(&st->retry_at) > uid_clock_mono_us() &&
						uid_ident_skewed(&before, key))
					{
						/* measured beyond the bound a moment ago: raised below */
					}
					else if ((int64) pg_atomic_read_u64(&st->retry_at) > uid_clock_mono_us() &&
							 st->last_error[0] != '\0' && pg_atomic_read_u64(&st->last_key) == key)
					{
						/* it failed a moment ago: say so rather than wait again */
						err = psprintf("%s; the last attempt was less than a second ago", st->last_error);
						uid_ident_last_sqlstate(sqlstate);
					}
					else if ((err = uid_ident_talk(stamp, key, sqlstate)) != NULL)
						pg_atomic_write_u64(&st->retry_at,
											(uint64) (uid_clock_mono_us() + UID_IDENT_RETRY_EXPIRED_US));
				}
			}
			PG_FINALLY();
			{
				uid_ident_end(stamp);
			}
			PG_END_TRY();
			uid_ident_read(&s);
			if (err != NULL)
				uid_ident_refuse(psprintf("while generating an ID with %s", spec->func), &s, key, end_us,
								 err, sqlstate);
			if (uid_ident_skewed(&s, key))
				uid_ident_refuse_skew(psprintf("while generating an ID with %s", spec->func), &s);
			if (!uid_ident_covers(&s, key, end_us))
				ereport(ERROR,
						(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
						 errmsg("the IDs of %s would run past this server's lease in pool \"%s\", which ends at %s",
								spec->func, uid_pool, uid_us_text(SNAP_EXPIRY_US(&s))),
						 errdetail("IDs are dated ahead of the clock (borrowed after a clock step back, or a fence after a start) further than the lease runs."),
						 errhint("Raise \"uid.pool_ttl\".")));
			return;
		}

		/* another backend is talking to the coordinator: wait for it */
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH, 10,
						 uid_wait_UidCoordinator());
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
		uid_ident_read(&s);
		if (uid_ident_covers(&s, key, end_us))
			return;
	}
}

/*
 * The lease is in its second half: renew it now, unless another backend is
 * or an attempt failed a moment ago.  A failure is a warning: the lease
 * still runs.
 */
static bool
uid_ident_renew_early(const UidIdentSnap *seen, uint64 key)
{
	UidIdentState *st = &uid_state->ident;
	uint64		stamp;
	char		sqlstate[6];
	char	   *volatile err = NULL;

	/*
	 * A session whose own coordinator or pool is not the server's leaves
	 * the renewal to another: the lease still runs.
	 */
	if ((int64) pg_atomic_read_u64(&st->retry_at) > uid_clock_mono_us() ||
		!uid_ident_own_settings_ok() || !uid_ident_begin(&stamp))
		return false;
	PG_TRY();
	{
		UidIdentSnap s;

		uid_ident_read(&s);
		if (s.word == seen->word && s.key == key)
			err = uid_ident_talk(stamp, key, sqlstate);
	}
	PG_FINALLY();
	{
		uid_ident_end(stamp);
	}
	PG_END_TRY();

	if (err != NULL)
	{
		int64		left = (int64) SNAP_EXPIRY_US(seen) - uid_clock_unix_us();
		int64		pause = Min(Max(left / 8, UID_IDENT_RETRY_EXPIRED_US), UID_IDENT_RETRY_MAX_US);

		pg_atomic_write_u64(&st->retry_at, (uint64) (uid_clock_mono_us() + pause));
		ereport(WARNING,
				(errmsg("uid could not renew this server's lease of id %d in pool \"%s\", which expires at %s",
						SNAP_ID(seen), uid_pool, uid_us_text(SNAP_EXPIRY_US(seen))),
				 errdetail("Renewing it failed: %s.", err),
				 errdetail_log("Renewing it failed: %s.", uid_remote_log_text(err)),
				 errhint("IDs are made until it expires; renewal is tried again in %d s.",
						 (int) (pause / 1000000))));
	}
	return true;
}

int32
uid_ident_check(UidSlot *slot, const UidClockSpec *spec, bool unique, uint64 tick)
{
	uint64		key;
	UidIdentSnap s;

	if (unlikely(uid_settings_refused & UID_IDENT_SETTINGS))
		uid_ident_check_settings();
	key = likely(key_for == uid_ident_settings_changes && key_rec_for == uid_rec_word) ?
		key_cached : uid_ident_key();
	uid_ident_read_cached(&s);
	switch (uid_window_check(spec, tick, s.word != 0 && s.key == key && !s.skewed,
							 s.floor_us, SNAP_EXPIRY_US(&s), s.renew_at_us))
	{
		case UID_WINDOW_ISSUE:
			break;
		case UID_WINDOW_RENEW:
			/* look again after a renewal: it may have found the lease lost */
			if (uid_ident_renew_early(&s, key))
				return UID_IDENT_AGAIN;
			break;
		case UID_WINDOW_RAISE:
			/* the next ticks begin at or after the floor */
			uid_fence_marks(slot, spec, unique, uid_window_raise_to(spec, s.floor_us));
			return UID_IDENT_AGAIN;
		case UID_WINDOW_ACQUIRE:
			uid_ident_acquire(spec, key, uid_tick_end_us(spec, tick));
			return UID_IDENT_AGAIN;
	}
	return SNAP_ID(&s);
}

/*
 * uid_identity_renew(): renews this server's lease now, or claims one, and
 * returns it; raises what failed.  For a job that keeps the lease of a
 * server that makes no IDs for long stretches, and to check the way to the
 * coordinator.
 */
PG_FUNCTION_INFO_V1(uid_identity_renew);
Datum
uid_identity_renew(PG_FUNCTION_ARGS)
{
	TupleDesc	tupdesc;
	Datum		values[4];
	bool		nulls[4] = {0};
	UidIdentSnap s;
	uint64		key;
	uint64		stamp;
	char		sqlstate[6] = "";
	char	   *volatile err = NULL;

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	if (!uid_rec_leased())
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("\"uid.coordinator\" is not set: this server's identity comes from its settings")));
	if (RecoveryInProgress())
		ereport(ERROR,
				(errcode(ERRCODE_READ_ONLY_SQL_TRANSACTION),
				 errmsg("cannot execute uid_identity_renew() during recovery"),
				 errhint("A standby makes no IDs and holds no lease.")));
	uid_ident_check_settings();
	uid_preload_check();
	uid_ident_check_own_settings();
	if (uid_state == NULL)
		uid_state_attach();
	key = uid_ident_key();

	while (!uid_ident_begin(&stamp))
	{
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH, 10,
						 uid_wait_UidCoordinator());
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
	}
	PG_TRY();
	{
		err = uid_ident_talk(stamp, key, sqlstate);
	}
	PG_FINALLY();
	{
		uid_ident_end(stamp);
	}
	PG_END_TRY();
	uid_ident_read(&s);
	if (err != NULL)
		uid_ident_refuse("while renewing the lease with uid_identity_renew()", &s, key, 0, err, sqlstate);
	if (uid_ident_skewed(&s, key))
		uid_ident_refuse_skew("while renewing the lease with uid_identity_renew()", &s);

	values[0] = CStringGetTextDatum(uid_pool);
	values[1] = Int32GetDatum(SNAP_ID(&s));
	values[2] = Int64GetDatum((int64) s.token);
	values[3] = TimestampTzGetDatum((TimestampTz) SNAP_EXPIRY_US(&s) - PG_EPOCH_UNIX_US);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}
