/*
 * identity.h
 *		The identity each type embeds (identity.c).
 */
#ifndef UID_IDENTITY_H
#define UID_IDENTITY_H

#include "guc.h"
#include "state.h"

/*
 * uid_config()'s effective value of an identity setting on a
 * server that leases its identity (what IDs carry), NULL on one that does
 * not.
 */
extern char *uid_ident_effective(UidSettingBit setting);

/* The value a type embeds for a lease id; errors if it does not fit 0..max. */
extern uint32 uid_ident_value(int32 ident, const char *typname, uint32 max);


#endif							/* UID_IDENTITY_H */
