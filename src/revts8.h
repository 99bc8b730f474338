/*
 * revts8.h
 *		The revts8 type: 8 bytes by value.  The datum holds the time key K
 *		(see codec/revts8_codec.h), so the default order is an unsigned
 *		integer comparison; the canonical bit-reversed layout appears only
 *		in text, binary I/O, casts and revts8_bytes_ops.
 */
#ifndef UID_REVTS8_H
#define UID_REVTS8_H

#include "fmgr.h"

#include "codec/revts8_codec.h"

#define DatumGetRevts8Key(X)	((uint64) DatumGetInt64(X))
#define Revts8KeyGetDatum(X)	Int64GetDatum((int64) (X))
#define PG_GETARG_REVTS8_KEY(n)	DatumGetRevts8Key(PG_GETARG_DATUM(n))
#define PG_RETURN_REVTS8_KEY(x)	return Revts8KeyGetDatum(x)

#endif							/* UID_REVTS8_H */
