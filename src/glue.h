/*
 * glue.h
 *		PostgreSQL glue shared by the ID types: error reporting for bad
 *		input, time conversion, and the comparator, sortsupport, hashing and
 *		byte conversions of the fixed-length by-reference types.
 */
#ifndef UID_GLUE_H
#define UID_GLUE_H

#include "fmgr.h"
#include "lib/hyperloglog.h"
#include "lib/stringinfo.h"
#include "nodes/nodes.h"
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

/* The binary form of the 8-byte by-value types: a big-endian 64-bit value. */
extern uint64 uid_recv_uint64(StringInfo buf, const char *typname);
extern bytea *uid_send_uint64(uint64 v);
extern bytea *uid_bytes_send(const void *p, int len);
extern bytea *uid_bytes_to_bytea(const void *p, int len);
extern void *uid_bytea_to_bytes(const bytea *b, int len, const char *typname);

#endif							/* UID_GLUE_H */
