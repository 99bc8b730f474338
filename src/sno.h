/*
 * sno.h
 *		The sno type: 10 bytes by reference, char alignment.
 */
#ifndef UID_SNO_H
#define UID_SNO_H

#include "fmgr.h"

#include "codec/sno_codec.h"

typedef struct sno_t
{
	uint8		data[SNO_LEN];
} sno_t;

#define DatumGetSnoP(X)		((sno_t *) DatumGetPointer(X))
#define SnoPGetDatum(X)		PointerGetDatum(X)
#define PG_GETARG_SNO_P(n)	DatumGetSnoP(PG_GETARG_DATUM(n))
#define PG_RETURN_SNO_P(x)	return SnoPGetDatum(x)

#endif							/* UID_SNO_H */
