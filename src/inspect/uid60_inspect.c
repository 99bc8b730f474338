/*
 * uid60_inspect.c
 *		What uid-inspect knows of uid60 beyond codec/registry.h's row: the
 *		usage's words for its text form and an example.
 *
 * It owns uid60_inspect, uid60's row of operations and facts (type_ops.h), and
 * nothing else; types.c's table points at it, and the core (detect.c,
 * format.c, uid_inspect.c) reads it there, never by name.
 */
#include "type_ops.h"
#include "codec/uid60_codec.h"

const uid_inspect_type_ops uid60_inspect = {
	.brief = "10 characters of A-Z a-z 0-9 - _",
	.example = "AH1fUJZhJ7",
	.decode_value = uid60_decode,
	/* its recv function takes any bigint from 0 to the largest */
	.value_max = UID60_MAX,
	.value_max_text = "1152921504606846975 (2^60 - 1)",
};
