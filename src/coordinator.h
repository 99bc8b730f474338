/*
 * coordinator.h
 *		The conversation with the coordinator (coordinator.c).
 */
#ifndef UID_COORDINATOR_H
#define UID_COORDINATOR_H

#include "compat.h"
#include "ident_store.h"

/*
 * The pause before measuring again after a lease measured beyond the bound,
 * and before a generator that found no lease tries again after a failure.
 */
#define UID_IDENT_RETRY_EXPIRED_US INT64CONST(1000000)

/*
 * One conversation, by the backend that holds busy with stamp: renews the
 * lease for key or claims one, and publishes it.  NULL, or what failed
 * (the coordinator's SQLSTATE in sqlstate, 6 bytes, empty if none).
 */
extern UID_HIDDEN char *uid_ident_talk(uint64 stamp, uint64 key, char *sqlstate);

/*
 * Raises the refusal of a lease measured further off than the bound; who
 * is the context ("while generating an ID with sno_new()").
 */
UID_NORETURN extern UID_HIDDEN void uid_ident_refuse_skew(const char *who,
											   const UidIdentSnap *s) UID_NORETURN_AFTER;

/* This server's host name, as its holder string and lease key carry it. */
extern UID_HIDDEN char *uid_host_name(void);

#endif							/* UID_COORDINATOR_H */
