/*
 * source.h
 *		The identity each type's IDs embed on a server that does not lease
 *		one: its hand setting, the Citus node group, or its default
 *		(source.c; the order is core/source.h's).  After uid_rec_sync().
 */
#ifndef UID_SOURCE_H
#define UID_SOURCE_H

#include "citus.h"

/* sno's partition: uid.partition, the node group, or drawn at the server's start. */
extern int	uid_effective_partition(void);

/* muid's medallion: uid.medallion, the node group, or drawn at the server's start. */
extern int64 uid_effective_medallion(void);

/*
 * A field that uid.generator sets (snowflake_si's machine id, uid60's
 * worker, of at most max): uid.generator, the node group, or 0.  Errors if
 * the value does not fit.
 */
extern int	uid_unleased_generator(const char *typname, int max);

/* revts8's generator | cluster << 8: uid.generator and uid.cluster, the node group, or 0. */
extern int	uid_unleased_revts8(void);

/*
 * Where the identity field that setting bit sets comes from on a server
 * that does not lease one: the hand setting (the record holds a value of
 * it; for revts8's cluster, of uid.generator or uid.cluster), this
 * database's node group (*group), or the default; UID_ID_REFUSED (with
 * *group UID_GROUP_UNKNOWN or UID_GROUP_UNSYNCED) where the group cannot
 * be told.  Never errors: what generators and reports both decide from.
 */
extern UidIdSource uid_unleased_field(int bit, int32 *group);

/*
 * revts8 with uid.cluster alone set by hand (a Citus cluster told from
 * another): its generator is the node group, which must fit it alone.
 */
extern bool uid_revts8_cluster_alone(void);

/*
 * The setting (or settings) that set the identity field of setting bit by
 * hand, quoted, for messages: "uid.generator" or "uid.cluster" for revts8's
 * cluster.
 */
extern const char *uid_unleased_settings(int bit);

/*
 * Why the generators refuse a default identity where the database has a
 * subscription (UID_ID_SHARED), in words, for reports.
 */
extern const char *uid_unleased_shared_note(int bit);

/* Why the generators refuse a node group (below UID_GROUP_NONE), in words. */
extern const char *uid_unleased_refusal(int32 group);

/*
 * An identity setting's value in the record (a drawn partition or medallion
 * resolved, an unset uid.generator or uid.cluster 0); *drawn if it was
 * drawn at the server's start.  The hand or default value, never the node
 * group's.
 */
extern int64 uid_identity_setting(int bit, bool *drawn);

#endif							/* UID_SOURCE_H */
