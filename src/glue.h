/*
 * glue.h
 *		PostgreSQL glue shared by the ID types: error reporting for bad
 *		input, time conversion, and the comparator, sortsupport, hashing and
 *		byte conversions of the fixed-length by-reference types.
 */
#ifndef UID_GLUE_H
#define UID_GLUE_H

#include "fmgr.h"
#include "lib/stringinfo.h"
#include "nodes/nodes.h"
#include "utils/sortsupport.h"
#include "utils/timestamp.h"

#include "clock.h"
#include "codec/bits.h"

/*
 * Reports text input rejected by a codec: 22P02 with core's wording.  On
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

extern void uid_bytes_sortsupport(SortSupport ssup, int len);
extern Datum uid_bytes_hash(const void *p, int len);
extern Datum uid_bytes_hash_extended(const void *p, int len, uint64 seed);
extern void *uid_bytes_recv(StringInfo buf, int len, const char *typname);
extern bytea *uid_bytes_send(const void *p, int len);
extern bytea *uid_bytes_to_bytea(const void *p, int len);
extern void *uid_bytea_to_bytes(const bytea *b, int len, const char *typname);

#endif							/* UID_GLUE_H */
