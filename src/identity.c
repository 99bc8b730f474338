/*
 * identity.c
 *		A server's identity leased from a coordinator.
 *
 * Across servers, IDs stay apart by the identity each embeds: sno's
 * partition, snowflake_si's machine id, revts8's generator and cluster,
 * uid60's worker, muid's medallion.  Set by hand (uid.partition and the
 * rest), nothing notices two servers given the same.  With uid.coordinator
 * set, the server instead leases one id of a pool from a coordinator, a
 * database with this extension (uid_pool_claim() in pool.sql), and every
 * type's fields come from that id:
 *
 *	sno partition = id, snowflake_si machine id = id, uid60 worker = id,
 *	revts8 generator = id % 64 and cluster = id / 64, muid medallion = id.
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
 * So the grace period must cover the clock difference between holders (and
 * how far IDs run ahead of the clock, up to a lease of lease.c after a
 * start).  All of it is checked against the tick being issued, in the
 * allocator (clock.c calls uid_ident_cover), not against the wall clock.
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

#include <unistd.h>

#include "access/xlog.h"
#include "common/hashfn.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "postmaster/postmaster.h"
#include "storage/latch.h"
#include "utils/builtins.h"
#include "utils/guc_tables.h"
#include "utils/timestamp.h"

#include "clock.h"
#include "codec/revts8_codec.h"
#include "codec/snowflake_si_codec.h"
#include "codec/uid60_codec.h"
#include "glue.h"
#include "guc.h"
#include "remote.h"

#define ID_MASK ((UINT64CONST(1) << UID_IDENT_ID_BITS) - 1)

/* A conversation that lasted this much longer than its timeout died. */
#define UID_IDENT_STALE_EXTRA_US INT64CONST(5000000)

/* Pauses between failed attempts: expired (a generator waits), renewing early. */
#define UID_IDENT_RETRY_EXPIRED_US INT64CONST(1000000)
#define UID_IDENT_RETRY_MAX_US INT64CONST(60000000)

bool		uid_ident_leased = false;

static bool key_valid = false;
static uint64 key_cached;

/* The lease as one consistent reading. */
typedef struct UidIdentSnap
{
	uint64		word;
	uint64		floor_us;
	uint64		key;
	uint64		token;
	uint64		renew_at_us;
} UidIdentSnap;

#define SNAP_ID(s)			((int32) (((s)->word & ID_MASK) - 1))
#define SNAP_EXPIRY_US(s)	(((s)->word >> UID_IDENT_ID_BITS) * 1000)

/* The key's settings changed (their assign hooks, which run before the variables change). */
void
uid_ident_config_changed(void)
{
	key_valid = false;
}

static uint64
uid_hash_str(uint64 seed, const char *s)
{
	return uid_mix64(seed ^ hash_bytes_extended((const unsigned char *) s, (int) strlen(s), seed));
}

static char *
uid_host_name(void)
{
	static char host[256];

	if (host[0] == '\0' && gethostname(host, sizeof(host) - 1) != 0)
		strlcpy(host, "unknown-host", sizeof(host));
	return host;
}

/*
 * What a lease is for: where the coordinator is (not how we log in to it),
 * the pool and its size, and this server's system, timeline, state file and
 * host.  Never 0.
 */
static uint64
uid_ident_key(void)
{
	PQconninfoOption *opts;
	uint64		k;

	if (key_valid)
		return key_cached;
	k = uid_mix64(GetSystemIdentifier());
	k = uid_mix64(k ^ uid_state_file_id());
	k = uid_mix64(k ^ (uint64) GetWALInsertionTimeLine());
	k = uid_hash_str(k, uid_host_name());
	k = uid_hash_str(k, uid_pool);
	k = uid_mix64(k ^ (uint64) uid_pool_size);
	opts = PQconninfoParse(uid_coordinator, NULL);
	if (opts != NULL)
	{
		for (PQconninfoOption *o = opts; o->keyword != NULL; o++)
			if (o->val != NULL &&
				(strcmp(o->keyword, "host") == 0 || strcmp(o->keyword, "hostaddr") == 0 ||
				 strcmp(o->keyword, "port") == 0 || strcmp(o->keyword, "dbname") == 0))
				k = uid_hash_str(uid_hash_str(k, o->keyword), o->val);
		PQconninfoFree(opts);
	}
	key_cached = k | 1;
	key_valid = true;
	return key_cached;
}

