/*
 * guc.h
 *		The uid.* settings.  All are superuser-only: a user who could set
 *		them could mint another node's IDs.  The two snowflake_si layout
 *		settings are server-wide (see guc.c).
 */
#ifndef UID_GUC_H
#define UID_GUC_H

extern int	uid_generator;
extern int	uid_cluster;
extern int	uid_partition;
extern int	uid_snowflake_si_index_bits;
extern int64 uid_medallion_value;	/* -1: drawn when the server starts */
extern int64 uid_snowflake_si_epoch_ms; /* Unix milliseconds */

extern void uid_guc_init(void);

/* Effective values, resolving "drawn when the server starts". */
extern int	uid_effective_partition(void);
extern int64 uid_effective_medallion(void);

#endif							/* UID_GUC_H */
