/*
 * uid60.h
 *		The uid60 type: a 60-bit integer held as int8, by value.
 */
#ifndef UID_UID60_H
#define UID_UID60_H

#include "fmgr.h"

#include "codec/uid60_codec.h"

#define DatumGetUid60(X)		((uint64) DatumGetInt64(X))
#define Uid60GetDatum(X)		Int64GetDatum((int64) (X))
#define PG_GETARG_UID60(n)		DatumGetUid60(PG_GETARG_DATUM(n))
#define PG_RETURN_UID60(x)		return Uid60GetDatum(x)

#endif							/* UID_UID60_H */