/*
 * Reads the lease, and the gen it was read at (odd if none); a rewrite that
 * never finished reads as no lease.
 */
static void
uid_ident_read_at(UidIdentSnap *s, uint64 *at)
{
	UidIdentState *st = &uid_state->ident;

	for (int spins = 0; spins < 10000; spins++)
	{
		uint64		gen = pg_atomic_read_u64(&st->gen);

		if (likely((gen & 1) == 0))
		{
			pg_read_barrier();
			s->word = pg_atomic_read_u64(&st->word);
			s->floor_us = pg_atomic_read_u64(&st->floor_us);
			s->key = pg_atomic_read_u64(&st->key);
			s->token = pg_atomic_read_u64(&st->token);
			s->renew_at_us = pg_atomic_read_u64(&st->renew_at_us);
			pg_read_barrier();
			if (pg_atomic_read_u64(&st->gen) == gen)
			{
				*at = gen;
				return;
			}
		}
		pg_spin_delay();
	}
	memset(s, 0, sizeof(*s));
	*at = 1;
}

static void
uid_ident_read(UidIdentSnap *s)
{
	uint64		at;

	uid_ident_read_at(s, &at);
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

/* Rewrites the lease; by the backend that holds busy with stamp. */
static void
uid_ident_publish(uint64 stamp, const UidIdentSnap *s)
{
	UidIdentState *st = &uid_state->ident;
	uint64		gen = pg_atomic_read_u64(&st->gen);

	/* taken over meanwhile: the newer conversation's outcome stands */
	if (pg_atomic_read_u64(&st->busy) != stamp || (gen & 1) ||
		!pg_atomic_compare_exchange_u64(&st->gen, &gen, gen + 1))
		return;
	pg_atomic_write_u64(&st->word, s->word);
	pg_atomic_write_u64(&st->floor_us, s->floor_us);
	pg_atomic_write_u64(&st->key, s->key);
	pg_atomic_write_u64(&st->token, s->token);
	pg_atomic_write_u64(&st->renew_at_us, s->renew_at_us);
	pg_write_barrier();
	pg_atomic_write_u64(&st->gen, gen + 2);
}

/* Keeps what the last conversation for key failed with, and its SQLSTATE. */
static void
uid_ident_set_error(uint64 key, const char *err, const char *sqlstate)
{
	UidIdentState *st = &uid_state->ident;
	uint64		packed = 0;

	strlcpy(st->last_error, err ? err : "", sizeof(st->last_error));
	for (int i = 0; err && i < 5 && sqlstate[i] != '\0'; i++)
		packed |= (uint64) (unsigned char) sqlstate[i] << (8 * i);
	pg_atomic_write_u64(&st->last_sqlstate, packed);
	pg_atomic_write_u64(&st->last_key, key);
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

/* The lease as published for id, token, floor, renewing from t0 (Unix us). */
static void
uid_ident_make(UidIdentSnap *s, uint64 key, int32 id, uint64 token, uint64 floor_us, uint64 t0)
{
	uint64		ttl = (uint64) uid_pool_ttl_s * 1000000;

	s->key = key;
	s->token = token;
	s->floor_us = floor_us;
	s->renew_at_us = t0 + ttl / 2;
	s->word = (t0 + ttl) / 1000 << UID_IDENT_ID_BITS | (uint64) (id + 1);
}

static char *
uid_ident_holder(void)
{
	return psprintf("%s:%d system " UINT64_FORMAT, uid_host_name(), PostPortNumber,
					GetSystemIdentifier());
}

/*
 * One conversation with the coordinator, holding busy: renews the lease if
 * there is one for key, else (or if the coordinator says it is no longer
 * ours) claims one, and publishes the outcome.  Returns NULL, or what failed
 * with the coordinator's SQLSTATE in sqlstate (empty if it did not answer).
 */
static char *
uid_ident_talk(uint64 stamp, uint64 key, char *sqlstate)
{
	UidRemote	r = {0};
	char	   *volatile err = NULL;
	UidIdentSnap s;
	uint64		t0 = (uint64) uid_clock_unix_us();
	char		ttl[32];
	char		size[16];

	snprintf(ttl, sizeof(ttl), "%d s", uid_pool_ttl_s);
	snprintf(size, sizeof(size), "%d", uid_pool_size);
	sqlstate[0] = '\0';
	uid_ident_read(&s);

	PG_TRY();
	{
		PGresult   *res = NULL;
		char	   *schema = NULL;
		bool		held = false;

		err = uid_remote_connect(&r, uid_coordinator, uid_coordinator_timeout_ms);
		if (err == NULL)
			err = uid_remote_query(&r,
								   "SELECT pg_catalog.quote_ident(n.nspname) FROM pg_catalog.pg_extension e "
								   "JOIN pg_catalog.pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'uid'",
								   0, NULL, &res, sqlstate);
		if (err == NULL)
		{
			if (PQntuples(res) == 1)
				schema = pstrdup(PQgetvalue(res, 0, 0));
			else
				err = pstrdup("the coordinator's database has no extension uid");
			PQclear(res);
		}

		if (err == NULL && s.word != 0 && s.key == key)
		{
			char		id[16];
			char		token[32];
			const char *params[4] = {uid_pool, id, token, ttl};

			snprintf(id, sizeof(id), "%d", SNAP_ID(&s));
			snprintf(token, sizeof(token), UINT64_FORMAT, s.token);
			err = uid_remote_query(&r, psprintf("SELECT %s.uid_pool_renew($1, $2::integer, $3::bigint, $4::interval)", schema),
								   4, params, &res, sqlstate);
			if (err == NULL)
			{
				PQclear(res);
				held = true;
				uid_ident_make(&s, key, SNAP_ID(&s), s.token, s.floor_us, t0);
				uid_ident_publish(stamp, &s);
			}
			else if (strcmp(sqlstate, "55000") == 0)
			{
				/* handed to another holder, or released: not ours from now on */
				ereport(WARNING,
						(errmsg("uid's lease of id %d in pool \"%s\" is no longer held; claiming another",
								SNAP_ID(&s), uid_pool),
						 errdetail("%s", err)));
				memset(&s, 0, sizeof(s));
				uid_ident_publish(stamp, &s);
				err = NULL;
			}
		}

		if (err == NULL && !held)
		{
			char	   *holder = uid_ident_holder();
			const char *params[4] = {uid_pool, size, holder, ttl};

			err = uid_remote_query(&r, psprintf("SELECT id, token FROM %s.uid_pool_claim($1, $2::integer, $3, $4::interval)", schema),
								   4, params, &res, sqlstate);
			if (err == NULL && (PQntuples(res) != 1 || PQnfields(res) != 2))
			{
				err = pstrdup("the coordinator's uid_pool_claim() returned no lease");
				PQclear(res);
			}
			else if (err == NULL)
			{
				int32		id = pg_strtoint32(PQgetvalue(res, 0, 0));
				uint64		token = (uint64) pg_strtoint64(PQgetvalue(res, 0, 1));

				PQclear(res);
				if (id < 0 || id >= uid_pool_size)
					err = psprintf("the coordinator handed out id %d, outside pool \"%s\" of size %d",
								   id, uid_pool, uid_pool_size);
				else
				{
					/* IDs under this lease begin after the claim returned */
					uid_ident_make(&s, key, id, token, (uint64) uid_clock_unix_us(), t0);
					uid_ident_publish(stamp, &s);
				}
			}
		}
	}
	PG_FINALLY();
	{
		uid_remote_close(&r);
	}
	PG_END_TRY();

	uid_ident_set_error(key, err, sqlstate);
	return err;
}

/* Does the lease cover ticks ending at end_us, for key? */
static inline bool
uid_ident_covers(const UidIdentSnap *s, uint64 key, uint64 end_us)
{
	return s->word != 0 && s->key == key && end_us <= SNAP_EXPIRY_US(s);
}

static const char *
uid_us_text(uint64 us)
{
	return timestamptz_to_str((TimestampTz) us - PG_EPOCH_UNIX_US);
}

/*
 * Raises what failed: who (a generator: "sno_new() cannot generate"), with
 * the coordinator's SQLSTATE if it answered.
 */
UID_NORETURN static void
uid_ident_refuse(const char *who, const UidIdentSnap *s, uint64 key,
				 const char *err, const char *sqlstate) UID_NORETURN_AFTER;

static void
uid_ident_refuse(const char *who, const UidIdentSnap *s, uint64 key,
				 const char *err, const char *sqlstate)
{
	int			code = ERRCODE_CONNECTION_FAILURE;

	if (sqlstate != NULL && strlen(sqlstate) == 5)
		code = MAKE_SQLSTATE(sqlstate[0], sqlstate[1], sqlstate[2], sqlstate[3], sqlstate[4]);
	if (s->word != 0 && s->key == key)
		ereport(ERROR,
				(errcode(code),
				 errmsg("%s: this server's lease of id %d in pool \"%s\" expired at %s",
						who, SNAP_ID(s), uid_pool, uid_us_text(SNAP_EXPIRY_US(s))),
				 errdetail("Renewing it failed: %s", err),
				 errhint("The server takes its identity from the coordinator in uid.coordinator; generation resumes once it renews or claims a lease.")));
	ereport(ERROR,
			(errcode(code),
			 errmsg("%s: this server holds no lease in pool \"%s\"", who, uid_pool),
			 errdetail("Claiming one failed: %s", err),
			 errhint("The server takes its identity from the coordinator in uid.coordinator; generation resumes once it claims a lease.")));
}

/* The settings a leased identity depends on must not have been refused. */
#define UID_IDENT_SETTINGS ((1u << UID_SET_COORDINATOR) | (1u << UID_SET_POOL) | \
							(1u << UID_SET_POOL_SIZE) | (1u << UID_SET_POOL_TTL) | \
							(1u << UID_SET_COORDINATOR_TIMEOUT))

static void
uid_ident_check_settings(void)
{
	uid_check_setting(UID_SET_COORDINATOR);
	uid_check_setting(UID_SET_POOL);
	uid_check_setting(UID_SET_POOL_SIZE);
	uid_check_setting(UID_SET_POOL_TTL);
	uid_check_setting(UID_SET_COORDINATOR_TIMEOUT);
}

/*
 * No lease covers a tick ending at end_us: renew or claim one, waiting for
 * another backend that is doing so.  Errors if that fails.
 */
static void
uid_ident_acquire(const UidClockSpec *spec, uint64 key, uint64 end_us)
{
	UidIdentState *st = &uid_state->ident;

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
						st->last_error[0] != '\0' && pg_atomic_read_u64(&st->last_key) == key)
					{
						/* it failed a moment ago: say so rather than wait again */
						err = psprintf("%s (%s)", st->last_error, "the last attempt, less than a second ago");
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
				uid_ident_refuse(psprintf("%s cannot generate", spec->func), &s, key, err, sqlstate);
			if (!uid_ident_covers(&s, key, end_us))
				ereport(ERROR,
						(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
						 errmsg("%s cannot generate: its IDs run past this server's lease in pool \"%s\", which ends at %s",
								spec->func, uid_pool, uid_us_text(SNAP_EXPIRY_US(&s))),
						 errdetail("IDs are dated ahead of the clock (borrowed after a clock step back, or a fence after a start) further than the lease runs."),
						 errhint("Raise uid.pool_ttl.")));
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

	if ((int64) pg_atomic_read_u64(&st->retry_at) > uid_clock_mono_us() ||
		!uid_ident_begin(&stamp))
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
				 errdetail("%s", err),
				 errhint("IDs are made until it expires; renewal is tried again in %d s.",
						 (int) (pause / 1000000))));
	}
	return true;
}

