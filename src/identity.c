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
 * Both are checked against the tick being issued, in the allocator
 * (generate.c calls uid_ident_cover), not against the wall clock: IDs dated
 * ahead of the clock (borrowed, or a fence after a start) never pass the
 * expiry, so only the clocks matter.
 *
 * The clocks (uid_ident_measure).  Let c be the coordinator's clock reading
 * that decided a claim or renewal (its expiry less the TTL), t0 and t1 the
 * holder's clock read just before it asked and just after the answer came,
 * G the coordinator's grace and E the first holder's expiry there.  The
 * first holder's IDs end before E + (t0 - c), from its last renewal (or
 * claim); the next holder's begin at or after its floor, t1 of its claim,
 * which is c' + (t1 - c') >= E + G + (t1 - c').  They are apart if
 * t0 - c <= G/2 and c' - t1 <= G/2.  Since c was read after t0 and before
 * t1 in real time, t0 - c and t1 - c bound the holder's clock minus the
 * coordinator's then: NTP's offset, the midpoint, give or take half the
 * round trip.  Every claim and renewal measures them, and a lease whose
 * offset is surely beyond the bound G/2 (t0 - c > G/2: ahead, c - t1 > G/2:
 * behind) is kept, so that the id stays this server's, but never used:
 * generators refuse, naming the offset and the bound, and measure again at
 * most once a second.  The first renewal found within the bound raises the
 * floor to its t1, a reading within the bound.  The uncertainty needs no
 * margin of its own: the expiry is counted from t0 and the floor is t1,
 * the ends of the interval.  So with G = 0 a holder generates only while
 * the coordinator's reading falls between its own two (in practice, on the
 * coordinator's host).  A measurement past half the bound warns.  The bound
 * is the grace when measured: lowered while leases run, the next claims
 * keep less apart than those leases were measured for (the README says
 * how to lower it).
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
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "postmaster/postmaster.h"
#include "storage/latch.h"
#include "utils/builtins.h"
#include "utils/guc_tables.h"
#include "utils/timestamp.h"

#include "clock.h"
#include "identity.h"
#include "published.h"
#include "core/window.h"
#include "codec/revts8_codec.h"
#include "codec/snowflake_si_codec.h"
#include "codec/uid60_codec.h"
#include "type_support.h"
#include "guc.h"
#include "source.h"
#include "remote.h"
#include "sql_api.h"

#define ID_MASK ((UINT64CONST(1) << UID_IDENT_ID_BITS) - 1)

/* A conversation that lasted this much longer than its timeout died. */
#define UID_IDENT_STALE_EXTRA_US INT64CONST(5000000)

/* Pauses between failed attempts: expired (a generator waits), renewing early. */
#define UID_IDENT_RETRY_EXPIRED_US INT64CONST(1000000)
#define UID_IDENT_RETRY_MAX_US INT64CONST(60000000)


/* uid_ident_settings_changes when key_cached was worked out (UINT64_MAX: never) */
static uint64 key_for = UINT64_MAX;
static uint64 key_cached;

/* The lease as one consistent reading. */
typedef struct UidIdentSnap
{
	uint64		word;
	uint64		floor_us;
	uint64		key;
	uint64		token;
	uint64		renew_at_us;
	/* the clock measured with the lease's last claim or renewal */
	int64		offset_lo_us;
	int64		offset_hi_us;
	uint64		bound_us;
	uint64		measured_us;	/* 0: not measured */
	uint64		measured_by;	/* UID_MEASURED_BY_CLAIM or _RENEWAL */
	bool		skewed;			/* measured further off than the bound */
} UidIdentSnap;

#define UID_MEASURED_BY_CLAIM	1
#define UID_MEASURED_BY_RENEWAL	2

#define SNAP_ID(s)			((int32) (((s)->word & ID_MASK) - 1))
#define SNAP_EXPIRY_US(s)	(((s)->word >> UID_IDENT_ID_BITS) * 1000)

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
/* uid_rec_word when key_cached was worked out */
static uint64 key_rec_for = UINT64_MAX;

static uint64
uid_ident_key(void)
{
	uint64		k;

	if (key_for == uid_ident_settings_changes && key_rec_for == uid_rec_word)
		return key_cached;
	k = uid_mix64(GetSystemIdentifier());
	k = uid_mix64(k ^ uid_state_file_id());
	k = uid_mix64(k ^ (uint64) GetWALInsertionTimeLine());
	k = uid_hash_str(k, uid_host_name());
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
 * How far this server's clock is surely off the coordinator's, by the
 * lease's last measurement (uid_ident_measure): the smallest |offset| that
 * the measured interval allows, 0 if it holds 0 or nothing was measured.
 */
static inline int64
uid_ident_skew_us(const UidIdentSnap *s)
{
	UidClockOffset o = {s->offset_lo_us, s->offset_hi_us, s->bound_us};

	if (s->measured_us == 0)
		return 0;
	return uid_window_skew_us(&o);
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
			s->offset_lo_us = (int64) pg_atomic_read_u64(&st->offset_lo_us);
			s->offset_hi_us = (int64) pg_atomic_read_u64(&st->offset_hi_us);
			s->bound_us = pg_atomic_read_u64(&st->bound_us);
			s->measured_us = pg_atomic_read_u64(&st->measured_us);
			s->measured_by = pg_atomic_read_u64(&st->measured_by);
			pg_read_barrier();
			if (pg_atomic_read_u64(&st->gen) == gen)
			{
				s->skewed = uid_ident_skew_us(s) > (int64) s->bound_us;
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
	pg_atomic_write_u64(&st->offset_lo_us, (uint64) s->offset_lo_us);
	pg_atomic_write_u64(&st->offset_hi_us, (uint64) s->offset_hi_us);
	pg_atomic_write_u64(&st->bound_us, s->bound_us);
	pg_atomic_write_u64(&st->measured_us, s->measured_us);
	pg_atomic_write_u64(&st->measured_by, s->measured_by);
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
	s->word = uid_window_expiry((int64) t0, (int64) ttl) / 1000 << UID_IDENT_ID_BITS | (uint64) (id + 1);
}

/*
 * Microseconds since the Unix epoch from the coordinator's text of
 * extract(epoch FROM ...): numeric ("1712345678.123456") from PostgreSQL
 * 14 on, float8 before; rounded to the microsecond.
 */
static bool
uid_parse_epoch_us(const char *txt, int64 *us)
{
	const char *p = txt;
	bool		neg = false;
	int64		whole = 0;
	int64		frac = 0;
	int			ndigits = 0;
	int			nfrac = 0;
	bool		up = false;

	if (*p == '-')
	{
		neg = true;
		p++;
	}
	for (; *p >= '0' && *p <= '9'; p++, ndigits++)
	{
		/* past every timestamptz and interval uid asks for */
		if (whole > INT64CONST(9000000000000))
			return false;
		whole = whole * 10 + (*p - '0');
	}
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9'; p++, nfrac++)
		{
			if (nfrac < 6)
				frac = frac * 10 + (*p - '0');
			else if (nfrac == 6)
				up = *p >= '5';
		}
	if (ndigits == 0 || *p != '\0')
		return false;
	for (; nfrac < 6; nfrac++)
		frac *= 10;
	*us = whole * 1000000 + frac + (up ? 1 : 0);
	if (neg)
		*us = -*us;
	return true;
}

/*
 * Stores in s the clock measured by a claim or renewal (by), for
 * uid_ident_talk.  t0 and t1 are this server's clock read just before the
 * query and just after its answer; expiry_us the expiry the coordinator
 * set (its clock reading c that decided, plus the TTL), grace_us its
 * uid.pool_grace.  The coordinator read c after t0 and before t1 in real
 * time, so this clock minus the coordinator's lay in [t0 - c, t1 - c]:
 * NTP's offset (the midpoint) give or take half the round trip.  Those two
 * ends are also what uniqueness needs (see the top of this file): t0 is
 * where this server's lease ends less the TTL, so t0 - c is how far its
 * IDs may run past the coordinator's expiry; t1 is the floor of a claim,
 * so c - t1 is how far its first IDs may come before the coordinator
 * handed the id over.  The lease is skewed when either is more than half
 * the grace, the bound: the offset is then surely beyond it.
 */
static void
uid_ident_measure(UidIdentSnap *s, uint64 by, int64 t0, int64 t1, int64 expiry_us,
				  int64 grace_us)
{
	UidClockOffset o = uid_window_measure(t0, t1, expiry_us, (int64) uid_pool_ttl_s * 1000000,
										  grace_us);

	s->offset_lo_us = o.lo_us;
	s->offset_hi_us = o.hi_us;
	s->bound_us = o.bound_us;
	s->measured_us = (uint64) Max(t1, 1);
	s->measured_by = by;
	s->skewed = uid_window_skewed(&o);
}

/* Microseconds as seconds with three decimals, unsigned. */
static char *
uid_secs_text(int64 us)
{
	uint64		ms = ((uint64) (us < 0 ? -us : us) + 500) / 1000;

	return psprintf(UINT64_FORMAT ".%03d", ms / 1000, (int) (ms % 1000));
}

/* The measured offset (the midpoint), its uncertainty and the bound, as text. */
typedef struct UidSkewText
{
	char	   *offset;			/* seconds, unsigned */
	const char *side;			/* "ahead of" or "behind" */
	char	   *within;			/* half the interval */
	char	   *least;			/* the smallest |offset| it allows, cut to
								 * the millisecond (never shown above the
								 * bound when within it) */
	char	   *bound;
	char	   *grace;
	const char *how;			/* "claiming" or "renewing" */
} UidSkewText;

static void
uid_skew_text(const UidIdentSnap *s, UidSkewText *t)
{
	int64		mid = s->offset_lo_us + (s->offset_hi_us - s->offset_lo_us) / 2;

	t->offset = uid_secs_text(mid);
	t->side = mid < 0 ? "behind" : "ahead of";
	t->within = uid_secs_text((s->offset_hi_us - s->offset_lo_us + 1) / 2);
	t->least = uid_secs_text(uid_ident_skew_us(s) / 1000 * 1000);
	t->bound = uid_secs_text((int64) s->bound_us);
	t->grace = uid_secs_text((int64) s->bound_us * 2);
	t->how = s->measured_by == UID_MEASURED_BY_CLAIM ? "claiming" : "renewing";
}

static const char *const uid_skew_hint =
"Set this server's clock right, or the coordinator's if it is the one that is wrong; see doc/several-servers.md.";

/*
 * Raises the refusal of a lease measured further off than the bound; who
 * is the context ("while generating an ID with sno_new()").
 */
UID_NORETURN static void
uid_ident_refuse_skew(const char *who, const UidIdentSnap *s) UID_NORETURN_AFTER;

static void
uid_ident_refuse_skew(const char *who, const UidIdentSnap *s)
{
	UidSkewText t;

	uid_skew_text(s, &t);
	ereport(ERROR,
			(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
			 errmsg("this server's clock is %s s %s the coordinator's", t.offset, t.side),
			 errdetail("Measured when %s id %d of pool \"%s\", to within %s s (at least %s s). "
					   "Two holders of one id stay apart only while each server's clock is within %s s of the coordinator's (half its \"uid.pool_grace\" of %s s). "
					   "The server measures again, at most once a second, when IDs are asked for, and generates once its clock is within the bound.",
					   t.how, SNAP_ID(s), uid_pool, t.within, t.least, t.bound, t.grace),
			 errhint("%s", uid_skew_hint),
			 errcontext("%s", who)));
}

/* A lease measured past half the bound but within it: a warning. */
static void
uid_ident_warn_skew(const UidIdentSnap *s)
{
	UidSkewText t;
	int64		skew = uid_ident_skew_us(s);

	if (s->skewed || skew == 0 || skew * 2 < (int64) s->bound_us)
		return;
	uid_skew_text(s, &t);
	ereport(WARNING,
			(errmsg("this server's clock is %s s %s the coordinator's, past half the bound of %s s",
					t.offset, t.side, t.bound),
			 errdetail("Measured when %s id %d of pool \"%s\", to within %s s (at least %s s). "
					   "Surely further off than the bound (half the coordinator's \"uid.pool_grace\" of %s s), the server stops generating under its lease.",
					   t.how, SNAP_ID(s), uid_pool, t.within, t.least, t.grace),
			 errhint("%s", uid_skew_hint)));
}

static char *
uid_ident_holder(void)
{
	return psprintf("%s:%d system " UINT64_FORMAT, uid_host_name(), PostPortNumber,
					GetSystemIdentifier());
}

/*
 * The coordinator's expiry and grace from columns col and col + 1 of a
 * claim's or a renewal's answer (extract(epoch ...)), in microseconds.
 */
static char *
uid_ident_answer(PGresult *res, int col, int64 *expiry_us, int64 *grace_us)
{
	if (PQntuples(res) != 1 || PQnfields(res) != col + 2 ||
		PQgetisnull(res, 0, col) || PQgetisnull(res, 0, col + 1))
		return pstrdup("the coordinator's answer has no expiry or no grace period");
	if (!uid_parse_epoch_us(PQgetvalue(res, 0, col), expiry_us))
		return psprintf("the coordinator's answer has an expiry uid cannot read: \"%s\"",
						PQgetvalue(res, 0, col));
	if (!uid_parse_epoch_us(PQgetvalue(res, 0, col + 1), grace_us))
		return psprintf("the coordinator's answer has a grace period uid cannot read: \"%s\"",
						PQgetvalue(res, 0, col + 1));
	return NULL;
}

/*
 * One conversation with the coordinator, holding busy: renews the lease if
 * there is one for key, else (or if the coordinator says it is no longer
 * ours) claims one, and publishes the outcome with the clock measured by
 * it (uid_ident_measure).  Returns NULL, or what failed with the
 * coordinator's SQLSTATE in sqlstate (empty if it did not answer).  NULL
 * with a skewed lease published is a refusal the caller raises
 * (uid_ident_refuse_skew).
 */
static char *
uid_ident_talk(uint64 stamp, uint64 key, char *sqlstate)
{
	UidRemote	r = {0};
	char	   *volatile err = NULL;
	UidIdentSnap s;
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
		const char *call = "";	/* the first argument of its twins */
		bool		held = false;

		err = uid_remote_connect(&r, uid_coordinator, uid_coordinator_timeout_ms);
		if (err == NULL)
			err = uid_remote_query(&r,
								   "SELECT pg_catalog.quote_ident(n.nspname), "
								   "pg_catalog.to_regtype(pg_catalog.quote_ident(n.nspname) || '.uid_internal_call') IS NOT NULL "
								   "FROM pg_catalog.pg_extension e "
								   "JOIN pg_catalog.pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'uid'",
								   0, NULL, &res, sqlstate);
		if (err == NULL)
		{
			/*
			 * A coordinator of 0.7.0 or later has the pool functions' twins
			 * that take uid_internal_call first (pool_functions.sql): calls
			 * of those no overload in its schema can take over.  An older
			 * one has the documented functions alone.
			 */
			if (PQntuples(res) == 1)
			{
				schema = pstrdup(PQgetvalue(res, 0, 0));
				if (strcmp(PQgetvalue(res, 0, 1), "t") == 0)
					call = psprintf("true::%s.uid_internal_call", schema);
			}
			else
				err = pstrdup("the coordinator's database has no extension uid");
			PQclear(res);
		}

		if (err == NULL && s.word != 0 && s.key == key)
		{
			char		id[16];
			char		token[32];
			const char *params[4] = {uid_pool, id, token, ttl};
			int64		t0;
			int64		t1;
			int64		expiry_us;
			int64		grace_us;

			snprintf(id, sizeof(id), "%d", SNAP_ID(&s));
			snprintf(token, sizeof(token), UINT64_FORMAT, s.token);
			/* the coordinator's expiry and grace measure this server's clock */
			t0 = uid_clock_unix_us();
			err = uid_remote_query(&r, psprintf("SELECT EXTRACT(epoch FROM r.expires_at), "
												"EXTRACT(epoch FROM %s.uid_pool_grace(%s)) "
												"FROM %s.uid_pool_renew(%s%s$1::text, $2::integer, $3::bigint, $4::interval) AS r(expires_at)",
												schema, call, schema, call, *call ? ", " : ""),
								   4, params, &res, sqlstate);
			t1 = uid_clock_unix_us();
			if (err == NULL)
			{
				err = uid_ident_answer(res, 0, &expiry_us, &grace_us);
				PQclear(res);
			}
			if (err == NULL)
			{
				bool		was_skewed = s.skewed;

				held = true;
				uid_ident_make(&s, key, SNAP_ID(&s), s.token, s.floor_us, (uint64) t0);
				uid_ident_measure(&s, UID_MEASURED_BY_RENEWAL, t0, t1, expiry_us, grace_us);

				/*
				 * The first measurement within the bound after one beyond it
				 * (perhaps the claim's, which set the floor) raises the floor
				 * to its own reading, one made within the bound.
				 */
				if (was_skewed && !s.skewed)
					s.floor_us = Max(s.floor_us, (uint64) t1);
				uid_ident_publish(stamp, &s);
			}
			else if (strcmp(sqlstate, "55000") == 0)
			{
				/* handed to another holder, or released: not ours from now on */
				ereport(WARNING,
						(errmsg("uid's lease of id %d in pool \"%s\" is no longer held; claiming another",
								SNAP_ID(&s), uid_pool),
						 errdetail("%s", err),
						 errdetail_log("%s", uid_remote_log_text(err))));
				memset(&s, 0, sizeof(s));
				uid_ident_publish(stamp, &s);
				err = NULL;
			}
		}

		if (err == NULL && !held)
		{
			char	   *holder = uid_ident_holder();
			const char *params[4] = {uid_pool, size, holder, ttl};
			int64		t0;
			int64		t1;

			t0 = uid_clock_unix_us();
			err = uid_remote_query(&r, psprintf("SELECT c.id, c.token, EXTRACT(epoch FROM c.expires_at), "
												"EXTRACT(epoch FROM %s.uid_pool_grace(%s)) "
												"FROM %s.uid_pool_claim(%s%s$1::text, $2::integer, $3::text, $4::interval) AS c",
												schema, call, schema, call, *call ? ", " : ""),
								   4, params, &res, sqlstate);
			t1 = uid_clock_unix_us();
			if (err == NULL && (PQntuples(res) != 1 || PQnfields(res) != 4))
			{
				err = pstrdup("the coordinator's uid_pool_claim() returned no lease");
				PQclear(res);
			}
			else if (err == NULL)
			{
				int32		id = pg_strtoint32(PQgetvalue(res, 0, 0));
				uint64		token = (uint64) pg_strtoint64(PQgetvalue(res, 0, 1));
				int64		expiry_us;
				int64		grace_us;

				err = uid_ident_answer(res, 2, &expiry_us, &grace_us);
				PQclear(res);
				if (err == NULL && (id < 0 || id >= uid_pool_size))
					err = psprintf("the coordinator handed out id %d, outside pool \"%s\" of size %d",
								   id, uid_pool, uid_pool_size);
				else if (err == NULL)
				{
					/* IDs under this lease begin after the claim returned */
					uid_ident_make(&s, key, id, token, (uint64) t1, (uint64) t0);
					uid_ident_measure(&s, UID_MEASURED_BY_CLAIM, t0, t1, expiry_us, grace_us);
					uid_ident_publish(stamp, &s);
				}
			}
		}

		/*
		 * A lease measured beyond the bound is kept (it holds the id) and
		 * refused: generators raise it for a second, then measure again.
		 */
		if (err == NULL && s.word != 0 && s.skewed)
			pg_atomic_write_u64(&uid_state->ident.retry_at,
								(uint64) (uid_clock_mono_us() + UID_IDENT_RETRY_EXPIRED_US));
		else if (err == NULL && s.word != 0)
			uid_ident_warn_skew(&s);
	}
	PG_FINALLY();
	{
		uid_remote_close(&r);
	}
	PG_END_TRY();

	uid_ident_set_error(key, err, sqlstate);
	return err;
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

static const char *
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
				 errdetail("Renewing it failed: %s", err),
				 errdetail_log("Renewing it failed: %s", log),
				 errhint("Generation resumes once the server renews or claims a lease from the coordinator in \"uid.coordinator\"."),
				 errcontext("%s", who)));
	if (s->word != 0 && s->key == key && SNAP_EXPIRY_US(s) > (uint64) uid_clock_unix_us())
		ereport(ERROR,
				(errcode(code),
				 errmsg("this server's lease of id %d in pool \"%s\", which ends at %s, could not be renewed",
						SNAP_ID(s), uid_pool, uid_us_text(SNAP_EXPIRY_US(s))),
				 errdetail("Renewing it failed: %s", err),
				 errdetail_log("Renewing it failed: %s", log),
				 errhint("Generation resumes once the server renews or claims a lease from the coordinator in \"uid.coordinator\"."),
				 errcontext("%s", who)));
	if (s->word != 0 && s->key == key)
		ereport(ERROR,
				(errcode(code),
				 errmsg("this server's lease of id %d in pool \"%s\" expired at %s",
						SNAP_ID(s), uid_pool, uid_us_text(SNAP_EXPIRY_US(s))),
				 errdetail("Renewing it failed: %s", err),
				 errdetail_log("Renewing it failed: %s", log),
				 errhint("Generation resumes once the server renews or claims a lease from the coordinator in \"uid.coordinator\"."),
				 errcontext("%s", who)));
	ereport(ERROR,
			(errcode(code),
			 errmsg("this server holds no lease in pool \"%s\"", uid_pool),
			 errdetail("Claiming one failed: %s", err),
			 errdetail_log("Claiming one failed: %s", log),
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
				 errdetail("%s", err),
				 errdetail_log("%s", uid_remote_log_text(err)),
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

uint32
uid_ident_value(int32 ident, const char *typname, const char *field, uint32 max)
{
	if ((uint32) ident > max)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("lease id %d of pool \"%s\" does not fit the %s %s (0..%u)",
						ident, uid_pool, typname, field, max),
				 errhint("Servers that make %s IDs need a pool of at most %u ids (\"uid.pool_size\").",
						 typname, max + 1)));
	return (uint32) ident;
}

/*
 * What each type embeds of a lease id, as the table at the top of this file
 * says, beside the hand setting it replaces.
 */
typedef struct UidIdentRow
{
	const char *type;
	const char *field;
	UidSettingBit setting;		/* the hand setting */
	uint64		max;			/* the largest value the field holds */
	int			shift;			/* of the lease id: revts8's cluster */
	uint32		mask;			/* of the lease id: revts8's generator */
	const char *collide;		/* drawn at start: how likely two servers collide */
} UidIdentRow;

#define UID_IDENT_NROWS 6

/* The rows, snowflake_si's for the record's index width: after uid_rec_sync(). */
static void
uid_ident_rows(UidIdentRow *rows)
{
	const UidIdentRow all[UID_IDENT_NROWS] = {
		{"sno", "partition", UID_SET_PARTITION, 65535, 0, 0xFFFF, "1/65536"},
		{"muid", "medallion", UID_SET_MEDALLION, (UINT64CONST(1) << 44) - 2, 0, PG_UINT32_MAX, "1/2^40"},
		{"snowflake_si", "machine id", UID_SET_GENERATOR, snowflake_si_mid_max((int) uid_rec_value(UID_REC_INDEX_BITS)), 0, 0xFFFF},
		{"revts8", "generator", UID_SET_GENERATOR, REVTS8_GENERATOR_MAX, 0, REVTS8_GENERATOR_MAX},
		{"revts8", "cluster", UID_SET_CLUSTER, REVTS8_CLUSTER_MAX, 6 /* log2(generators) */ , 0xFFFF},
		{"uid60", "worker", UID_SET_GENERATOR, UID60_WORKER_MAX, 0, 0xFFFF},
	};

	memcpy(rows, all, sizeof(all));
}

/* The largest id (a lease id or a node group) that gives the row's type a value. */
static uint32
uid_ident_row_fits(const UidIdentRow *r)
{
	/* revts8's generator and cluster share the id's 10 bits */
	if (strcmp(r->type, "revts8") == 0)
		return (REVTS8_CLUSTER_MAX + 1) * (REVTS8_GENERATOR_MAX + 1) - 1;
	return (uint32) Min(r->max, PG_UINT32_MAX);
}

/*
 * The row's value for a node group, or -1 if it does not fit: as for a
 * lease id, but revts8's generator is the whole group when uid.cluster
 * alone is set by hand (source.c).
 */
static int64 uid_ident_row_value(const UidIdentRow *r, int32 id);

static int64
uid_ident_group_value(const UidIdentRow *r, int32 group)
{
	uint32		generator;
	uint32		cluster;

	if (strcmp(r->type, "revts8") == 0 && r->setting == UID_SET_GENERATOR &&
		uid_revts8_cluster_alone())
		return uid_id_split_cluster((uint32) group, REVTS8_GENERATOR_MAX + 1, 0, &generator, &cluster) ?
			(int64) generator : -1;
	return uid_ident_row_value(r, group);
}

/* The row's value for lease id, or -1 if the id does not fit its type. */
static int64
uid_ident_row_value(const UidIdentRow *r, int32 id)
{
	if (id < 0 || (uint32) id > uid_ident_row_fits(r))
		return -1;
	return (int64) (((uint32) id >> r->shift) & r->mask);
}

/* The lease as this server generates under it now. */
typedef struct UidLeaseNow
{
	UidIdentSnap s;
	bool		standby;
	bool		ours;			/* the lease is for this server's key */
	bool		live;			/* and runs */
	const char *blocked;		/* why nothing is generated, whatever the lease */
} UidLeaseNow;

static void
uid_ident_now(UidLeaseNow *n)
{
	memset(n, 0, sizeof(*n));
	n->standby = RecoveryInProgress();
	if (uid_state == NULL)
		uid_state_attach();
	uid_ident_read(&n->s);
	n->ours = !n->standby && n->s.word != 0 && n->s.key == uid_ident_key();
	n->live = n->ours && SNAP_EXPIRY_US(&n->s) > (uint64) uid_clock_unix_us();
	if (uid_settings_refused & (1u << UID_SET_COORDINATOR))
		n->blocked = "\"uid.coordinator\" is refused (the server log says why)";
	else if (!uid_preloaded())
		n->blocked = "uid is in neither session_preload_libraries nor shared_preload_libraries";
}

/*
 * What each type whose field setting sets embeds of identity id, and whence
 * the id: "snowflake_si 3, revts8 3, uid60 3 (lease id 3)".
 */
static char *
uid_ident_id_words(UidSettingBit setting, int32 id, const char *whence, bool group)
{
	UidIdentRow rows[UID_IDENT_NROWS];
	StringInfoData buf;
	int			listed = 0;

	uid_ident_rows(rows);
	initStringInfo(&buf);
	for (int i = 0; i < UID_IDENT_NROWS; i++)
	{
		const UidIdentRow *r = &rows[i];
		int64		v = group ? uid_ident_group_value(r, id) : uid_ident_row_value(r, id);
		bool		several = setting == UID_SET_GENERATOR;

		if (r->setting != setting)
			continue;
		if (listed++ > 0)
			appendStringInfoString(&buf, ", ");
		if (several)
			appendStringInfo(&buf, "%s ", r->type);
		if (v < 0)
			appendStringInfo(&buf, "refuses (%d > %u)", id, uid_ident_row_fits(r));
		else if (setting == UID_SET_MEDALLION)
			appendStringInfo(&buf, "%011llX", (unsigned long long) v);
		else
			appendStringInfo(&buf, INT64_FORMAT, v);
	}
	appendStringInfo(&buf, " (%s %d)", whence, id);
	return buf.data;
}

/*
 * Does the server take a type's identity from this database's Citus node
 * group (not leased, not set by hand)?  The group, or -1; or, where the
 * generators refuse the group, UID_GROUP_UNKNOWN or UID_GROUP_UNSYNCED
 * (source.c decides, for the generators and for this report alike).
 */
static int32
uid_ident_citus(UidSettingBit setting)
{
	int32		group;

	switch (uid_unleased_field(setting, &group))
	{
		case UID_ID_CITUS:
		case UID_ID_REFUSED:
			return group;
		default:
			return -1;
	}
}

/*
 * uid_config()'s effective value of an identity setting (uid.partition,
 * uid.medallion, uid.generator, uid.cluster) on a server that leases its
 * identity or takes it from Citus: what IDs made now carry, from the lease
 * id or the node group, per type; or why they carry none.  NULL if the
 * server does neither (the hand or default value is the answer).
 */
char *
uid_ident_effective(UidSettingBit setting)
{
	UidLeaseNow n;
	int32		id;

	if (!uid_rec_leased())
	{
		int32		group = uid_ident_citus(setting);

		if (group < UID_GROUP_NONE)
			return pstrdup(uid_unleased_refusal(group));
		return group < 0 ? NULL : uid_ident_id_words(setting, group, "Citus node group", true);
	}
	uid_ident_now(&n);
	if (n.standby)
		return pstrdup("(none: a standby makes no IDs)");
	if (n.blocked != NULL)
		return psprintf("(no ID is made: %s)", n.blocked);
	if (!n.ours)
		return pstrdup("(lease: none held yet)");
	id = SNAP_ID(&n.s);
	if (!n.live)
		return psprintf("(lease: id %d expired at %s; the next ID renews it or claims another)",
						id, uid_us_text(SNAP_EXPIRY_US(&n.s)));
	return uid_ident_id_words(setting, id, "lease id", false);
}

/*
 * uid_identity(): what each type embeds on this server now, where it comes
 * from, and whether that keeps several servers apart.
 */
PG_FUNCTION_INFO_V1(uid_identity);
Datum
uid_identity(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	UidIdentRow rows[UID_IDENT_NROWS];
	UidLeaseNow n = {0};
	bool		leased;

	InitMaterializedSRF(fcinfo, 0);
	leased = uid_rec_leased();

	uid_ident_rows(rows);
	if (leased)
		uid_ident_now(&n);

	for (int i = 0; i < UID_IDENT_NROWS; i++)
	{
		const UidIdentRow *r = &rows[i];
		Datum		values[9];
		bool		nulls[9] = {0};
		int64		value = -1;
		const char *source;
		bool		safe;
		char	   *note;
		int32		group;

		if (leased)
		{
			int32		id = n.ours ? SNAP_ID(&n.s) : -1;

			source = "lease";
			values[4] = CStringGetTextDatum(uid_pool);
			nulls[5] = nulls[6] = !n.ours;
			values[5] = Int32GetDatum(id);
			values[6] = TimestampTzGetDatum((TimestampTz) SNAP_EXPIRY_US(&n.s) - PG_EPOCH_UNIX_US);
			if (n.ours)
				value = uid_ident_row_value(r, id);
			safe = n.live && value >= 0 && n.blocked == NULL;
			if (n.standby)
				note = pstrdup("a standby generates nothing");
			else if (n.blocked != NULL)
				note = psprintf("%s: nothing is generated", n.blocked);
			else if (!n.ours)
				note = pstrdup("no lease yet: the next ID claims one from the coordinator");
			else if (value < 0)
				note = psprintf("lease id %d does not fit (0..%u): %s refuses to generate",
								id, uid_ident_row_fits(r), r->type);
			else if (!n.live)
				note = pstrdup("the lease has expired: the next ID renews it or claims another");
			else
				note = pstrdup("leased from the coordinator");
		}
		else if ((group = uid_ident_citus(r->setting)) < UID_GROUP_NONE)
		{
			nulls[4] = nulls[5] = nulls[6] = true;
			source = "citus";
			safe = false;
			note = pstrdup(uid_unleased_refusal(group));
		}
		else if (group >= 0)
		{
			nulls[4] = nulls[5] = nulls[6] = true;
			source = "citus";
			value = uid_ident_group_value(r, group);
			safe = value >= 0;
			note = value < 0 ?
				psprintf("Citus node group %d does not fit (0..%u): %s refuses to generate; lease identities from a pool instead",
						 group, uid_ident_row_fits(r), r->type) :
				psprintf("Citus node group %d: every node of the cluster has its own", group);
		}
		else
		{
			const char *name = uid_settings[r->setting].name;
			bool		set = uid_rec_value(uid_rec_field_of(r->setting)) >= 0;
			bool		drawn;
			int64		v = uid_identity_setting(r->setting, &drawn);

			nulls[4] = nulls[5] = nulls[6] = true;
			if (drawn)
			{
				source = "drawn";
				value = v;
				note = psprintf("drawn at server start: two servers collide with probability %s",
								r->collide);
			}
			else
			{
				source = set ? "setting" : "default";
				value = (uint64) v <= r->max ? v : -1;
				note = value < 0 ? psprintf("%s = " INT64_FORMAT " does not fit (0.." UINT64_FORMAT "): %s refuses to generate",
											name, v, r->max, r->type) :
					set ? psprintf("%s: keeps servers apart if each has its own", name) :
					psprintf("%s is not set: every server that leaves it has " INT64_FORMAT, name, v);
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
