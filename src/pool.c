/*
 * pool.c
 *		The coordinator's rules for its own failures, as the lease pool's
 *		SQL calls them (src/pool_functions.sql, uid_pool_prepare(),
 *		uid_pool_claim(), uid_pool_renew()): each is core/pool.h's, which
 *		the simulator models, over the pool's columns.
 *
 * Every function takes uid_internal_call first (only the pool's functions,
 * as the extension's owner, call them; PUBLIC may not).  The pool passes
 * no hold as -infinity.
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/xlog.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/timestamp.h"

#include "compat.h"
#include "core/pool.h"
#include "sql_api.h"

/* Where this cluster and database are, as the pool records it. */
static char *
uid_pool_here(void)
{
	return psprintf("system " UINT64_FORMAT " database %u", GetSystemIdentifier(), MyDatabaseId);
}

static int64
uid_pool_timeline(void)
{
	if (RecoveryInProgress())
		ereport(ERROR,
				(errcode(ERRCODE_READ_ONLY_SQL_TRANSACTION),
				 errmsg("cannot write a lease pool during recovery")));
	return (int64) GetWALInsertionTimeLine();
}

/* Argument n, an interval, in microseconds (uid_interval_us: saturated). */
static int64
uid_pool_interval_arg(FunctionCallInfo fcinfo, int n)
{
	return uid_interval_us(PG_GETARG_INTERVAL_P(n));
}

/*
 * uid_pool_place(call) -> (place, timeline): where the pool is being
 * written, this cluster's system identifier and this database ("system N
 * database M"), and the timeline WAL is inserted on.  A restored dump, a
 * copy or pg_upgrade changes the first; a promoted standby or a
 * point-in-time restore the second.
 */
PG_FUNCTION_INFO_V1(uid_pool_place);
Datum
uid_pool_place(PG_FUNCTION_ARGS)
{
	TupleDesc	tupdesc;
	Datum		values[2];
	bool		nulls[2] = {0};

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	values[1] = Int64GetDatum(uid_pool_timeline());
	values[0] = CStringGetTextDatum(uid_pool_here());
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}

/*
 * uid_pool_rule_commit(call): the transaction of a claim or renewal commits
 * with uid_pool_commit_level() of the session's synchronous_commit, until
 * it ends (as SET LOCAL).
 */
PG_FUNCTION_INFO_V1(uid_pool_rule_commit);
Datum
uid_pool_rule_commit(PG_FUNCTION_ARGS)
{
	static const char *const names[] = {
		[UID_COMMIT_OFF] = "off", [UID_COMMIT_LOCAL] = "local",
		[UID_COMMIT_REMOTE_WRITE] = "remote_write", [UID_COMMIT_ON] = "on",
		[UID_COMMIT_REMOTE_APPLY] = "remote_apply"
	};
	const char *now = GetConfigOption("synchronous_commit", false, false);
	UidCommitLevel level = UID_COMMIT_OFF;
	UidCommitLevel want;

	for (int i = 0; i < (int) lengthof(names); i++)
		if (pg_strcasecmp(now, names[i]) == 0)
			level = (UidCommitLevel) i;
	want = uid_pool_commit_level(level);
	if (want != level)
		(void) set_config_option("synchronous_commit", names[want], PGC_USERSET, PGC_S_SESSION,
								 GUC_ACTION_LOCAL, true, 0, false);
	PG_RETURN_VOID();
}

/*
 * uid_pool_rule_went_back(call, written_in, written_timeline, written_synced):
 * has the pool gone back in time since its last claim or renewal, written
 * where the arguments say (nulls: never written)?
 */
PG_FUNCTION_INFO_V1(uid_pool_rule_went_back);
Datum
uid_pool_rule_went_back(PG_FUNCTION_ARGS)
{
	bool		written = !PG_ARGISNULL(1);
	bool		same_place = written &&
		strcmp(text_to_cstring(PG_GETARG_TEXT_PP(1)), uid_pool_here()) == 0;
	bool		same_timeline = !PG_ARGISNULL(2) && PG_GETARG_INT64(2) == uid_pool_timeline();
	bool		synced = !PG_ARGISNULL(3) && PG_GETARG_BOOL(3);

	PG_RETURN_BOOL(uid_pool_went_back(written, same_place, same_timeline, synced));
}

/*
 * uid_pool_rule_hold_end(call, t, max_ttl, ttl, grace, hold_until): when a hold
 * found at t ends.
 */
PG_FUNCTION_INFO_V1(uid_pool_rule_hold_end);
Datum
uid_pool_rule_hold_end(PG_FUNCTION_ARGS)
{
	PG_RETURN_TIMESTAMPTZ((TimestampTz) uid_pool_hold_end(PG_GETARG_TIMESTAMPTZ(1),
														  uid_pool_interval_arg(fcinfo, 2),
														  uid_pool_interval_arg(fcinfo, 3),
														  uid_pool_interval_arg(fcinfo, 4),
														  PG_GETARG_TIMESTAMPTZ(5)));
}

/*
 * uid_pool_rule_token_floor(call, claims, t): the claims' count once a hold
 * begins at t (the clock's microseconds since 1970).
 */
PG_FUNCTION_INFO_V1(uid_pool_rule_token_floor);
Datum
uid_pool_rule_token_floor(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT64(uid_pool_token_floor(PG_GETARG_INT64(1),
										 PG_GETARG_TIMESTAMPTZ(2) + PG_EPOCH_UNIX_US));
}

/* uid_pool_rule_hands_out(call, t, hold_until): does a claim hand out an id? */
PG_FUNCTION_INFO_V1(uid_pool_rule_hands_out);
Datum
uid_pool_rule_hands_out(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(uid_pool_hands_out(PG_GETARG_TIMESTAMPTZ(1), PG_GETARG_TIMESTAMPTZ(2)));
}

/*
 * uid_pool_rule_renews(call, t, expires_at, hold_until): is a lease its rows
 * hold renewed?
 */
PG_FUNCTION_INFO_V1(uid_pool_rule_renews);
Datum
uid_pool_rule_renews(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(uid_pool_renews(PG_GETARG_TIMESTAMPTZ(1), PG_GETARG_TIMESTAMPTZ(2),
								   PG_GETARG_TIMESTAMPTZ(3)));
}

/*
 * uid_pool_rule_reclaims(call, same_key, released, expires_at, t): does a
 * claim take back this lease?
 */
PG_FUNCTION_INFO_V1(uid_pool_rule_reclaims);
Datum
uid_pool_rule_reclaims(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(uid_pool_reclaims(PG_GETARG_BOOL(1), PG_GETARG_BOOL(2),
									 PG_GETARG_TIMESTAMPTZ(3), PG_GETARG_TIMESTAMPTZ(4)));
}