int32
uid_ident_check(UidSlot *slot, const UidClockSpec *spec, bool unique, uint64 tick)
{
	uint64		end = uid_tick_end_us(spec, tick);
	uint64		start = end - (uint64) spec->tick_us;
	uint64		key;
	UidIdentSnap s;

	if (unlikely(uid_settings_refused & UID_IDENT_SETTINGS))
		uid_ident_check_settings();
	key = likely(key_valid) ? key_cached : uid_ident_key();
	uid_ident_read_cached(&s);
	if (likely(uid_ident_covers(&s, key, end)))
	{
		if (unlikely(start < s.floor_us))
		{
			/* the next ticks begin at or after the floor */
			uid_fence_marks(slot, spec, unique, s.floor_us + (uint64) spec->tick_us - 1);
			return UID_IDENT_AGAIN;
		}
		/* look again after a renewal: it may have found the lease lost */
		if (unlikely(end > s.renew_at_us) && uid_ident_renew_early(&s, key))
			return UID_IDENT_AGAIN;
		return SNAP_ID(&s);
	}
	uid_ident_acquire(spec, key, end);
	return UID_IDENT_AGAIN;
}

uint32
uid_ident_value(int32 ident, const char *typname, const char *field, uint32 max)
{
	if ((uint32) ident > max)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("lease id %d of pool \"%s\" does not fit the %s %s (0..%u)",
						ident, uid_pool, typname, field, max),
				 errhint("Servers that make %s IDs need a pool of at most %u ids (uid.pool_size).",
						 typname, max + 1)));
	return (uint32) ident;
}

