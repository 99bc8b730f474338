/*
 * inspect.h
 *		The core of uid-inspect: which of the ID types a string can be,
 *		and each reading's fields, formatted for people or as JSON.
 *
 * Plain C over the codec layer (src/codec), with no I/O, no allocation and
 * no exit, so that the unit test and the fuzzer call it directly;
 * src/inspect/uid_inspect.c is the command-line program around it.  The
 * core is four files: types.c (the table of the types, from the registry),
 * detect.c (what an input can be, and each reading's fields), format.c
 * (the text for people, JSON and the reasons for a refusal) and options.c
 * (the options' defaults and parsing).  They name no type: what is one
 * type's alone is in its own file, src/inspect/<name>_inspect.c, as a
 * constant the table points at (type_ops.h).
 *
 * An input is read, after its surrounding white space is removed, as every
 * type's text form and as hex bytes of the types' binary forms (what
 * send/recv and the bytea casts carry): "\x..." as psql prints bytea,
 * "0x...", plain hex digits of exactly 10 (sno), 16 (muid) or 8 bytes
 * (snowflake_si, revts8, uid60), and a uuid's text for muid (muid::uuid).
 * Each reading a type's decoder accepts is a match; one string can match
 * several types (16 hex digits are revts8 text and 8 bytes of the other
 * 8-byte types).
 */
#ifndef UID_INSPECT_H
#define UID_INSPECT_H

#include <stddef.h>
#include <stdint.h>

#include "codec/bits.h"
#include "codec/registry.h"
#include "codec/snowflake_si_codec.h"

/* The types, in codec/registry.h's order. */
#define UID_INSPECT_ENUM(ID, ...) UID_INSPECT_##ID,
typedef enum uid_inspect_type
{
	UID_TYPES(UID_INSPECT_ENUM)
	UID_INSPECT_NTYPES
} uid_inspect_type;
#undef UID_INSPECT_ENUM

#define UID_INSPECT_ALL_TYPES ((1u << UID_INSPECT_NTYPES) - 1)

/* What a type's own file tells the core of it (type_ops.h). */
typedef struct uid_inspect_type_ops uid_inspect_type_ops;

/*
 * A type as uid-inspect reads it and shows it (types.c): a row of the
 * registry, what the usage says of it and the rest of what its own file,
 * src/inspect/<name>_inspect.c, knows.
 */
typedef struct uid_inspect_type_info
{
	const char *name;			/* its SQL name */
	int			nbytes;			/* its binary form's length */
	const char *text;			/* its text form, in its input function's words */
	const char *brief;			/* its text form in a few words, for the usage */
	const char *example;		/* an ID of the type in its text form */
	const uid_inspect_type_ops *ops;	/* its file's constant */
} uid_inspect_type_info;

extern const uid_inspect_type_info uid_inspect_types[UID_INSPECT_NTYPES];

/*
 * The names of the types, in the registry's order, of the bits set in
 * types: sep between them and last before the last ("sno, muid and uid60"
 * with ", " and " and ").  snprintf-style, as the formatting below.
 */
extern size_t uid_inspect_type_list(unsigned types, const char *sep,
									 const char *last, char *buf, size_t size);

typedef enum uid_inspect_form
{
	UID_INSPECT_FORM_TEXT,		/* the type's text form */
	UID_INSPECT_FORM_BYTES,		/* its binary form as hex */
	UID_INSPECT_FORM_UUID		/* muid's 16 bytes as uuid text */
} uid_inspect_form;

/* uid.snowflake_si_epoch's and uid.snowflake_si_index_bits' defaults */
#define UID_INSPECT_DEFAULT_EPOCH_MS SNOWFLAKE_SI_DEFAULT_EPOCH_MS
#define UID_INSPECT_DEFAULT_INDEX_BITS SNOWFLAKE_SI_DEFAULT_K

/*
 * The latest base clock taken: IDs after it end by 9999-12-31, so every
 * time printed has a four-digit year.
 */
#define UID_INSPECT_EPOCH_MAX_MS (INT64_C(253402300799999) - INT64_C(1099511627775))

typedef struct uid_inspect_options
{
	unsigned	types;			/* bit 1 << type for each type to try */
	int64_t		epoch_ms;		/* snowflake_si base clock, Unix ms */
	int			index_bits;		/* snowflake_si index width, 1..13 */
	int			json;			/* format as JSON, not for people */
} uid_inspect_options;

/*
 * All types, the extension's default base clock and width, text output
 * (options.c).
 */
extern void uid_inspect_default_options(uid_inspect_options *o);

/* The longest binary form of any type (types.c checks each type's). */
#define UID_INSPECT_MAX_BYTES 16

