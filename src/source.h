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
extern int	uid_unleased_generator(const char *typname, const char *field, int max);

/* revts8's generator | cluster << 8: uid.generator and uid.cluster, the node group, or 0. */
extern int	uid_unleased_revts8(void);

/*
 * uid_config()'s value of an identity setting on a server that does not
 * lease: what IDs made now carry, and from where.
 */
extern char *uid_unleased_words(int bit);

/*
 * An identity setting's value in the record (a drawn partition or medallion
 * resolved, an unset uid.generator or uid.cluster 0); *drawn if it was
 * drawn at the server's start.  The hand or default value, never the node
 * group's.
 */
extern int64 uid_identity_setting(int bit, bool *drawn);

#endif							/* UID_SOURCE_H */