/*
 * uid_identity(): what each type embeds on this server now, where it comes
 * from, and whether that keeps several servers apart.
 */
typedef struct UidIdentRow
{
	const char *type;
	const char *field;
	const char *setting;		/* the hand setting */
	uint64		max;			/* the largest value the field holds */
	int			shift;			/* of the lease id: revts8's cluster */
	uint32		mask;			/* of the lease id: revts8's generator */
} UidIdentRow;

PG_FUNCTION_INFO_V1(uid_identity);
Datum
uid_identity(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	int			k = uid_snowflake_si_index_bits;
	const UidIdentRow rows[] = {
		{"sno", "partition", "uid.partition", 65535, 0, 0xFFFF},
		{"muid", "medallion", "uid.medallion", (UINT64CONST(1) << 44) - 2, 0, 0xFFFF},
		{"snowflake_si", "machine id", "uid.generator", snowflake_si_mid_max(k), 0, 0xFFFF},
		{"revts8", "generator", "uid.generator", REVTS8_GENERATOR_MAX, 0, REVTS8_GENERATOR_MAX},
		{"revts8", "cluster", "uid.cluster", REVTS8_CLUSTER_MAX, 6 /* log2(generators) */ , 0xFFFF},
		{"uid60", "worker", "uid.generator", UID60_WORKER_MAX, 0, 0xFFFF},
	};
	UidIdentSnap s = {0};
	bool		standby = RecoveryInProgress();
	bool		ours = false;
	bool		live = false;

	InitMaterializedSRF(fcinfo, 0);
	if (uid_ident_leased)
	{
		if (uid_state == NULL)
			uid_state_attach();
		uid_ident_read(&s);
		ours = !standby && s.word != 0 && s.key == uid_ident_key();
		live = ours && SNAP_EXPIRY_US(&s) > (uint64) uid_clock_unix_us();
	}

	for (size_t i = 0; i < lengthof(rows); i++)
	{
		const UidIdentRow *r = &rows[i];
		Datum		values[9];
		bool		nulls[9] = {0};
		int64		value = -1;
		const char *source;
		bool		safe;
		char	   *note;

		if (uid_ident_leased)
		{
			int32		id = ours ? SNAP_ID(&s) : -1;
			/* revts8's generator and cluster share the id's 10 bits */
			uint32		fits = strcmp(r->type, "revts8") == 0 ?
				(REVTS8_CLUSTER_MAX + 1) * (REVTS8_GENERATOR_MAX + 1) - 1 : (uint32) Min(r->max, 65535);

			source = "lease";
			values[4] = CStringGetTextDatum(uid_pool);
			nulls[5] = nulls[6] = !ours;
			values[5] = Int32GetDatum(id);
			values[6] = TimestampTzGetDatum((TimestampTz) SNAP_EXPIRY_US(&s) - PG_EPOCH_UNIX_US);
			if (ours && (uint32) id <= fits)
				value = (int64) (((uint32) id >> r->shift) & r->mask);
			safe = live && value >= 0;
			if (standby)
				note = pstrdup("a standby generates nothing");
			else if (!ours)
				note = pstrdup("no lease yet: the next ID claims one from the coordinator");
			else if (value < 0)
				note = psprintf("lease id %d does not fit (0..%u): %s refuses to generate", id, fits, r->type);
			else if (!live)
				note = pstrdup("the lease has expired: the next ID renews it or claims another");
			else
				note = pstrdup("leased from the coordinator");
		}
		else
		{
			struct config_generic *g = uid_find_setting(r->setting);
			bool		set = g != NULL && g->source != PGC_S_DEFAULT;

			nulls[4] = nulls[5] = nulls[6] = true;
			if (strcmp(r->setting, "uid.partition") == 0 && uid_partition < 0)
			{
				source = "drawn";
				value = uid_effective_partition();
				note = pstrdup("drawn at server start: two servers collide with probability 1/65536");
			}
			else if (strcmp(r->setting, "uid.medallion") == 0 && uid_medallion_value < 0)
			{
				source = "drawn";
				value = uid_effective_medallion();
				note = pstrdup("drawn at server start: two servers collide with probability 1/2^40");
			}
			else
			{
				int64		v = strcmp(r->setting, "uid.medallion") == 0 ? uid_medallion_value :
					strcmp(r->setting, "uid.partition") == 0 ? uid_partition :
					strcmp(r->setting, "uid.cluster") == 0 ? uid_cluster : uid_generator;

				source = set ? "setting" : "default";
				value = (uint64) v <= r->max ? v : -1;
				note = value < 0 ? psprintf("%s = " INT64_FORMAT " does not fit (0.." UINT64_FORMAT "): %s refuses to generate",
											r->setting, v, r->max, r->type) :
					set ? psprintf("%s: keeps servers apart if each has its own", r->setting) :
					psprintf("%s is not set: every server that leaves it has " INT64_FORMAT, r->setting, v);
			}
			safe = strcmp(source, "setting") == 0 && value >= 0;
		}
		values[0] = CStringGetTextDatum(r->type);
		values[1] = CStringGetTextDatum(r->field);
		values[2] = Int64GetDatum(value);
		nulls[2] = value < 0;
		values[3] = CStringGetTextDatum(source);
		values[7] = BoolGetDatum(safe);
		values[8] = CStringGetTextDatum(note);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
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
	if (!uid_ident_leased)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("uid.coordinator is not set: this server's identity comes from its settings")));
	if (RecoveryInProgress())
		ereport(ERROR,
				(errcode(ERRCODE_READ_ONLY_SQL_TRANSACTION),
				 errmsg("cannot execute uid_identity_renew() during recovery"),
				 errhint("A standby makes no IDs and holds no lease.")));
	uid_ident_check_settings();
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
		uid_ident_refuse("uid_identity_renew() failed", &s, key, err, sqlstate);

	values[0] = CStringGetTextDatum(uid_pool);
	values[1] = Int32GetDatum(SNAP_ID(&s));
	values[2] = Int64GetDatum((int64) s.token);
	values[3] = TimestampTzGetDatum((TimestampTz) SNAP_EXPIRY_US(&s) - PG_EPOCH_UNIX_US);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}
