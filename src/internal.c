/*
 * internal.c
 *		Calls between uid's own SQL functions, made by exact signature, and
 *		the switch to a table's owner that partition maintenance runs under.
 *
 * A call between uid's functions passes the domain uid_internal_call first
 * (src/internal.sql): no role but the extension's owner can create a
 * function that takes it, so no overload in the extension's schema can
 * match such a call.  The functions here connect the two sides:
 *
 * uid_internal_forward: f(uid_internal_call, args) calls the documented
 *		f(args) of the same schema, found by its exact argument types, if the
 *		caller may execute that: the internal twin of a documented function,
 *		such as the coordinator's uid_pool_claim() that writers call.
 * uid_internal_enter: the documented f(args) calls the internal
 *		f(uid_internal_call, args), a PL/pgSQL implementation.
 * uid_internal_enter_as_owner: the same, for maintenance of the table given
 *		as the first argument: the implementation runs as the table's owner,
 *		in a security-restricted operation, with its own GUC nest level, as
 *		VACUUM, ANALYZE, CLUSTER, REINDEX and REFRESH MATERIALIZED VIEW run a
 *		table's code.  Whoever calls it, a trigger, a CHECK constraint, a
 *		generated column or a default of the table then runs with its
 *		owner's privileges, never the caller's, and cannot change the
 *		session (SET ROLE, temporary objects, cursors WITH HOLD, PREPARE).
 *		The caller must have the owner's privileges (be the owner, a member
 *		of its role, or a superuser), as ALTER TABLE requires.
 * uid_internal_enter_as_owner_staging: the same, with the staging table
 *		that moving rows out of a DEFAULT partition needs.
 *
 * Each finds the other side through the pg_proc row of the function being
 * called, once per call site (fn_extra), by name, schema and exact argument
 * types: LookupFuncName() with the exact argument list expands neither
 * defaults nor variadics, so no overload can make that lookup ambiguous
 * either.  Set-returning implementations return their rows through the
 * caller's ReturnSetInfo, which they share.
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/xlog.h"
#include "catalog/namespace.h"
#include "catalog/pg_class.h"
#include "catalog/partition.h"
#include "catalog/pg_namespace.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "parser/parse_func.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"

#include "compat.h"
#include "sql_api.h"

#define UID_CALL_TYPE "uid_internal_call"

/* The other side of a call, found once per call site. */
typedef struct UidCallee
{
	FmgrInfo	flinfo;
	int			nargs;			/* the callee's */
} UidCallee;

/*
 * The function of the caller's schema named as the caller, with the
 * caller's arguments and uid_internal_call in front (enter) or without
 * their first (forward).
 */
static UidCallee *
uid_callee(FunctionCallInfo fcinfo, bool enter)
{
	UidCallee  *callee = (UidCallee *) fcinfo->flinfo->fn_extra;
	HeapTuple	tup;
	Form_pg_proc proc;
	Oid			argtypes[FUNC_MAX_ARGS];
	Oid			call_type;
	int			nargs;
	Oid			oid;
	List	   *name;

	if (callee != NULL)
		return callee;

	tup = SearchSysCache1(PROCOID, ObjectIdGetDatum(fcinfo->flinfo->fn_oid));
	if (!HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for function %u", fcinfo->flinfo->fn_oid);
	proc = (Form_pg_proc) GETSTRUCT(tup);
	call_type = GetSysCacheOid2(TYPENAMENSP, Anum_pg_type_oid,
								CStringGetDatum(UID_CALL_TYPE),
								ObjectIdGetDatum(proc->pronamespace));
	if (!OidIsValid(call_type))
		elog(ERROR, "type %s is missing from the schema of function %s",
			 UID_CALL_TYPE, NameStr(proc->proname));
	if (enter)
	{
		if (proc->pronargs + 1 > FUNC_MAX_ARGS)
			elog(ERROR, "function %s has too many arguments", NameStr(proc->proname));
		argtypes[0] = call_type;
		memcpy(argtypes + 1, proc->proargtypes.values, proc->pronargs * sizeof(Oid));
		nargs = proc->pronargs + 1;
	}
	else
	{
		if (proc->pronargs < 1 || proc->proargtypes.values[0] != call_type)
			elog(ERROR, "function %s does not take %s first",
				 NameStr(proc->proname), UID_CALL_TYPE);
		memcpy(argtypes, proc->proargtypes.values + 1, (proc->pronargs - 1) * sizeof(Oid));
		nargs = proc->pronargs - 1;
	}
	name = list_make2(makeString(get_namespace_name(proc->pronamespace)),
					  makeString(pstrdup(NameStr(proc->proname))));
	ReleaseSysCache(tup);

	oid = LookupFuncName(name, nargs, argtypes, false);
	callee = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(UidCallee));
	fmgr_info_cxt(oid, &callee->flinfo, fcinfo->flinfo->fn_mcxt);
	callee->nargs = nargs;
	fcinfo->flinfo->fn_extra = callee;
	return callee;
}

/*
 * Calls the callee with the caller's arguments (less the first when
 * forwarding, with true in front when entering), its collation, context
 * and result information.
 */
