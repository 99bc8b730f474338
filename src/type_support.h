/*
 * type_support.h
 *		What every ID type's SQL functions share: error reporting for bad
 *		input, time conversion, the comparison functions of the 8-byte
 *		by-value types, and the comparator, sortsupport, hashing and byte
 *		conversions of the fixed-length by-reference types.
 */
#ifndef UID_TYPE_SUPPORT_H
#define UID_TYPE_SUPPORT_H

#include "fmgr.h"
#include "lib/hyperloglog.h"
#include "lib/stringinfo.h"
#include "nodes/nodes.h"
#include "utils/fmgrprotos.h"
#include "utils/sortsupport.h"
#include "utils/timestamp.h"

#include "codec/bits.h"
#include "sql_api.h"

/*
 * The 8-byte types are passed by value and abbreviated keys are 64-bit
 * Datums compared as integers: both need 8-byte Datums.
 */
#if SIZEOF_DATUM < 8
#error "uid needs a 64-bit build of PostgreSQL (8-byte Datum)"
#endif


/*
 * Reports text input rejected by a codec: 22P02 with core's wording, or
 * 22003 for a value beyond the type's range.  On
 * PostgreSQL 16+ it is a soft error when escontext asks for one, and the
 * caller must then return; expected describes the accepted form.
 */
extern void uid_text_error(Node *escontext, const char *typname,
						   const char *input, uid_status status,
						   size_t bad_pos, const char *expected);

/*
 * Errors with 22003 unless min <= value <= max; returns value.  arg is the
 * SQL function's argument that gave the value ("meta", "index_bits"): a
 * name the message quotes, never a word of its sentence.
 */
extern int64 uid_check_field(const char *typname, const char *arg,
							 int64 value, int64 min, int64 max);

/*
 * Where a 64-bit value from outside came from.  Each source has messages
 * of its own, written whole, rather than a word spliced into one.
 */
typedef enum UidValueFrom
{
	UID_FROM_BINARY,			/* binary input (T_recv) */
	UID_FROM_BYTEA,				/* a cast from bytea */
	UID_FROM_BIGINT				/* a cast from bigint */
} UidValueFrom;

/*
 * A 64-bit value of a type whose values are 0 .. max (snowflake_si, uid60),
 * or an error with sqlstate: 22003 for a cast, 22P03 for binary input.
 */
extern uint64 uid_check_range(const char *typname, int64 value, uint64 max,
							  int sqlstate, UidValueFrom from);


/*
 * The tick of a format's clock that contains t (round_up false: floor), or
 * the first tick at or after t (round_up true: times before the format's
 * range give tick 0).  Errors with 22008 when out of range.
 */
struct UidClockSpec;				/* core/alloc.h */
extern uint64 uid_time_to_tick(const struct UidClockSpec *spec, TimestampTz t,
							   bool round_up);
extern TimestampTz uid_tick_to_time(const struct UidClockSpec *spec, uint64 tick);

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
	uint64		ref2;			/* more of the reference, if a type needs it */
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
 * T_smaller and T_larger, the transition functions of min(T) and max(T),
 * given cmp, an expression comparing the arguments 0 and 1 of fcinfo.
 * They return one of their arguments, as core's do.
 */
