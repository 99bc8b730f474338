/*
 * uid60_inspect.c
 *		What uid-inspect knows of uid60 beyond its row of codec/registry.h: how
 *		its codec reads and writes its text, what its binary form may hold, its
 *		time and fields, and its words for the usage and for the reasons for a
 *		refusal.
 *
 * It owns uid60_inspect, and nothing else (type_ops.h says what each member
 * means).  types.c's table points at it; detect.c calls its functions to read
 * an input and to fill a reading's fields, and format.c and uid_inspect.c read
 * its words and flags, all through the table, never by the type's name.  What
 * is uid60's alone is here, so that the core has no line for any one type and a
 * new type adds a file like this one, not edits to the core.
 */
#include "type_ops.h"
#include "codec/uid60_codec.h"

/* Its timestamp is whole seconds since its own epoch. */
static int64_t
uid60_inspect_time(const uint8_t *bytes, const uid_inspect_options *o)
{
	uid60_fields x;

	(void) o;
	uid60_unpack(uid_load_be(bytes, 8), &x);
	return (UID60_EPOCH_UNIX_S + (int64_t) x.ts) * UID_INSPECT_US_PER_S;
}

/* The worker, the sequence within its second and the random bits. */
static void
uid60_inspect_fields(const uint8_t *bytes, const uid_inspect_options *o,
					 uid_inspect_field *f, int *n)
{
	uid60_fields x;

	(void) o;
	uid60_unpack(uid_load_be(bytes, 8), &x);
	uid_inspect_field_int(f, n, "worker", x.worker);
	uid_inspect_field_int(f, n, "sequence", x.seq);
	uid_inspect_field_int(f, n, "random", x.rand);
}

const uid_inspect_type_ops uid60_inspect = {
	.brief = "10 characters of A-Z a-z 0-9 - _",
	.example = "AH1fUJZhJ7",
	.decode_value = uid60_decode,
	/* its recv function takes any bigint from 0 to the largest */
	.value_max = UID60_MAX,
	.value_max_text = "1152921504606846975 (2^60 - 1)",

	.encode_value = uid60_encode,
	.text_len = UID60_TEXT_LEN,
	/* uid60::bigint: its 8 bytes as a signed integer */
	.has_bigint = 1,
	.time_us = uid60_inspect_time,
	.time_decimals = 0,
	.fields = uid60_inspect_fields,
};
