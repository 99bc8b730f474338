/*
 * muid_inspect.c
 *		What uid-inspect knows of muid beyond its row of codec/registry.h: how
 *		its codec reads and writes its text, what its binary form may hold, its
 *		time and fields, and its words for the usage and for the reasons for a
 *		refusal.
 *
 * It owns muid_inspect, and nothing else (type_ops.h says what each member
 * means).  types.c's table points at it; detect.c calls its functions to read
 * an input and to fill a reading's fields, and format.c and uid_inspect.c read
 * its words and flags, all through the table, never by the type's name.  What
 * is muid's alone is here, so that the core has no line for any one type and a
 * new type adds a file like this one, not edits to the core.
 */
#include "type_ops.h"
#include "codec/muid_codec.h"

/* Its timestamp is Unix microseconds already. */
static int64_t
muid_inspect_time(const uint8_t *bytes, const uid_inspect_options *o)
{
	muid_fields x;

	(void) o;
	muid_unpack(bytes, &x);
	return (int64_t) x.timestamp;
}

/* The generator's medallion and the offset within its microsecond. */
static void
muid_inspect_fields(const uint8_t *bytes, const uid_inspect_options *o,
					uid_inspect_field *f, int *n)
{
	muid_fields x;

	(void) o;
	muid_unpack(bytes, &x);
	uid_inspect_field_int(f, n, "medallion", (int64_t) x.medallion);
	uid_inspect_field_int(f, n, "offset", x.offset);
}

const uid_inspect_type_ops muid_inspect = {
	.brief = "13-11-8 hex digits joined by dashes",
	.example = "5D5EAC793E61F-1BFC71B112D-0000000B",
	.decode = muid_decode,
	/* every 16 bytes are a muid, and muid::uuid gives them as uuid text */
	.takes_uuid = 1,
	/* its decoder's UID_BAD_SHAPE: a dash where a group is not done */
	.bad_shape = "a group has the wrong number of digits",

	.encode = muid_encode,
	.text_len = MUID_TEXT_LEN,
	.time_us = muid_inspect_time,
	.time_decimals = 6,
	.fields = muid_inspect_fields,
};
