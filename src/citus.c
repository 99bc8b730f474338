/*
 * citus.c
 *		The Citus node group of this database, read from Citus's catalog and
 *		kept current by the invalidations Citus sends.
 *
 * Citus gives every node of a cluster a node group id of its own: the
 * coordinator's is 0, each worker's a number from 1 that a sequence on the
 * coordinator hands out once (a node removed and another added gets a new
 * one; a standby promoted in its place keeps it, and the failover's fence
 * keeps its IDs after the old primary's).  Each node keeps its own in
 * pg_catalog.pg_dist_local_group, one row, in every database with Citus.
 * Where a type's identity is neither leased nor set by hand, it is the
 * group (core/source.h), so every node of a cluster makes IDs of its own
 * with no uid setting, as Citus's own sequences do.
 *
 * The row changes when Citus adds the node to a cluster (from 0, which is
 * also the coordinator's, to the group it is given): Citus's trigger on the
 * table then sends an invalidation of the table's relation cache entry, and
 * PostgreSQL delivers it to every process at its next transaction or lock,
 * before it opens a table of the cluster's.  A process reads the row again
 * after any such invalidation, or any change of a relation's name (Citus
 * created or dropped), and only then.
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "access/xact.h"
#include "catalog/pg_namespace.h"
#include "catalog/pg_type.h"
#include "utils/guc.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"

#include "citus.h"
#include "ident_inval.h"

static bool registered = false;
static Oid	local_group_rel = InvalidOid;	/* as last read; InvalidOid: none */
static Oid	node_rel = InvalidOid;	/* pg_dist_node, as last read */
static UidGroupCache cache = UID_GROUP_CACHE_INIT;

static void
uid_citus_relcache_changed(Datum arg, Oid relid)
{
	if (relid == InvalidOid || relid == local_group_rel || relid == node_rel)
		uid_ident_invals++;
}

static void
uid_citus_names_changed(Datum arg, int cacheid, uint32 hashvalue)
{
	uid_ident_invals++;
}

/*
 * Is this session one that Citus opened from another node (its
 * application_name)?  Such a session on a node without metadata runs there
 * for another node, whose group then reads 0.
 *
 * Citus names every session it opens on another node in its own namespace,
 * "citus_": its executor's tasks and its other connections start as
 * "citus_internal gpid=N"; run_command_on_workers() and its kin then set
 * "citus_run_command gpid=N", the rebalancer "citus_rebalancer gpid=N", and
 * the logical replication of a shard move or split runs as the
 * subscription, "citus_shard_...".  The rule takes the whole namespace, so
 * a prefix a later Citus adds in it is taken too.  A session of someone
 * else's named so only refuses where it would otherwise make the
 * coordinator's IDs (uid_group_of_row()): a refusal, never a duplicate.
 */
static bool
uid_citus_task_backend(void)
{
	return application_name != NULL && strncmp(application_name, "citus_", strlen("citus_")) == 0;
}

/*
 * Reads the group from the catalog: pg_dist_local_group's row, and whether
 * pg_dist_node lists any node (a node that Citus's metadata is not synced
 * to, citus.enable_metadata_sync off when it was added or
 * stop_metadata_sync_to_node(), has it empty and its row says 0, the
 * coordinator's; so does a server on its own).  core/source.h's
 * uid_group_of_row() decides from the two.  Both tables are locked before
 * either is read, and both are read under one snapshot:
 * start_metadata_sync_to_node() sets the row and fills pg_dist_node in one
 * transaction, and a reading that saw the old row beside the new nodes
 * would take 0 in a task.
 */
static int32
uid_citus_read(void)
{
	Relation	rel;
	Relation	nodes = NULL;
	SysScanDesc scan;
	HeapTuple	tup;
	Snapshot	snap;
	int32		row = UID_GROUP_UNKNOWN;
	bool		has_nodes = false;

	local_group_rel = get_relname_relid("pg_dist_local_group", PG_CATALOG_NAMESPACE);
	if (!OidIsValid(local_group_rel))
		return UID_GROUP_NONE;
	node_rel = get_relname_relid("pg_dist_node", PG_CATALOG_NAMESPACE);
	rel = table_open(local_group_rel, AccessShareLock);
	if (OidIsValid(node_rel))
		nodes = table_open(node_rel, AccessShareLock);
	snap = RegisterSnapshot(GetCatalogSnapshot(local_group_rel));

	scan = systable_beginscan(rel, InvalidOid, false, snap, 0, NULL);
	tup = systable_getnext(scan);
	if (HeapTupleIsValid(tup) && RelationGetDescr(rel)->natts >= 1 &&
		TupleDescAttr(RelationGetDescr(rel), 0)->atttypid == INT4OID)
	{
		bool		isnull;
		Datum		d = heap_getattr(tup, 1, RelationGetDescr(rel), &isnull);

		if (!isnull && DatumGetInt32(d) >= 0)
			row = DatumGetInt32(d);
	}
	systable_endscan(scan);
	if (nodes != NULL)
	{
		scan = systable_beginscan(nodes, InvalidOid, false, snap, 0, NULL);
		has_nodes = HeapTupleIsValid(systable_getnext(scan));
		systable_endscan(scan);
		table_close(nodes, AccessShareLock);
	}
	UnregisterSnapshot(snap);
	table_close(rel, AccessShareLock);
	return uid_group_of_row(row, has_nodes, uid_citus_task_backend());
}

int32
uid_citus_group(void)
{
	uint64		at;
	int32		group;

	if (likely(uid_group_current(&cache, uid_ident_invals)))
		return cache.group;
	if (!registered)
	{
		CacheRegisterRelcacheCallback(uid_citus_relcache_changed, (Datum) 0);
		CacheRegisterSyscacheCallback(RELNAMENSP, uid_citus_names_changed, (Datum) 0);
		registered = true;
	}
	if (!IsTransactionState())
		return UID_GROUP_NONE;	/* no catalog to read: nothing generates here */
	at = uid_ident_invals;
	group = uid_citus_read();
	uid_group_keep(&cache, at, group);
	return group;
}

void
uid_citus_beyond(const char *typname, int32 group, uint32 max, const char *settings)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("Citus node group %d does not fit type %s (0..%u)", group, typname, max),
			 errdetail("With no identity set by hand, uid gives each node of a Citus cluster its node group id, and Citus gives each node it adds a new one."),
			 errhint("Lease identities from a pool (\"uid.coordinator\"), which hands the ids of nodes gone to new ones, or set %s on each node by hand.",
					 settings)));
}
