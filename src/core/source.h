/*
 * core/source.h
 *		Where the identity a type's IDs embed comes from, how an identity id
 *		becomes a type's fields, and how a process keeps the one that comes
 *		from Citus current.
 *
 * Across servers, IDs stay apart only by the identity each server embeds
 * (sno's partition, muid's medallion, snowflake_si's machine id, revts8's
 * generator and cluster, uid60's worker).  It comes from, in this order:
 *
 *	lease	uid.coordinator is set: an id leased from a pool (identity.c);
 *	hand	the server's record holds a value of one of the type's identity
 *			settings (uid.partition, uid.medallion, uid.generator,
 *			uid.cluster), set in the configuration by hand;
 *	citus	the database has Citus, whose metadata gives every node of a
 *			cluster a node group id of its own (coordinator 0, workers from
 *			1, never handed out twice: a sequence on the coordinator), the
 *			way Citus's own sequences keep nodes apart;
 *	default	the built-in value: drawn at the server's start (sno, muid), or
 *			0, the same on every server; refused (shared) where the database
 *			takes rows from another server by logical replication (it has a
 *			subscription): that server makes IDs with the same default unless
 *			its identity is set, and the two meet in the tables the
 *			subscription writes into.  A random draw is a bet, not a
 *			construction: sno's and muid's are refused there too.
 *
 * Citus's group comes before a subscription: Citus itself subscribes one
 * node of a cluster to another to move a shard, and node groups keep the
 * nodes of one cluster apart whatever moves between them.  A subscription
 * is a meeting point only where the identity would otherwise be the
 * default: where it is set by hand, leased or Citus's, the server that
 * publishes must not make IDs with the same (doc/multi-master.md).
 *
 * A lease id and a node group become a type's fields the same way: the id
 * itself, or revts8's 64 generators by 16 clusters (uid_id_split).
 *
 * A node's group changes when Citus adds it to a cluster (from 0, which is
 * also the coordinator's, to its own): every process must then stop using
 * the group it read.  Citus sends a relation cache invalidation of
 * pg_dist_local_group whenever its row changes, and PostgreSQL delivers it
 * to every process before that process takes a lock it did not hold, so
 * before it opens a table of the cluster's; a process keeps the group it
 * read only while no such invalidation (nor a catalog change that may add or
 * drop Citus) has reached it since (UidGroupCache).
 *
 * Plain C over core/platform.h: the server (citus.c, identity.c) and the
 * simulator (test/sim) run these rules.
 */
#ifndef UID_CORE_SOURCE_H
#define UID_CORE_SOURCE_H

#include "core/platform.h"

typedef enum UidIdSource
{
	UID_ID_REFUSED = 0,			/* no identity may be used: refuse */
	UID_ID_LEASE,
	UID_ID_HAND,
	UID_ID_CITUS,
	UID_ID_DEFAULT,
	UID_ID_SHARED,				/* the default, where another server's rows come
								 * in (a subscription): refuse */
} UidIdSource;

/* The node group of a database without Citus. */
#define UID_GROUP_NONE (-1)
/* Citus without its node group's row (pg_dist_local_group empty: an upgrade of Citus). */
#define UID_GROUP_UNKNOWN (-2)
/*
 * A worker that Citus's metadata is not synced to, running another node's
 * task: its group reads 0, the coordinator's (citus.c).
 */
#define UID_GROUP_UNSYNCED (-3)

/* What decides a type's source, as one process sees it. */
typedef struct UidIdInputs
{
	bool		leased;			/* the record: uid.coordinator is set */
	bool		hand;			/* the record holds a value of one of the type's settings */
	int32		group;			/* the database's Citus node group, or UID_GROUP_* */
	bool		subscribed;		/* the database has a subscription (of logical
								 * replication): another server's rows come in */
} UidIdInputs;

static inline UidIdSource
uid_id_source(const UidIdInputs *in)
{
	if (in->leased)
		return UID_ID_LEASE;
	if (in->hand)
		return UID_ID_HAND;
	if (in->group < UID_GROUP_NONE)
		return UID_ID_REFUSED;
	if (in->group >= 0)
		return UID_ID_CITUS;
	if (in->subscribed)
		return UID_ID_SHARED;
	return UID_ID_DEFAULT;
}

/*
 * An identity id (a lease id or a node group) as a type's fields: low =
 * id % lows, high = id / lows, where the type has lows values of its low
 * field (revts8: 64 generators) and, for a type of one field, lows is its
 * number of values (high is then 0).  False if the id is beyond max, the
 * largest id the type's fields hold.
 */
static inline bool
uid_id_split(uint32 id, uint32 lows, uint32 max, uint32 *low, uint32 *high)
{
	if (id > max)
		return false;
	*low = id % lows;
	*high = id / lows;
	return true;
}

/*
 * revts8's fields of a node group where uid.cluster alone is set (source.c's
 * uid_unleased_revts8(): a Citus cluster told from another by hand): the
 * generator is the whole group, which must fit it alone (id below lows),
 * and the cluster the hand value.  False if the group does not fit.
 */
static inline bool
uid_id_split_cluster(uint32 id, uint32 lows, uint32 cluster, uint32 *low, uint32 *high)
{
	if (id >= lows)
		return false;
	*low = id;
	*high = cluster;
	return true;
}

/*
 * The node group a process reads (citus.c's uid_citus_read()) from the row
 * of pg_dist_local_group (row: its value, UID_GROUP_UNKNOWN for no row,
 * UID_GROUP_NONE for no such table), whether pg_dist_node lists any node,
 * and whether the process is a task Citus opened from another node.  A row
 * of 0 with no node is a worker without metadata (or a server on its own):
 * in a task, run there by another node, it is not the coordinator's 0.
 */
static inline int32
uid_group_of_row(int32 row, bool has_nodes, bool task)
{
	if (row == 0 && !has_nodes)
		return task ? UID_GROUP_UNSYNCED : 0;
	return row;
}

/*
 * A process's copy of its database's node group.  invals counts, in the
 * process, the invalidations that may change it (of pg_dist_local_group, of
 * any relation's name: Citus created or dropped); the copy is current while
 * it was read at the count there is now.  Whether the database has a
 * subscription is kept the same way (group 1 or 0; invals: of
 * pg_subscription).
 */
typedef struct UidGroupCache
{
	uint64		read_at;		/* invals when group was read; UINT64_MAX: never */
	int32		group;
} UidGroupCache;

#define UID_GROUP_CACHE_INIT {UINT64_MAX, UID_GROUP_NONE}

static inline bool
uid_group_current(const UidGroupCache *c, uint64 invals)
{
	return c->read_at == invals;
}

/*
 * Keeps a group read when the count was invals (read before the reading
 * began: an invalidation that came during the reading makes the next use
 * read again).  UID_GROUP_UNKNOWN is never kept: citus_finish_pg_upgrade()
 * fills the empty table with an INSERT, on which Citus's trigger (AFTER
 * UPDATE) sends no invalidation, so the next use must read it again.
 */
static inline void
uid_group_keep(UidGroupCache *c, uint64 invals, int32 group)
{
	if (group == UID_GROUP_UNKNOWN)
		return;
	c->group = group;
	c->read_at = invals;
}

#endif							/* UID_CORE_SOURCE_H */
