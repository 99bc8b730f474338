/*
 * citus.h
 *		The Citus node group of this database (citus.c): the identity a
 *		node's IDs embed when it neither leases one nor has one set by hand
 *		(core/source.h says the order).
 */
#ifndef UID_CITUS_H
#define UID_CITUS_H

#include "compat.h"
#include "core/source.h"

/*
 * This database's Citus node group: UID_GROUP_NONE where Citus is not
 * installed, UID_GROUP_UNKNOWN where its row is missing.  Reads the catalog
 * only when an invalidation may have changed it.  In a transaction.
 */
extern int32 uid_citus_group(void);

/*
 * Errors: node group group is beyond max, the largest identity typname
 * embeds; settings names the hand settings that would replace it.
 */
UID_NORETURN extern void uid_citus_beyond(const char *typname, int32 group,
										  uint32 max,
										  const char *settings) UID_NORETURN_AFTER;

/*
 * This node's snowflake_si layout (epoch_ms, index_bits) is not the one
 * uid_citus_check() found its cluster's nodes to share: errors where the
 * index width differs (this node's machine ids could then be another's),
 * warns once per record rec where the base clock alone does.
 */
extern void uid_citus_disagrees(int64 epoch_ms, int index_bits, uint64 rec);

#endif							/* UID_CITUS_H */
