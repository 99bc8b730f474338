/*
 * type_ops.h
 *		What each ID type tells uid-inspect's core about itself: the
 *		uid_inspect_type_ops that its own file, src/inspect/<name>_inspect.c,
 *		defines as <name>_inspect.
 *
 * The core (types.c, detect.c, format.c, uid_inspect.c) knows no type by
 * name: it loops over types.c's table, whose rows are made from
 * codec/registry.h and point at these constants, and does for each type
 * what its constant says.  So a type added to the registry adds its file
 * and no line here or in the core; without the file the build stops (the
 * Makefile names src/inspect/<name>_inspect.c for each type of the
 * registry, and types.c's table needs the constant declared below).
 *
 * Plain C, no PostgreSQL headers, as the rest of src/inspect.
 */
#ifndef UID_INSPECT_TYPE_OPS_H
#define UID_INSPECT_TYPE_OPS_H

#include "inspect.h"

struct uid_inspect_type_ops
{
	/*
	 * For the usage's table of the types: the text form in a few words (the
	 * registry's words, which the reasons for a refusal quote, are too long
	 * for a row of the table; the column is 35 wide) and an example ID in
	 * that form, which inspect_test checks is the type's canonical text.
	 * Arrays, not pointers, so that types.c's constant table can point at
	 * them (an array of a constant object is an address constant, a pointer
	 * held in one is not).
	 */
	char		brief[48];
	char		example[48];

	/*
	 * Its text form, read by its codec as its input function reads it (the
	 * input has no surrounding white space left), into its binary form
	 * (nbytes of the registry's row): UID_OK, or why not with *bad_pos at
	 * the offending character where the codec gives one.  A type sets one
	 * of the two: decode where the codec decodes into the bytes, and
	 * decode_value where it decodes into the binary form's value, its
	 * nbytes (at most 8) as a big-endian integer, which the core stores.
	 */
	uid_status	(*decode) (const char *in, size_t len, uint8_t *bytes,
						   size_t *bad_pos);
	uid_status	(*decode_value) (const char *in, size_t len, uint64_t *value,
								 size_t *bad_pos);

	/*
	 * Which binary forms its recv function and bytea cast refuse, for a
	 * type with a value (decode_value): above value_max (0: none is)
	 * UID_OUT_OF_RANGE, with any bit of reserved_mask set UID_BAD_RESERVED.
	 * Every binary form of a type without a value is one.
	 */
	uint64_t	value_max;
	uint64_t	reserved_mask;

	/*
	 * Uuid text is its binary form too, as <name>::uuid gives it (nbytes
	 * must be 16): other types refuse uuid text, so that a uuid is no
	 * reading of theirs by accident.
	 */
	int			takes_uuid;

	/*
	 * Its text form is its binary form as plain hex digits: then a plain
	 * hex input is one reading, the text's, not also one of its bytes.
	 */
	int			plain_hex_is_text;

	/*
	 * Its words for the reasons for a refusal, where its decoder or binary
	 * form can give the status (NULL where neither can): what UID_BAD_SHAPE
	 * means ("a group has the wrong number of digits"), which bits
	 * UID_BAD_RESERVED means are set ("bits 15 to 10"), and value_max as
	 * people read it ("1152921504606846975 (2^60 - 1)").  Words, not
	 * numbers the core would print, so that each type says its limits as
	 * its documentation does.
	 */
	const char *bad_shape;
	const char *reserved;
	const char *value_max_text;

	/*
	 * Its fields (uid_inspect_fields()), in this order: "text", its
	 * canonical text by its codec's encoder, from the bytes (encode) or
	 * from the value (encode_value), as decode and decode_value above, and
	 * terminated after text_len characters (0: the codec terminates it;
	 * either way it fits a field's str); "bytes"; "uuid" where it takes
	 * uuid text, and "bigint" where has_bigint says that <name>::bigint
	 * gives its 8 bytes as a signed integer; "timestamp" and "unix_us", its
	 * time by time_us (Unix microseconds, shown with time_decimals
	 * decimals: 0, 3 or 6, its clock's precision); then the fields of its
	 * own, named as its SQL accessors, which fields adds with the helpers
	 * below.  The common fields are the core's, so that every type shows
	 * them alike; the time is a function of its own, apart from the other
	 * fields, because it goes between them.
	 */
	void		(*encode) (const uint8_t *bytes, char *text);
	void		(*encode_value) (uint64_t value, char *text);
	int			text_len;
	int			has_bigint;
	int64_t		(*time_us) (const uint8_t *bytes, const uid_inspect_options *o);
	int			time_decimals;
	void		(*fields) (const uint8_t *bytes, const uid_inspect_options *o,
						   uid_inspect_field *f, int *n);
};

#define UID_INSPECT_US_PER_MS	INT64_C(1000)
#define UID_INSPECT_US_PER_S	INT64_C(1000000)
#define UID_INSPECT_US_PER_DAY	INT64_C(86400000000)

/*
 * Add a field at f[*n] and count it (type_ops.c): uid_inspect_field_str()
 * one with an empty string, to write into its str, and returns it;
 * uid_inspect_field_int() one with a number.  Each type's fields and the
 * common ones before them stay within UID_INSPECT_MAX_FIELDS.
 */
extern uid_inspect_field *uid_inspect_field_str(uid_inspect_field *f, int *n,
												const char *key);
extern void uid_inspect_field_int(uid_inspect_field *f, int *n,
								  const char *key, int64_t v);

/* Each type's constant, defined in its src/inspect/<name>_inspect.c. */
#define UID_INSPECT_DECLARE_OPS(ID, name, ...) \
	extern const uid_inspect_type_ops name##_inspect;
UID_TYPES(UID_INSPECT_DECLARE_OPS)
#undef UID_INSPECT_DECLARE_OPS

#endif							/* UID_INSPECT_TYPE_OPS_H */
