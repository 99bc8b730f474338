/*
 * muid.h
 *		The muid type: 16 bytes by reference, char alignment (like uuid, so
 *		the casts to and from uuid need no function).
 */
#ifndef UID_MUID_H
#define UID_MUID_H

#include "fmgr.h"

#include "codec/muid_codec.h"

typedef struct muid_t
{
	uint8		data[MUID_LEN];
} muid_t;

#define DatumGetMuidP(X)	((muid_t *) DatumGetPointer(X))
#define MuidPGetDatum(X)	PointerGetDatum(X)
#define PG_GETARG_MUID_P(n)	DatumGetMuidP(PG_GETARG_DATUM(n))
#define PG_RETURN_MUID_P(x)	return MuidPGetDatum(x)

/* Forgets the transaction's muid timestamp and offsets (at transaction end). */
extern void muid_xact_end(void);

#endif							/* UID_MUID_H */
