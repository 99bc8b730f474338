/*
 * ident_inval.h
 *		One count, per process, of the catalog invalidations that may change
 *		where an identity comes from (ident_inval.c).
 *
 * Two catalog answers decide a default identity's source beside the
 * settings record (core/source.h): this database's Citus node group
 * (citus.c) and whether it has a subscription (subscription.c).  Each is
 * read once and kept until an invalidation of its catalog reaches this
 * process; every such invalidation adds one here.  Each kept answer, and
 * each value a generator works out once per record (published.h's
 * UidPerRecord), is kept with the count it was read at, and read again
 * when the count has moved: one load and compare per ID however many
 * catalogs are watched.  An invalidation of one catalog also makes the
 * other's answer be read again, once; they are rare (DDL).
 */
#ifndef UID_IDENT_INVAL_H
#define UID_IDENT_INVAL_H

#include "compat.h"

extern UID_HIDDEN uint64 uid_ident_invals;

#endif							/* UID_IDENT_INVAL_H */