static Datum
uid_call(FunctionCallInfo fcinfo, UidCallee *callee, bool enter)
{
	LOCAL_FCINFO(inner, FUNC_MAX_ARGS);
	int			shift = enter ? 1 : 0;
	Datum		result;

	InitFunctionCallInfoData(*inner, &callee->flinfo, callee->nargs,
							 fcinfo->fncollation, fcinfo->context, fcinfo->resultinfo);
	if (enter)
	{
		inner->args[0].value = BoolGetDatum(true);
		inner->args[0].isnull = false;
	}
	for (int i = 0; i < callee->nargs - shift; i++)
		inner->args[i + shift] = fcinfo->args[i + 1 - shift];
	/*
	 * A strict callee is not called with a null argument, as the executor
	 * does: a null, or no rows from a set-returning one.
	 */
	if (callee->flinfo.fn_strict)
	{
		for (int i = 0; i < callee->nargs; i++)
			if (inner->args[i].isnull)
			{
				if (fcinfo->resultinfo != NULL && IsA(fcinfo->resultinfo, ReturnSetInfo))
					((ReturnSetInfo *) fcinfo->resultinfo)->isDone = ExprEndResult;
				fcinfo->isnull = true;
				return (Datum) 0;
			}
	}
	result = FunctionCallInvoke(inner);
	fcinfo->isnull = inner->isnull;
	return result;
}

PG_FUNCTION_INFO_V1(uid_internal_forward);
Datum
uid_internal_forward(PG_FUNCTION_ARGS)
{
	UidCallee  *callee = uid_callee(fcinfo, false);

	/*
	 * The twin is another door to the same function, with the same lock:
	 * the executor checked EXECUTE on the twin, fmgr checks none, so the
	 * documented function's own privilege is checked here (a pool's
	 * claimants are GRANTed EXECUTE on uid_pool_claim(), say).
	 */
	if (uid_proc_aclcheck(callee->flinfo.fn_oid, GetUserId(), ACL_EXECUTE) != ACLCHECK_OK)
		aclcheck_error(ACLCHECK_NO_PRIV, OBJECT_FUNCTION, get_func_name(callee->flinfo.fn_oid));
	return uid_call(fcinfo, callee, false);
}

PG_FUNCTION_INFO_V1(uid_internal_enter);
Datum
uid_internal_enter(PG_FUNCTION_ARGS)
{
	return uid_call(fcinfo, uid_callee(fcinfo, true), true);
}

/*
 * The staging table of uid_maintain_partitions(): the DEFAULT partition's
 * rows of a period wait in it while their partition is made (a partition
 * cannot be made while the default holds rows that belong in it).  Made
 * here, as the owner but outside the security-restricted operation, which
 * forbids temporary tables, as REFRESH MATERIALIZED VIEW CONCURRENTLY makes
 * its own: LIKE copies the default's columns, names and types alone, so no
 * code of the table runs.  uid_staging(def) makes it (a table of that name
 * left by an earlier call of the transaction is dropped first);
 * uid_staging(InvalidOid) drops it, at the end of the call.
 */
#define UID_STAGING "pg_temp.uid_partition_moving"

static void
uid_staging(Oid def)
{
	char	   *sql = NULL;

	if (OidIsValid(def))
		sql = psprintf("CREATE TEMP TABLE uid_partition_moving (LIKE %s) ON COMMIT DROP",
					   quote_qualified_identifier(get_namespace_name(get_rel_namespace(def)),
												  get_rel_name(def)));
	else if (OidIsValid(RangeVarGetRelid(makeRangeVar("pg_temp", "uid_partition_moving", -1),
										 NoLock, true)))
		sql = "DROP TABLE " UID_STAGING;
	if (sql == NULL)
		return;
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	if (SPI_execute(sql, false, 0) != SPI_OK_UTILITY)
		elog(ERROR, "SPI_execute failed: %s", sql);
	SPI_finish();
}

/*
 * Enters the implementation as the owner of the table in the first
 * argument (see the file's header), with the staging table when asked
 * for and the table has a DEFAULT partition.
 */