#define UID_SMALLER_LARGER(T, cmp) \
PG_FUNCTION_INFO_V1(T##_smaller); \
Datum \
T##_smaller(PG_FUNCTION_ARGS) \
{ \
	return (cmp) <= 0 ? PG_GETARG_DATUM(0) : PG_GETARG_DATUM(1); \
} \
PG_FUNCTION_INFO_V1(T##_larger); \
Datum \
T##_larger(PG_FUNCTION_ARGS) \
{ \
	return (cmp) >= 0 ? PG_GETARG_DATUM(0) : PG_GETARG_DATUM(1); \
}

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
UID_SMALLER_LARGER(T, T##_cmp_internal((ctype) PG_GETARG_INT64(0), \
										(ctype) PG_GETARG_INT64(1))) \
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

/*
 * The text I/O both kinds of type share.  UID_DECODE_OR_RETURN decodes the
 * argument text s into *out with T_decode, or reports the text error
 * (expected describes the accepted form) and returns NULL: soft where
 * escontext asks for it.  UID_TEXT_OUT defines T_out: T_encode of arg
 * writes at most TEXT_LEN characters and terminates a shorter text itself.
 */
#define UID_DECODE_OR_RETURN(T, s, out, expected) \
do { \
	size_t		bad_pos = 0; \
	uid_status	st = T##_decode(s, strlen(s), out, &bad_pos); \
\
	if (st != UID_OK) \
	{ \
		uid_text_error(fcinfo->context, #T, s, st, bad_pos, expected); \
		PG_RETURN_NULL(); \
	} \
} while (0)

#define UID_TEXT_OUT(T, TEXT_LEN, arg) \
PG_FUNCTION_INFO_V1(T##_out); \
Datum \
T##_out(PG_FUNCTION_ARGS) \
{ \
	char	   *s = palloc(TEXT_LEN + 1); \
\
	T##_encode(arg, s); \
	s[TEXT_LEN] = '\0'; \
	PG_RETURN_CSTRING(s); \
}

/*
 * The text and binary I/O of an 8-byte by-value type whose datum is a
 * 64-bit key: defines T_in, T_out, T_recv and T_send.  Text (through
 * T_decode and T_encode, as above) and binary (big-endian) both carry the
 * codec's 64-bit value: key_of(v) is the datum of a valid codec value,
 * value_of(k) the codec value of a datum (UID_KEY_IS_VALUE where the two
 * are one), and checked(v, sqlstate, from) the datum of a codec value from
 * outside (from: a UidValueFrom), or an error with sqlstate (22P03 for
 * binary input).
 */
#define UID_KEY_IS_VALUE(v)	(v)

#define UID_INT64_TYPE_IO(T, TEXT_LEN, expected, key_of, value_of, checked) \
PG_FUNCTION_INFO_V1(T##_in); \
Datum \
T##_in(PG_FUNCTION_ARGS) \
{ \
	char	   *s = PG_GETARG_CSTRING(0); \
	uint64		v = 0; \
\
	UID_DECODE_OR_RETURN(T, s, &v, expected); \
	PG_RETURN_INT64((int64) key_of(v)); \
} \
UID_TEXT_OUT(T, TEXT_LEN, value_of((uint64) PG_GETARG_INT64(0))) \
PG_FUNCTION_INFO_V1(T##_recv); \
Datum \
T##_recv(PG_FUNCTION_ARGS) \
{ \
	PG_RETURN_INT64((int64) checked(uid_recv_uint64((StringInfo) PG_GETARG_POINTER(0), #T), \
									ERRCODE_INVALID_BINARY_REPRESENTATION, \
									UID_FROM_BINARY)); \
} \
PG_FUNCTION_INFO_V1(T##_send); \
Datum \
T##_send(PG_FUNCTION_ARGS) \
{ \
	PG_RETURN_BYTEA_P(uid_send_uint64(value_of((uint64) PG_GETARG_INT64(0)))); \
}

/*
 * The functions of a fixed-length by-reference type that follow from its
 * length and its codec: text I/O through T_decode and T_encode (expected
 * describes the accepted text in errors), binary I/O, the six comparison
 * operators and the btree comparator (all byte order), the two hashes and
 * the bytea casts.  Defines T_in, T_out, T_recv, T_send, T_eq, T_ne, T_lt,
 * T_le, T_gt, T_ge, T_cmp, T_smaller, T_larger, T_hash, T_hash_extended,
 * T_to_bytea and bytea_to_T.  A type adds its sortsupport (with its own abbreviated key),
 * accessors and generator.
 */
#define UID_BYTES_ARG(n)	((const uint8 *) PG_GETARG_POINTER(n))

#define UID_BYTES_CMP_FUNC(T, LEN, name, op) \
PG_FUNCTION_INFO_V1(T##_##name); \
Datum \
T##_##name(PG_FUNCTION_ARGS) \
{ \
	PG_RETURN_BOOL(uid_bytes_cmp(UID_BYTES_ARG(0), UID_BYTES_ARG(1), LEN) op 0); \
}

#define UID_BYTES_TYPE_FUNCS(T, LEN, TEXT_LEN, expected) \
PG_FUNCTION_INFO_V1(T##_in); \
Datum \
T##_in(PG_FUNCTION_ARGS) \
{ \
	char	   *s = PG_GETARG_CSTRING(0); \
	uint8	   *p = palloc(LEN); \
\
	UID_DECODE_OR_RETURN(T, s, p, expected); \
	PG_RETURN_POINTER(p); \
} \
UID_TEXT_OUT(T, TEXT_LEN, UID_BYTES_ARG(0)) \
PG_FUNCTION_INFO_V1(T##_recv); \
Datum \
T##_recv(PG_FUNCTION_ARGS) \
{ \
	PG_RETURN_POINTER(uid_bytes_recv((StringInfo) PG_GETARG_POINTER(0), LEN, #T)); \
} \
PG_FUNCTION_INFO_V1(T##_send); \
Datum \
T##_send(PG_FUNCTION_ARGS) \
{ \
	PG_RETURN_BYTEA_P(uid_bytes_send(UID_BYTES_ARG(0), LEN)); \
} \
UID_BYTES_CMP_FUNC(T, LEN, eq, ==) \
UID_BYTES_CMP_FUNC(T, LEN, ne, !=) \
UID_BYTES_CMP_FUNC(T, LEN, lt, <) \
UID_BYTES_CMP_FUNC(T, LEN, le, <=) \
UID_BYTES_CMP_FUNC(T, LEN, gt, >) \
UID_BYTES_CMP_FUNC(T, LEN, ge, >=) \
PG_FUNCTION_INFO_V1(T##_cmp); \
Datum \
T##_cmp(PG_FUNCTION_ARGS) \
{ \
	int			c = uid_bytes_cmp(UID_BYTES_ARG(0), UID_BYTES_ARG(1), LEN); \
\
	PG_RETURN_INT32((c > 0) - (c < 0)); \
} \
UID_SMALLER_LARGER(T, uid_bytes_cmp(UID_BYTES_ARG(0), UID_BYTES_ARG(1), LEN)) \
PG_FUNCTION_INFO_V1(T##_hash); \
Datum \
T##_hash(PG_FUNCTION_ARGS) \
{ \
	return uid_bytes_hash(UID_BYTES_ARG(0), LEN); \
} \
PG_FUNCTION_INFO_V1(T##_hash_extended); \
Datum \
T##_hash_extended(PG_FUNCTION_ARGS) \
{ \
	return uid_bytes_hash_extended(UID_BYTES_ARG(0), LEN, (uint64) PG_GETARG_INT64(1)); \
} \
PG_FUNCTION_INFO_V1(T##_to_bytea); \
Datum \
T##_to_bytea(PG_FUNCTION_ARGS) \
{ \
	PG_RETURN_BYTEA_P(uid_bytes_to_bytea(UID_BYTES_ARG(0), LEN)); \
} \
PG_FUNCTION_INFO_V1(bytea_to_##T); \
Datum \
bytea_to_##T(PG_FUNCTION_ARGS) \
{ \
	PG_RETURN_POINTER(uid_bytea_to_bytes(PG_GETARG_BYTEA_PP(0), LEN, #T)); \
}

#endif							/* UID_TYPE_SUPPORT_H */