typedef struct uid_inspect_match
{
	uid_inspect_type type;
	uid_inspect_form form;
	uint8_t		bytes[UID_INSPECT_MAX_BYTES];	/* the binary form */
} uid_inspect_match;

#define UID_INSPECT_MAX_MATCHES 8

/* How the input reads as hex bytes. */
typedef enum uid_inspect_hex
{
	UID_INSPECT_HEX_NONE,		/* not hex bytes */
	UID_INSPECT_HEX_ODD,		/* hex digits after a prefix, an odd number */
	UID_INSPECT_HEX_OK			/* hex_nbytes bytes */
} uid_inspect_hex;

typedef struct uid_inspect_result
{
	const char *input;			/* the input without surrounding white space */
	size_t		len;
	int			nmatches;
	uid_inspect_match matches[UID_INSPECT_MAX_MATCHES];

	/* why each type refused, for uid_inspect_explain() */
	uid_status	text_status[UID_INSPECT_NTYPES];
	size_t		text_bad_pos[UID_INSPECT_NTYPES];
	uid_inspect_hex hex;
	int			hex_prefixed;	/* "\x" or "0x" in front */
	int			hex_uuid;		/* the hex digits are uuid text */
	size_t		hex_nbytes;
	uid_status	bytes_status[UID_INSPECT_NTYPES];
} uid_inspect_result;

/*
 * Reads in[0 .. len-1] (any bytes, NULs included) as every type of
 * o->types; fills *r, which points into in.  Returns r->nmatches
 * (detect.c).
 */
extern int	uid_inspect_detect(const char *in, size_t len,
							   const uid_inspect_options *o,
							   uid_inspect_result *r);

/*
 * One decoded field.  Keys are those of the SQL accessors (sno_meta ->
 * "meta"), plus "text", "bytes", "uuid", "bigint", "timestamp", "unix_us",
 * "epoch" and "index_bits".
 */
typedef struct uid_inspect_field
{
	const char *key;
	int			is_int;			/* num, else str */
	int			json_only;		/* left out of the text for people */
	int64_t		num;
	char		str[48];
} uid_inspect_field;

#define UID_INSPECT_MAX_FIELDS 12

/* The fields of one match, in output order; returns their number (detect.c). */
extern int	uid_inspect_fields(const uid_inspect_match *m,
							   const uid_inspect_options *o,
							   uid_inspect_field f[UID_INSPECT_MAX_FIELDS]);

/*
 * Formatting (format.c), snprintf-style: writes at most size - 1 bytes and a
 * terminator (nothing if size is 0, when buf may be NULL) and returns the
 * length of the whole text, so that a result >= size means it was cut.
 *
 * uid_inspect_format: with o->json one JSON object and a newline, with
 * "matches" empty and an "error" when nothing matched; otherwise the text
 * for people, empty when nothing matched.
 * uid_inspect_explain: why nothing matched, one reason per type tried,
 * each after sep (e.g. "\n  " or "; ").
 */
extern size_t uid_inspect_format(const uid_inspect_result *r,
								 const uid_inspect_options *o,
								 char *buf, size_t size);
extern size_t uid_inspect_explain(const uid_inspect_result *r,
								  const uid_inspect_options *o,
								  const char *sep, char *buf, size_t size);

/* Detect and format in one call; *nmatches gets the number of matches. */
extern size_t uid_inspect(const char *in, size_t len,
						  const uid_inspect_options *o,
						  char *buf, size_t size, int *nmatches);

/* Names (types.c). */
extern const char *uid_inspect_type_name(uid_inspect_type t);
extern const char *uid_inspect_form_name(uid_inspect_form f);

/*
 * The parsing of options (options.c); each returns 1 on success, or 0 with
 * the reason in why.
 */

/* A comma-separated list of type names; adds their bits to *types. */
extern int	uid_inspect_parse_types(const char *s, unsigned *types,
									char *why, size_t whysize);

/*
 * A base clock: Unix milliseconds (digits only), or an ISO 8601 date and
 * time, "2024-01-01", "2024-01-01T00:00:00Z", "2024-01-01 00:00:00+00",
 * "2024-01-01 01:00:00.000+01:00"; no zone is UTC, as for the setting.
 * Whole milliseconds from 2003-03-18 07:20:19.225 UTC (the format's
 * earliest) to UID_INSPECT_EPOCH_MAX_MS.
 */
extern int	uid_inspect_parse_epoch(const char *s, int64_t *epoch_ms,
									char *why, size_t whysize);
extern int	uid_inspect_parse_index_bits(const char *s, int *bits,
										 char *why, size_t whysize);

/* Unix microseconds as ISO 8601 UTC with 0, 3 or 6 decimals and "Z" (type_ops.c). */
extern void uid_inspect_iso8601(int64_t unix_us, int decimals, char out[40]);

#endif							/* UID_INSPECT_H */
