/*
 * sno_inspect.c
 *		What uid-inspect knows of sno beyond its row of codec/registry.h: how its
 *		codec reads and writes its text, what its binary form may hold, its time
 *		and fields, and its words for the usage and for the reasons for a
 *		refusal.
 *
 * It owns sno_inspect, and nothing else (type_ops.h says what each member
 * means).  types.c's table points at it; detect.c calls its functions to read
 * an input and to fill a reading's fields, and format.c and uid_inspect.c read
 * its words and flags, all through the table, never by the type's name.  What
 * is sno's alone is here, so that the core has no line for any one type and a
 * new type adds a file like this one, not edits to the core.
 */
#include "type_ops.h"
#include "codec/sno_codec.h"

/* The start of its tick: 4 ms units since 2010-01-01. */
static int64_t
sno_inspect_time(const uint8_t *bytes, const uid_inspect_options *o)
{
	sno_fields	x;

	(void) o;
	sno_unpack(bytes, &x);
	return (SNO_EPOCH_UNIX_MS + (int64_t) x.units * SNO_UNIT_MS) * UID_INSPECT_US_PER_MS;
}

/* The rest of what it holds, as sno_meta() and the other accessors name it. */
static void
sno_inspect_fields(const uint8_t *bytes, const uid_inspect_options *o,
				   uid_inspect_field *f, int *n)
{
	sno_fields	x;

	(void) o;
	sno_unpack(bytes, &x);
	uid_inspect_field_int(f, n, "meta", x.meta);
	uid_inspect_field_int(f, n, "partition", x.partition);
	uid_inspect_field_int(f, n, "sequence", x.sequence);
	uid_inspect_field_int(f, n, "tick", x.tick);
}

const uid_inspect_type_ops sno_inspect = {
	.brief = "16 characters of 2-9 and a-x",
	.example = "brpk4q72xwf2m63l",
	.decode = sno_decode,

	.encode = sno_encode,
	.text_len = SNO_TEXT_LEN,
	.time_us = sno_inspect_time,
	.time_decimals = 3,
	.fields = sno_inspect_fields,
};
