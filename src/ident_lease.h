/*
 * ident_lease.h
 *		The life of the identity leased from a coordinator (ident_lease.c).
 */
#ifndef UID_IDENT_LEASE_H
#define UID_IDENT_LEASE_H

#include "guc.h"
#include "compat.h"
#include "state.h"

/*
 * The identity leased from a coordinator.  Once a tick is
 * allocated: the lease id to embed, -1 for the identity settings, or
 * UID_IDENT_AGAIN when the tick may not be issued under the lease (it begins
 * before the lease's floor, whose marks are now raised, or the lease was
 * renewed or claimed meanwhile): allocate again.  Errors when no lease can
 * be had.
 */
#define UID_IDENT_AGAIN (-2)
extern int32 uid_ident_check(UidSlot *slot, const UidClockSpec *spec, bool unique,
							 uint64 tick);

/*
 * What a lease is for: the coordinator, the pool and its size, and this
 * server's system, timeline, state file and host.  Never 0.
 */
extern UID_HIDDEN uint64 uid_ident_key(void);

/* A time in Unix microseconds as a timestamptz's text. */
extern UID_HIDDEN const char *uid_us_text(uint64 us);

#endif							/* UID_IDENT_LEASE_H */
