/*
 * lease.h
 *		The lease in WAL and the fence of each server incarnation (lease.c).
 */
#ifndef UID_LEASE_H
#define UID_LEASE_H

#include "state.h"

/*
 * This backend's server incarnation (see lease.c), UINT64_MAX until it has
 * checked that the server is out of recovery; a slot whose fenced word
 * equals it has been fenced in this incarnation.
 */
extern UID_HIDDEN uint64 uid_incarnation;

/*
 * The slow path of uid_gen_slot() (generate.h): maps the shared state, refuses
 * during recovery and in a read-only transaction, and fences the slot once
 * per incarnation.
 */
extern UidSlot *uid_gen_prepare(const UidClockSpec *spec, bool unique);

/* WAL holds a lease of at least need_us when it returns (lease.c). */
extern void uid_lease_extend(uint64 need_us);

#endif							/* UID_LEASE_H */