static Datum
uid_enter_as_owner(FunctionCallInfo fcinfo, bool staging)
{
	UidCallee  *callee = uid_callee(fcinfo, true);
	Oid			relid;
	HeapTuple	tup;
	Oid			owner;
	Oid			def = InvalidOid;
	Oid			save_userid;
	int			save_sec_context;
	int			save_nestlevel;
	Datum		result;

	/*
	 * A null or a relation that does not exist: the implementation says
	 * what is wrong, and runs no table's code.  On a standby maintenance
	 * does nothing, before it checks its arguments (one job for every
	 * server of a cluster), and nothing there can write: no staging table,
	 * no switch.
	 */
	if (PG_ARGISNULL(0) || (staging && RecoveryInProgress()))
		return uid_call(fcinfo, callee, true);
	relid = PG_GETARG_OID(0);
	tup = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
	if (!HeapTupleIsValid(tup))
		return uid_call(fcinfo, callee, true);
	owner = ((Form_pg_class) GETSTRUCT(tup))->relowner;
	if (staging && ((Form_pg_class) GETSTRUCT(tup))->relkind == RELKIND_PARTITIONED_TABLE)
		def = get_default_partition_oid(relid);
	ReleaseSysCache(tup);
	/* (a default the owner may not read: the implementation says so) */
	if (OidIsValid(def) && pg_class_aclcheck(def, owner, ACL_SELECT) != ACLCHECK_OK)
		def = InvalidOid;

	if (!has_privs_of_role(GetUserId(), owner))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("must be owner of table %s", get_rel_name(relid))));

	/*
	 * An error restores the user and the security context (the
	 * transaction's or subtransaction's abort does) and the GUCs.
	 */
	GetUserIdAndSecContext(&save_userid, &save_sec_context);
	if (OidIsValid(def))
	{
		SetUserIdAndSecContext(owner, save_sec_context | SECURITY_LOCAL_USERID_CHANGE);
		uid_staging(InvalidOid);
		uid_staging(def);
	}
	SetUserIdAndSecContext(owner, save_sec_context | SECURITY_LOCAL_USERID_CHANGE |
						   SECURITY_RESTRICTED_OPERATION);
	save_nestlevel = NewGUCNestLevel();
	(void) set_config_option("search_path", "pg_catalog, pg_temp",
							 PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SAVE, true, 0, false);

	result = uid_call(fcinfo, callee, true);

	AtEOXact_GUC(false, save_nestlevel);
	if (OidIsValid(def))
	{
		SetUserIdAndSecContext(owner, save_sec_context | SECURITY_LOCAL_USERID_CHANGE);
		uid_staging(InvalidOid);
	}
	SetUserIdAndSecContext(save_userid, save_sec_context);
	return result;
}

PG_FUNCTION_INFO_V1(uid_internal_enter_as_owner);
Datum
uid_internal_enter_as_owner(PG_FUNCTION_ARGS)
{
	return uid_enter_as_owner(fcinfo, false);
}

PG_FUNCTION_INFO_V1(uid_internal_enter_as_owner_staging);
Datum
uid_internal_enter_as_owner_staging(PG_FUNCTION_ARGS)
{
	return uid_enter_as_owner(fcinfo, true);
}

/*
 * The partition functions' calls of a type's TYPE_boundary(timestamptz) and
 * TYPE_timestamp(TYPE), for the key type they found (uid_partition_key),
 * with IDs as text: one function each, for every type, found in the type's
 * schema by exact signature.
 */
typedef struct UidTypeCall
{
	Oid			type;
	FmgrInfo	flinfo;
	Oid			io;				/* the type's output (boundary) or input
								 * (timestamp) function */
	Oid			ioparam;
} UidTypeCall;

static UidTypeCall *
uid_type_call(FunctionCallInfo fcinfo, Oid type, bool boundary)
{
	UidTypeCall *tc = (UidTypeCall *) fcinfo->flinfo->fn_extra;
	Oid			argtype = boundary ? TIMESTAMPTZOID : type;
	HeapTuple	tup;
	Form_pg_type typ;
	List	   *name;
	Oid			fn;
	bool		varlena;

	if (tc != NULL && tc->type == type)
		return tc;
	if (tc == NULL)
		tc = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(UidTypeCall));
	tup = SearchSysCache1(TYPEOID, ObjectIdGetDatum(type));
	if (!HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for type %u", type);
	typ = (Form_pg_type) GETSTRUCT(tup);
	name = list_make2(makeString(get_namespace_name(typ->typnamespace)),
					  makeString(psprintf("%s_%s", NameStr(typ->typname),
										  boundary ? "boundary" : "timestamp")));
	ReleaseSysCache(tup);
	fn = LookupFuncName(name, 1, &argtype, false);
	fmgr_info_cxt(fn, &tc->flinfo, fcinfo->flinfo->fn_mcxt);
	if (boundary)
		getTypeOutputInfo(type, &tc->io, &varlena);
	else
		getTypeInputInfo(type, &tc->io, &tc->ioparam);
	tc->type = type;
	fcinfo->flinfo->fn_extra = tc;
	return tc;
}

PG_FUNCTION_INFO_V1(uid_partition_boundary);
Datum
uid_partition_boundary(PG_FUNCTION_ARGS)
{
	UidTypeCall *tc = uid_type_call(fcinfo, PG_GETARG_OID(1), true);
	Datum		id = FunctionCall1(&tc->flinfo, PG_GETARG_DATUM(2));

	PG_RETURN_TEXT_P(cstring_to_text(OidOutputFunctionCall(tc->io, id)));
}

PG_FUNCTION_INFO_V1(uid_partition_time);
Datum
uid_partition_time(PG_FUNCTION_ARGS)
{
	UidTypeCall *tc = uid_type_call(fcinfo, PG_GETARG_OID(1), false);
	Datum		id = OidInputFunctionCall(tc->io, text_to_cstring(PG_GETARG_TEXT_PP(2)),
										  tc->ioparam, -1);

	return FunctionCall1(&tc->flinfo, id);
}
