/*
 * coordinator.c
 *		The conversation with the coordinator: a claim or a renewal,
 *		and the clock it measures.
 *
 * One conversation (uid_ident_talk) connects to the coordinator in
 * uid.coordinator (remote.c), renews the lease if this server holds one
 * for its key, else (or if the coordinator says it is no longer ours)
 * claims one, and publishes the outcome (ident_store.c) with the clock the
 * call measured.  Called by ident_lease.c, which decides when to talk and
 * holds busy while it does; it also raises uid_ident_refuse_skew() from
 * here, the refusal of a lease measured beyond the bound.
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
 */
#include "postgres.h"

#include <unistd.h>

#include "miscadmin.h"
#include "postmaster/postmaster.h"
#include "utils/builtins.h"

#include "clock.h"
#include "coordinator.h"
#include "guc.h"
#include "remote.h"

char *
uid_host_name(void)
{
	static char host[256];

	if (host[0] == '\0' && gethostname(host, sizeof(host) - 1) != 0)
		strlcpy(host, "unknown-host", sizeof(host));
	return host;
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

/*
 * The measured offset (the midpoint), its uncertainty and the bound, as
 * text.  Which side the clock is on and whether a claim or a renewal
 * measured it are flags, not words: each combination is a message of its
 * own, whole for translators.
 */
typedef struct UidSkewText
{
	char	   *offset;			/* seconds, unsigned */
	bool		behind;			/* this clock behind the coordinator's */
	char	   *within;			/* half the interval */
	char	   *least;			/* the smallest |offset| it allows, cut to
								 * the millisecond (never shown above the
								 * bound when within it) */
	char	   *bound;
	bool		claimed;		/* measured by a claim, not a renewal */
} UidSkewText;

static void
uid_skew_text(const UidIdentSnap *s, UidSkewText *t)
{
	int64		mid = s->offset_lo_us + (s->offset_hi_us - s->offset_lo_us) / 2;

	t->offset = uid_secs_text(mid);
	t->behind = mid < 0;
	t->within = uid_secs_text((s->offset_hi_us - s->offset_lo_us + 1) / 2);
	t->least = uid_secs_text(uid_ident_skew_us(s) / 1000 * 1000);
	t->bound = uid_secs_text((int64) s->bound_us);
	t->claimed = s->measured_by == UID_MEASURED_BY_CLAIM;
}

static const char *const uid_skew_hint =
"Set this server's clock right, or the coordinator's if it is the one that is wrong; see \"Why two holders of one id never make the same ID\" in doc/several-servers.md.";

/*
 * The detail of a skewed measurement: how it was measured, and either the
 * bound (refused) or what happens past it (warned).  Why the bound is half
 * the grace is the manual's, which the hint names.
 */
static int
uid_skew_detail(const UidIdentSnap *s, const UidSkewText *t, bool refused)
{
	if (refused && t->claimed)
		return errdetail("Measured when claiming id %d of pool \"%s\", to within %s s (at least %s s); the bound is %s s, half the coordinator's \"uid.pool_grace\".",
						 SNAP_ID(s), uid_pool, t->within, t->least, t->bound);
	if (refused)
		return errdetail("Measured when renewing id %d of pool \"%s\", to within %s s (at least %s s); the bound is %s s, half the coordinator's \"uid.pool_grace\".",
						 SNAP_ID(s), uid_pool, t->within, t->least, t->bound);
	if (t->claimed)
		return errdetail("Measured when claiming id %d of pool \"%s\", to within %s s (at least %s s).  Within the bound, the server goes on generating; once surely further off than the bound, it makes no ID under its lease until a measurement finds its clock within it.",
						 SNAP_ID(s), uid_pool, t->within, t->least);
	return errdetail("Measured when renewing id %d of pool \"%s\", to within %s s (at least %s s).  Within the bound, the server goes on generating; once surely further off than the bound, it makes no ID under its lease until a measurement finds its clock within it.",
					 SNAP_ID(s), uid_pool, t->within, t->least);
}

/*
 * Raises the refusal of a lease measured further off than the bound; who
 * is the context ("while generating an ID with sno_new()").
 */
void
uid_ident_refuse_skew(const char *who, const UidIdentSnap *s)
{
	UidSkewText t;

	uid_skew_text(s, &t);
	ereport(ERROR,
			(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
			 t.behind ?
			 errmsg("this server's clock is %s s behind the coordinator's", t.offset) :
			 errmsg("this server's clock is %s s ahead of the coordinator's", t.offset),
			 uid_skew_detail(s, &t, true),
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
			(t.behind ?
			 errmsg("this server's clock is %s s behind the coordinator's, past half the bound of %s s",
					t.offset, t.bound) :
			 errmsg("this server's clock is %s s ahead of the coordinator's, past half the bound of %s s",
					t.offset, t.bound),
			 uid_skew_detail(s, &t, false),
			 errhint("%s", uid_skew_hint)));
}

/*
 * How this server names itself as a claim's holder: where it runs, for the
 * administrator, and the lease's key at the end, " key" and 16 hex digits,
 * by which the coordinator knows a claim of its own that it gave up
 * waiting for (pool_functions.sql, uid_pool_claim()).
 */
static char *
uid_ident_holder(uint64 key)
{
	return psprintf("%s:%d system " UINT64_FORMAT " key %016llx", uid_host_name(),
					PostPortNumber, GetSystemIdentifier(), (unsigned long long) key);
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
 * Connects to the coordinator and finds uid's schema there, quoted, and
 * the first argument of the pool functions' twins ("" if it has none).
 * Returns NULL, or what failed (its SQLSTATE in sqlstate).
 */
static char *
uid_coord_open(UidRemote *r, char **schema, const char **call, char *sqlstate)
{
	PGresult   *res = NULL;
	char	   *err;

	err = uid_remote_connect(r, uid_coordinator, uid_coordinator_timeout_ms);

	/*
	 * The claim or renewal that follows must be durable before this server
	 * acts on it: with synchronous_commit off (or local, with synchronous
	 * standbys) a crash or a failover of the coordinator could lose it and
	 * hand the id out again.  A coordinator of 0.7.0 or later makes it so
	 * itself; this covers older ones.  A stronger setting is kept.
	 *
	 * And it must not outlive this server's wait: a claim that waits on
	 * the coordinator (for the pool's lock, behind one waiting for a
	 * synchronous standby that is away) is cancelled there once this
	 * server has given up (statement_timeout), instead of each attempt
	 * leaving a connection that waits on, until the coordinator has none
	 * left.  (A commit already waiting for the standby is past the
	 * statement: it commits when the standby returns, and the next claim
	 * takes its lease back.)
	 */
	if (err == NULL)
		err = uid_remote_query(r,
							   psprintf("SELECT pg_catalog.quote_ident(n.nspname), "
										"pg_catalog.to_regtype(pg_catalog.quote_ident(n.nspname) || '.uid_internal_call') IS NOT NULL, "
										"CASE WHEN pg_catalog.current_setting('synchronous_commit') IN ('off', 'local') "
										"THEN pg_catalog.set_config('synchronous_commit', 'on', false) END, "
										"pg_catalog.set_config('statement_timeout', '%d', false) "
										"FROM pg_catalog.pg_extension e "
										"JOIN pg_catalog.pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'uid'",
										uid_coordinator_timeout_ms),
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
			*schema = pstrdup(PQgetvalue(res, 0, 0));
			if (strcmp(PQgetvalue(res, 0, 1), "t") == 0)
				*call = psprintf("true::%s.uid_internal_call", *schema);
		}
		else
			err = pstrdup("the coordinator's database has no extension uid");
		PQclear(res);
	}
	return err;
}

/*
 * Renews the lease in s (this server's, for key) and publishes it, setting
 * *held; if the coordinator says it is no longer ours, publishes no lease.
 * Returns NULL, or what failed.
 */
static char *
uid_coord_renew(UidRemote *r, const char *schema, const char *call, uint64 stamp,
				uint64 key, UidIdentSnap *s, bool *held, char *sqlstate)
{
	PGresult   *res = NULL;
	char	   *err;
	char		ttl[32];
	char		id[16];
	char		token[32];
	const char *params[4] = {uid_pool, id, token, ttl};
	int64		t0;
	int64		t1;
	int64		expiry_us;
	int64		grace_us;

	snprintf(ttl, sizeof(ttl), "%d s", uid_pool_ttl_s);
	snprintf(id, sizeof(id), "%d", SNAP_ID(s));
	snprintf(token, sizeof(token), UINT64_FORMAT, s->token);
	/* the coordinator's expiry and grace measure this server's clock */
	t0 = uid_clock_unix_us();
	err = uid_remote_query(r, psprintf("SELECT EXTRACT(epoch FROM r.expires_at), "
									   "EXTRACT(epoch FROM %s.uid_pool_grace(%s)) "
									   "FROM %s.uid_pool_renew(%s%s$1::text, $2::integer, $3::bigint, $4::interval) AS r(expires_at)",
									   schema, call, schema, call, *call ? ", " : ""),
						   4, params, &res, sqlstate);
	t1 = uid_clock_unix_us();
	if (err == NULL)
	{
		/* a null expiry: a coordinator that found its pool went back in time */
		if (PQntuples(res) == 1 && PQnfields(res) == 2 && PQgetisnull(res, 0, 0))
			err = pstrdup("the coordinator did not renew the lease: it found its pool went back in time and holds every id for a while (its warning says until when)");
		else
			err = uid_ident_answer(res, 0, &expiry_us, &grace_us);
		PQclear(res);
	}
	if (err == NULL)
	{
		bool		was_skewed = s->skewed;

		*held = true;
		uid_ident_make(s, key, SNAP_ID(s), s->token, s->floor_us, (uint64) t0);
		uid_ident_measure(s, UID_MEASURED_BY_RENEWAL, t0, t1, expiry_us, grace_us);

		/*
		 * The first measurement within the bound after one beyond it
		 * (perhaps the claim's, which set the floor) raises the floor
		 * to its own reading, one made within the bound.
		 */
		if (was_skewed && !s->skewed)
			s->floor_us = Max(s->floor_us, (uint64) t1);
		uid_ident_publish(stamp, s);
	}
	else if (strcmp(sqlstate, "55000") == 0)
	{
		/* handed to another holder, or released: not ours from now on */
		ereport(WARNING,
				(errmsg("uid's lease of id %d in pool \"%s\" is no longer held; claiming another",
						SNAP_ID(s), uid_pool),
				 errdetail("The coordinator answered: %s.", err),
				 errdetail_log("The coordinator answered: %s.", uid_remote_log_text(err))));
		memset(s, 0, sizeof(*s));
		uid_ident_publish(stamp, s);
		err = NULL;
	}
	return err;
}

/*
 * Claims a lease for key into s and publishes it.  Returns NULL, or what
 * failed.
 */
static char *
uid_coord_claim(UidRemote *r, const char *schema, const char *call, uint64 stamp,
				uint64 key, UidIdentSnap *s, char *sqlstate)
{
	PGresult   *res = NULL;
	char	   *err;
	char		ttl[32];
	char		size[16];
	char	   *holder = uid_ident_holder(key);
	const char *params[4] = {uid_pool, size, holder, ttl};
	int64		t0;
	int64		t1;

	snprintf(ttl, sizeof(ttl), "%d s", uid_pool_ttl_s);
	snprintf(size, sizeof(size), "%d", uid_pool_size);
	t0 = uid_clock_unix_us();
	err = uid_remote_query(r, psprintf("SELECT c.id, c.token, EXTRACT(epoch FROM c.expires_at), "
									   "EXTRACT(epoch FROM %s.uid_pool_grace(%s)) "
									   "FROM %s.uid_pool_claim(%s%s$1::text, $2::integer, $3::text, $4::interval) AS c",
									   schema, call, schema, call, *call ? ", " : ""),
						   4, params, &res, sqlstate);
	t1 = uid_clock_unix_us();
	if (err == NULL && (PQntuples(res) != 1 || PQnfields(res) != 4))
	{
		err = pstrdup("the coordinator's uid_pool_claim() handed out no id: it found its pool went back in time and holds every id for a while (its warning says until when)");
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
			uid_ident_make(s, key, id, token, (uint64) t1, (uint64) t0);
			uid_ident_measure(s, UID_MEASURED_BY_CLAIM, t0, t1, expiry_us, grace_us);
			uid_ident_publish(stamp, s);
		}
	}
	return err;
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
char *
uid_ident_talk(uint64 stamp, uint64 key, char *sqlstate)
{
	UidRemote	r = {0};
	char	   *volatile err = NULL;
	UidIdentSnap s;

	sqlstate[0] = '\0';
	uid_ident_read(&s);

	PG_TRY();
	{
		char	   *schema = NULL;
		const char *call = "";	/* the first argument of its twins */
		bool		held = false;

		err = uid_coord_open(&r, &schema, &call, sqlstate);
		if (err == NULL && s.word != 0 && s.key == key)
			err = uid_coord_renew(&r, schema, call, stamp, key, &s, &held, sqlstate);
		if (err == NULL && !held)
			err = uid_coord_claim(&r, schema, call, stamp, key, &s, sqlstate);

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
