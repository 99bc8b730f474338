/*
 * snowflake_si.h
 *		The snowflake_si type: a 53-bit integer held as int8, by value.
 */
#ifndef UID_SNOWFLAKE_SI_H
#define UID_SNOWFLAKE_SI_H

#include "fmgr.h"

#include "codec/snowflake_si_codec.h"

#define DatumGetSnowflakeSi(X)		((uint64) DatumGetInt64(X))
#define SnowflakeSiGetDatum(X)		Int64GetDatum((int64) (X))
#define PG_GETARG_SNOWFLAKE_SI(n)	DatumGetSnowflakeSi(PG_GETARG_DATUM(n))
#define PG_RETURN_SNOWFLAKE_SI(x)	return SnowflakeSiGetDatum(x)

#endif							/* UID_SNOWFLAKE_SI_H */
