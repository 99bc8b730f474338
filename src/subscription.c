/*
 * subscription.c
 *		Whether this database takes rows from another server by logical
 *		replication: it has a subscription (pg_subscription, a catalog all
 *		the cluster's databases share, one row per subscription with the
 *		database it writes into).
 *
 * A subscription's apply worker writes the rows another server made into
 * this database's tables, where they meet the rows made here.  Two servers
 * that make IDs with a type's default identity (0, or drawn at start) then
 * make equal IDs, and the first equal key stops the subscription for good.
 * So where the database has one, a default identity is refused
 * (core/source.h's UID_ID_SHARED); set by hand, leased or Citus's, it is
 * not (the other server must not make IDs with the same).
 *
 * CREATE, ALTER and DROP SUBSCRIPTION change pg_subscription's rows, whose
 * catalog cache entries PostgreSQL invalidates in every process of the
 * cluster (the catalog is shared), delivered at the process's next
 * transaction or lock.  A process reads the catalog again after any such
 * invalidation, and only then: a transaction that begins after CREATE
 * SUBSCRIPTION committed sees it.
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/stratnum.h"
#include "access/table.h"
#include "access/xact.h"
#include "catalog/indexing.h"
#include "catalog/pg_subscription.h"
#include "miscadmin.h"
#include "utils/fmgroids.h"
#include "utils/inval.h"
#include "utils/syscache.h"

#include "core/source.h"
#include "ident_inval.h"
#include "subscription.h"

static bool registered = false;
/* whether it has one, 1 or 0, kept as a node group is (core/source.h) */
static UidGroupCache cache = UID_GROUP_CACHE_INIT;

static void
uid_sub_changed(Datum arg, int cacheid, uint32 hashvalue)
{
	uid_ident_invals++;
}

/*
 * This database's first subscription by name (the catalog's index on
 * database and name), or NULL.
 */
static char *
uid_sub_first(void)
{
	Relation	rel;
	SysScanDesc scan;
	ScanKeyData key;
	HeapTuple	tup;
	char	   *name = NULL;

	rel = table_open(SubscriptionRelationId, AccessShareLock);
	ScanKeyInit(&key, Anum_pg_subscription_subdbid, BTEqualStrategyNumber, F_OIDEQ,
				ObjectIdGetDatum(MyDatabaseId));
	scan = systable_beginscan(rel, SubscriptionNameIndexId, true, NULL, 1, &key);
	tup = systable_getnext(scan);
	if (HeapTupleIsValid(tup))
		name = pstrdup(NameStr(((Form_pg_subscription) GETSTRUCT(tup))->subname));
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
	return name;
}

bool
uid_db_subscribed(void)
{
	uint64		at;
	char	   *name;

	if (likely(uid_group_current(&cache, uid_ident_invals)))
		return cache.group != 0;
	if (!registered)
	{
		CacheRegisterSyscacheCallback(SUBSCRIPTIONOID, uid_sub_changed, (Datum) 0);
		registered = true;
	}
	if (!IsTransactionState())
		return false;
	/* counted before: an invalidation that comes during the read reads again */
	at = uid_ident_invals;
	name = uid_sub_first();
	uid_group_keep(&cache, at, name != NULL ? 1 : 0);
	if (name == NULL)
		return false;
	pfree(name);
	return true;
}

char *
uid_db_subscription_name(void)
{
	return IsTransactionState() ? uid_sub_first() : NULL;
}
