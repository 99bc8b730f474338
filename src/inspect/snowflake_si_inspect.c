/*
 * snowflake_si_inspect.c
 *		What uid-inspect knows of snowflake_si beyond codec/registry.h's row: the
 *		usage's words for its text form and an example.
 *
 * It owns snowflake_si_inspect, snowflake_si's row of operations and facts (type_ops.h), and
 * nothing else; types.c's table points at it, and the core (detect.c,
 * format.c, uid_inspect.c) reads it there, never by name.
 */
#include "type_ops.h"
#include "codec/snowflake_si_codec.h"

const uid_inspect_type_ops snowflake_si_inspect = {
	.brief = "a decimal integer up to 2^53 - 1",
	.example = "5170397184000256",
	/* (it skips white space as bigint input does: none is left) */
	.decode_value = snowflake_si_decode,
	/* its recv function takes any bigint from 0 to the largest */
	.value_max = SNOWFLAKE_SI_MAX,
	.value_max_text = "9007199254740991",
};
