/*
 * glue.h
 *		PostgreSQL glue shared by the ID types: error reporting for bad
 *		input, time conversion, the comparison functions of the 8-byte
 *		by-value types, and the comparator, sortsupport, hashing and byte
 *		conversions of the fixed-length by-reference types.
 */
#ifndef UID_GLUE_H
#define UID_GLUE_H

#include "fmgr.h"
#include "lib/hyperloglog.h"
#include "lib/stringinfo.h"
#include "nodes/nodes.h"
#include "utils/fmgrprotos.h"
#include "utils/sortsupport.h"
#include "utils/timestamp.h"

#include "clock.h"
#include "codec/bits.h"

/* PostgreSQL's epoch, 2000-01-01 00:00:00+00, in Unix milliseconds and microseconds */
#define PG_EPOCH_UNIX_MS INT64CONST(946684800000)
#define PG_EPOCH_UNIX_US (PG_EPOCH_UNIX_MS * 1000)

/*
 * Reports text input rejected by a codec: 22P02 with core's wording, or
 * 22003 for a value beyond the type's range.  On
 * PostgreSQL 16+ it is a soft error when escontext asks for one, and the
 * caller must then return; expected describes the accepted form.
 */
extern void uid_text_error(Node *escontext, const char *typname,
						   const char *input, uid_status status,
						   size_t bad_pos, const char *expected);

/* Errors with 22003 unless min <= value <= max. */
extern void uid_check_field(const char *typname, const char *field,
							int64 value, int64 min, int64 max);

/*
 * The tick of a format's clock that contains t (round_up false: floor), or
 * the first tick at or after t (round_up true: times before the format's
 * range give tick 0).  Errors with 22008 when out of range.
 */
extern uint64 uid_time_to_tick(const UidClockSpec *spec, TimestampTz t,
							   bool round_up);
extern TimestampTz uid_tick_to_time(const UidClockSpec *spec, uint64 tick);

/* Fixed-length byte strings, compared as unsigned bytes. */
static inline int
uid_bytes_cmp(const void *a, const void *b, int len)
{
	return memcmp(a, b, len);
}

/*
 * Sortsupport state.  An abbreviation function maps a value to a 64-bit key
 * whose unsigned order never contradicts the full order (equal keys are
 * resolved by the full comparator).  It may keep a reference value in
 * ref/have_ref: keys are only ever compared within one sort, and tuplesort
 * drops abbreviation before it merges runs.
 */
typedef struct UidSortState UidSortState;
typedef uint64 (*UidAbbrevFn) (const uint8 *p, UidSortState *st);

struct UidSortState
{
	int			len;
	UidAbbrevFn abbrev;
	bool		have_ref;
	uint64		ref;
	int64		input_count;
	bool		estimating;
	hyperLogLogState abbr_card;
};

/* The first 8 bytes as a big-endian integer, as uuid.c does. */
extern uint64 uid_abbrev_prefix8(const uint8 *p, UidSortState *st);

extern void uid_bytes_sortsupport(SortSupport ssup, int len, UidAbbrevFn abbrev);
extern Datum uid_bytes_hash(const void *p, int len);
extern Datum uid_bytes_hash_extended(const void *p, int len, uint64 seed);
extern void *uid_bytes_recv(StringInfo buf, int len, const char *typname);

/*
 * The functions of comparisons.sql.in for a by-value type whose datum is a
 * 64-bit integer in the type's btree order, read as ctype: int64 where the
 * values are non-negative int64s, uint64 for a key in unsigned order;
 * ssup_cmp is core's datum comparator for that order.  One comparator,
 * T_cmp_internal, serves every operator and the btree support; the hashes
 * are bigint's (frozen in core), so equal values hash as bigints do.
 */
#define UID_INT64_CMP_FUNC(name, T, ctype, op) \
PG_FUNCTION_INFO_V1(name); \
Datum \
name(PG_FUNCTION_ARGS) \
{ \
	PG_RETURN_BOOL(T##_cmp_internal((ctype) PG_GETARG_INT64(0), \
									(ctype) PG_GETARG_INT64(1)) op 0); \
}

#define UID_INT64_COMPARISONS(T, ctype, ssup_cmp) \
static inline int \
T##_cmp_internal(ctype a, ctype b) \
{ \
	return (a > b) - (a < b); \
} \
UID_INT64_CMP_FUNC(T##_eq, T, ctype, ==) \
UID_INT64_CMP_FUNC(T##_ne, T, ctype, !=) \
UID_INT64_CMP_FUNC(T##_lt, T, ctype, <) \
UID_INT64_CMP_FUNC(T##_le, T, ctype, <=) \
UID_INT64_CMP_FUNC(T##_gt, T, ctype, >) \
UID_INT64_CMP_FUNC(T##_ge, T, ctype, >=) \
PG_FUNCTION_INFO_V1(T##_cmp); \
Datum \
T##_cmp(PG_FUNCTION_ARGS) \
{ \
	PG_RETURN_INT32(T##_cmp_internal((ctype) PG_GETARG_INT64(0), \
									 (ctype) PG_GETARG_INT64(1))); \
} \
PG_FUNCTION_INFO_V1(T##_sortsupport); \
Datum \
T##_sortsupport(PG_FUNCTION_ARGS) \
{ \
	((SortSupport) PG_GETARG_POINTER(0))->comparator = ssup_cmp; \
	PG_RETURN_VOID(); \
} \
PG_FUNCTION_INFO_V1(T##_hash); \
Datum \
T##_hash(PG_FUNCTION_ARGS) \
{ \
	return DirectFunctionCall1(hashint8, PG_GETARG_DATUM(0)); \
} \
PG_FUNCTION_INFO_V1(T##_hash_extended); \
Datum \
T##_hash_extended(PG_FUNCTION_ARGS) \
{ \
	return DirectFunctionCall2(hashint8extended, PG_GETARG_DATUM(0), \
							   PG_GETARG_DATUM(1)); \
}

/* The binary form of the 8-byte by-value types: a big-endian 64-bit value. */
extern uint64 uid_recv_uint64(StringInfo buf, const char *typname);
extern bytea *uid_send_uint64(uint64 v);
extern bytea *uid_bytes_send(const void *p, int len);
extern bytea *uid_bytes_to_bytea(const void *p, int len);
extern void *uid_bytea_to_bytes(const bytea *b, int len, const char *typname);

#endif							/* UID_GLUE_H */
