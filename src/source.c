/*
 * source.c
 *		The identity each type's IDs embed on a server that does not lease
 *		one: the type's hand setting in the server's record, else this
 *		database's Citus node group, else the type's default, refused where
 *		the database has a subscription.
 *
 * The order is core/source.h's (uid_id_source), and so is the way an id
 * becomes revts8's two fields (uid_id_split): a node group takes the place
 * of a lease id, field for field (identity.c's rows).  A hand setting is
 * one the server's configuration sets (the record holds -1 for one left at
 * its built-in default: published.c).  Every function here runs where a
 * generator works out its identity once per record and node group
 * (published.h's UidPerRecord), never per ID.
 */
#include "postgres.h"

#include "codec/revts8_codec.h"
#include "guc.h"
#include "published.h"
#include "source.h"
#include "subscription.h"
#include "state.h"

/* sno's partition and muid's medallion drawn at the server's start. */
static int64
uid_drawn(int bit)
{
	static int64 partition = -1;
	static int64 medallion = -1;
	const int64 lo = (INT64CONST(1) << 40) + 1;
	const int64 span = (INT64CONST(1) << 41) - lo;

	if (bit == UID_SET_PARTITION)
	{
		if (partition < 0)
			partition = (int64) (uid_boot_value(UID_SLOT_SNO) & 0xFFFF);
		return partition;
	}
	if (medallion < 0)
		medallion = lo + (int64) (uid_boot_value(UID_SLOT_MUID) % (uint64) span);
	return medallion;
}

UidIdSource
uid_unleased_field(int bit, int32 *group)
{
	UidIdInputs in = {.leased = false, .group = UID_GROUP_NONE};
	UidIdSource source;

	in.hand = uid_rec_value(uid_rec_field_of(bit)) >= 0;
	/* revts8's cluster is the hand's if either of its two settings is */
	if (bit == UID_SET_CLUSTER)
		in.hand = in.hand || uid_rec_value(UID_REC_GENERATOR) >= 0;
	if (!in.hand)
	{
		in.group = uid_citus_group();
		in.subscribed = uid_db_subscribed();
	}
	source = uid_id_source(&in);
	*group = in.group;
	return source;
}

bool
uid_revts8_cluster_alone(void)
{
	return uid_rec_value(UID_REC_GENERATOR) < 0 && uid_rec_value(UID_REC_CLUSTER) >= 0;
}

const char *
uid_unleased_refusal(int32 group)
{
	return group == UID_GROUP_UNSYNCED ?
		"(no ID is made in Citus's tasks here: this worker has no metadata, and its node group reads 0, the coordinator's)" :
		"(no ID is made: Citus's pg_dist_local_group is empty)";
}

/*
 * Why a default identity is refused where the database subscribes: the
 * words of the refusal's DETAIL and of uid_identity()'s note.
 */
static char *
uid_unleased_shared_reason(int bit)
{
	char	   *sub = uid_db_subscription_name();

	return psprintf("subscription \"%s\" brings rows from another server, which makes the same IDs unless %s is set on each server",
					sub ? sub : "?", uid_unleased_settings(bit));
}

const char *
uid_unleased_shared_note(int bit)
{
	return psprintf("(no ID is made: %s)", uid_unleased_shared_reason(bit));
}

const char *
uid_unleased_settings(int bit)
{
	switch (bit)
	{
		case UID_SET_PARTITION:
			return "\"uid.partition\"";
		case UID_SET_MEDALLION:
			return "\"uid.medallion\"";
		case UID_SET_CLUSTER:
			return "\"uid.generator\" or \"uid.cluster\"";
		default:
			return "\"uid.generator\"";
	}
}

/* uid_unleased_field() for a generator: errors where it refuses. */
static UidIdSource
uid_unleased_source(int bit, int32 *group)
{
	UidIdSource source = uid_unleased_field(bit, group);

	if (source == UID_ID_SHARED)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("uid makes no ID with a default identity in a database that takes rows from another server"),
				 errdetail("The database's %s; it is not set here.", uid_unleased_shared_reason(bit)),
				 errhint("Set %s to a value of its own on each server, or lease identities from a pool (\"uid.coordinator\"); see doc/multi-master.md.",
						 uid_unleased_settings(bit))));

	if (source == UID_ID_REFUSED && *group == UID_GROUP_UNSYNCED)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("this Citus worker has no metadata: its node group reads 0, the coordinator's"),
				 errdetail("A task of another node runs here, and this node's pg_dist_node is empty.  IDs made with the coordinator's node group would repeat the coordinator's."),
				 errhint("Run SELECT start_metadata_sync_to_node(host, port) on the coordinator, or set this node's identity by hand or lease it; see \"Node events\" in doc/citus.md.")));
	if (source == UID_ID_REFUSED)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("this node's Citus node group is not known: pg_catalog.pg_dist_local_group has no row"),
				 errdetail("uid gives each node of a Citus cluster the identity of its node group; Citus empties the table while it is upgraded."),
				 errhint("Finish the upgrade of Citus (citus_finish_pg_upgrade()), or set this server's identity by hand or lease it.")));
	return source;
}

