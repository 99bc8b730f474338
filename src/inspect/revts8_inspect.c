/*
 * revts8_inspect.c
 *		What uid-inspect knows of revts8 beyond codec/registry.h's row: the
 *		usage's words for its text form and an example.
 *
 * It owns revts8_inspect, revts8's row of operations and facts (type_ops.h), and
 * nothing else; types.c's table points at it, and the core (detect.c,
 * format.c, uid_inspect.c) reads it there, never by name.
 */
#include "type_ops.h"
#include "codec/revts8_codec.h"

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
};
