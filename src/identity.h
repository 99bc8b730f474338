/*
 * identity.h
 *		A server's identity leased from a coordinator (identity.c).
 */
#ifndef UID_IDENTITY_H
#define UID_IDENTITY_H

#include "guc.h"
#include "state.h"

/*
 * The identity leased from a coordinator (identity.c).  Once a tick is
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
 * uid_config()'s effective value of an identity setting on a
 * server that leases its identity (what IDs carry), NULL on one that does
 * not.
 */
extern char *uid_ident_effective(UidSettingBit setting);

/* The value a type embeds for a lease id; errors if it does not fit 0..max. */
extern uint32 uid_ident_value(int32 ident, const char *typname, const char *field,
							  uint32 max);


#endif							/* UID_IDENTITY_H */