int
uid_effective_partition(void)
{
	int64		v = uid_rec_value(UID_REC_PARTITION);
	int32		group;

	uid_rec_check(UID_SET_PARTITION);
	switch (uid_unleased_source(UID_SET_PARTITION, &group))
	{
		case UID_ID_HAND:
			return (int) v;
		case UID_ID_CITUS:
			if (group > 65535)
				uid_citus_beyond("sno", group, 65535, "\"uid.partition\"");
			return (int) group;
		default:
			return (int) uid_drawn(UID_SET_PARTITION);
	}
}

int64
uid_effective_medallion(void)
{
	int64		v = uid_rec_value(UID_REC_MEDALLION);
	int32		group;

	uid_rec_check(UID_SET_MEDALLION);
	switch (uid_unleased_source(UID_SET_MEDALLION, &group))
	{
		case UID_ID_HAND:
			return v;
		case UID_ID_CITUS:
			/* below the drawn ones, 2^40 + 1 and up */
			return group;
		default:
			return uid_drawn(UID_SET_MEDALLION);
	}
}

int
uid_unleased_generator(const char *typname, int max)
{
	int64		g = uid_rec_value(UID_REC_GENERATOR);
	int32		group;
	uint32		id;
	uint32		high;

	uid_rec_check(UID_SET_GENERATOR);
	switch (uid_unleased_source(UID_SET_GENERATOR, &group))
	{
		case UID_ID_HAND:
			if (g > max)
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("the value %d of \"uid.generator\" is out of range for type %s", (int) g, typname),
						 errdetail("Type %s takes \"uid.generator\" from 0 to %d.", typname, max)));
			return (int) g;
		case UID_ID_CITUS:
			if (!uid_id_split((uint32) group, (uint32) max + 1, (uint32) max, &id, &high))
				uid_citus_beyond(typname, group, (uint32) max, "\"uid.generator\"");
			return (int) id;
		default:
			return 0;
	}
}

/*
 * revts8 with uid.cluster alone: is the generator the node group?  A group
 * that cannot be told refuses (uid_unleased_source errors); with no group,
 * the generator is uid.generator's default beside the hand's cluster (a
 * subscription does not refuse it: the cluster is set).
 */
static UidIdSource
uid_revts8_group_source(int32 *group)
{
	UidIdSource source = uid_unleased_field(UID_SET_GENERATOR, group);

	return source == UID_ID_SHARED ? UID_ID_DEFAULT : uid_unleased_source(UID_SET_GENERATOR, group);
}

int
uid_unleased_revts8(void)
{
	int64		g = uid_rec_value(UID_REC_GENERATOR);
	int64		c = uid_rec_value(UID_REC_CLUSTER);
	const uint32 max = (REVTS8_CLUSTER_MAX + 1) * (REVTS8_GENERATOR_MAX + 1) - 1;
	int32		group;
	uint32		generator;
	uint32		cluster;

	uid_rec_check(UID_SET_GENERATOR);
	uid_rec_check(UID_SET_CLUSTER);
	/*
	 * uid.cluster alone (a Citus cluster told from another by hand): the
	 * generator is the node group, which must fit it alone.
	 */
	if (uid_revts8_cluster_alone() && uid_revts8_group_source(&group) == UID_ID_CITUS)
	{
		if (!uid_id_split_cluster((uint32) group, REVTS8_GENERATOR_MAX + 1, (uint32) c,
								  &generator, &cluster))
			uid_citus_beyond("revts8", group, REVTS8_GENERATOR_MAX,
							 "\"uid.generator\"");
		return (int) (generator | cluster << 8);
	}
	switch (uid_unleased_source(UID_SET_CLUSTER, &group))
	{
		case UID_ID_HAND:
			/* one of the two set: the other at its default, 0 */
			g = Max(g, 0);
			if (g > REVTS8_GENERATOR_MAX)
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("the value %d of \"uid.generator\" is out of range for type %s", (int) g, "revts8"),
						 errdetail("Type %s takes \"uid.generator\" from 0 to %d.", "revts8", REVTS8_GENERATOR_MAX)));
			return (int) (g | Max(c, 0) << 8);
		case UID_ID_CITUS:
			if (!uid_id_split((uint32) group, REVTS8_GENERATOR_MAX + 1, max, &generator, &cluster))
				uid_citus_beyond("revts8", group, max,
								 "\"uid.generator\" and \"uid.cluster\"");
			return (int) (generator | cluster << 8);
		default:
			return 0;
	}
}

int64
uid_identity_setting(int bit, bool *drawn)
{
	int64		v;

	(void) uid_rec_sync();
	uid_rec_check(bit);
	v = uid_rec_value(uid_rec_field_of(bit));
	*drawn = (bit == UID_SET_PARTITION || bit == UID_SET_MEDALLION) && v < 0;
	return *drawn ? uid_drawn(bit) : Max(v, 0);
}
