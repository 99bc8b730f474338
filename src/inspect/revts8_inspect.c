/*
 * revts8_inspect.c
 *		What uid-inspect knows of revts8 beyond its row of codec/registry.h: how
 *		its codec reads and writes its text, what its binary form may hold, its
 *		time and fields, and its words for the usage and for the reasons for a
 *		refusal.
 *
 * It owns revts8_inspect, and nothing else (type_ops.h says what each member
 * means).  types.c's table points at it; detect.c calls its functions to read
 * an input and to fill a reading's fields, and format.c and uid_inspect.c read
 * its words and flags, all through the table, never by the type's name.  What
 * is revts8's alone is here, so that the core has no line for any one type and
 * a new type adds a file like this one, not edits to the core.
 */
#include "type_ops.h"
#include "codec/revts8_codec.h"

/* Its timestamp is Unix milliseconds, stored bit-reversed. */
static int64_t
revts8_inspect_time(const uint8_t *bytes, const uid_inspect_options *o)
{
	revts8_fields x;

	(void) o;
	revts8_unpack(uid_load_be(bytes, 8), &x);
	return (int64_t) x.ts * UID_INSPECT_US_PER_MS;
}

/* The sequence within the millisecond, the generator and the cluster. */
static void
revts8_inspect_fields(const uint8_t *bytes, const uid_inspect_options *o,
					  uid_inspect_field *f, int *n)
{
	revts8_fields x;

	(void) o;
	revts8_unpack(uid_load_be(bytes, 8), &x);
	uid_inspect_field_int(f, n, "sequence", x.seq);
	uid_inspect_field_int(f, n, "generator", x.generator);
	uid_inspect_field_int(f, n, "cluster", x.cluster);
}

const uid_inspect_type_ops revts8_inspect = {
	.brief = "16 hex digits",
	.example = "cb54ecf284000000",
	.decode_value = revts8_decode,
	/* its recv function refuses the reserved bits set, as its input does */
	.reserved_mask = REVTS8_RESERVED_MASK,
	.reserved = "bits 15 to 10",

	/*
	 * Its text is its 8 bytes in hex: plain hex digits are that reading
	 * only, with the text's reason if refused; "\x" or "0x" makes them bytes.
	 */
	.plain_hex_is_text = 1,

	.encode_value = revts8_encode,
	.text_len = REVTS8_TEXT_LEN,
	/* revts8::bigint: its 8 bytes as a signed integer */
	.has_bigint = 1,
	.time_us = revts8_inspect_time,
	.time_decimals = 3,
	.fields = revts8_inspect_fields,
};
