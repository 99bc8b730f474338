/*
 * snowflake_si_inspect.c
 *		What uid-inspect knows of snowflake_si beyond its row of
 *		codec/registry.h: how its codec reads and writes its text, what its
 *		binary form may hold, its time and fields, and its words for the usage
 *		and for the reasons for a refusal.
 *
 * It owns snowflake_si_inspect, and nothing else (type_ops.h says what each
 * member means).  types.c's table points at it; detect.c calls its functions to
 * read an input and to fill a reading's fields, and format.c and uid_inspect.c
 * read its words and flags, all through the table, never by the type's name.
 * What is snowflake_si's alone is here, so that the core has no line for any
 * one type and a new type adds a file like this one, not edits to the core.
 */
#include "type_ops.h"
#include "codec/snowflake_si_codec.h"

/*
 * Its canonical text: the codec writes the decimal digits and a terminator,
 * and returns their number, which encode_value has no use for.
 */
static void
snowflake_si_inspect_encode(uint64_t value, char *text)
{
	snowflake_si_encode(value, text);
}

/*
 * Its time: milliseconds after the base clock, which, like the index's
 * width, the ID does not carry: the options give both (--epoch,
 * --index-bits), with the settings' defaults.
 */
static int64_t
snowflake_si_inspect_time(const uint8_t *bytes, const uid_inspect_options *o)
{
	snowflake_si_fields x;

	snowflake_si_unpack(uid_load_be(bytes, 8), o->index_bits, &x);
	return (o->epoch_ms + (int64_t) x.mab) * UID_INSPECT_US_PER_MS;
}

/*
 * The machine and the index as that width splits them, and the base clock
 * and width assumed, so that a reader sees what the time rests on.
 */
static void
snowflake_si_inspect_fields(const uint8_t *bytes, const uid_inspect_options *o,
							uid_inspect_field *f, int *n)
{
	snowflake_si_fields x;

	snowflake_si_unpack(uid_load_be(bytes, 8), o->index_bits, &x);
	uid_inspect_field_int(f, n, "machine", x.mid);
	uid_inspect_field_int(f, n, "index", x.uin);
	uid_inspect_iso8601(o->epoch_ms * UID_INSPECT_US_PER_MS, 3,
						uid_inspect_field_str(f, n, "epoch")->str);
	uid_inspect_field_int(f, n, "index_bits", o->index_bits);
}

const uid_inspect_type_ops snowflake_si_inspect = {
	.brief = "a decimal integer up to 2^53 - 1",
	.example = "5170397184000256",
	/* (it skips white space as bigint input does: none is left) */
	.decode_value = snowflake_si_decode,
	/* its recv function takes any bigint from 0 to the largest */
	.value_max = SNOWFLAKE_SI_MAX,
	.value_max_text = "9007199254740991",

	.encode_value = snowflake_si_inspect_encode,
	/* snowflake_si::bigint: its 8 bytes as a signed integer */
	.has_bigint = 1,
	.time_us = snowflake_si_inspect_time,
	.time_decimals = 3,
	.fields = snowflake_si_inspect_fields,
};
