/*
 * muid_inspect.c
 *		What uid-inspect knows of muid beyond codec/registry.h's row: the
 *		usage's words for its text form and an example.
 *
 * It owns muid_inspect, muid's row of operations and facts (type_ops.h), and
 * nothing else; types.c's table points at it, and the core (detect.c,
 * format.c, uid_inspect.c) reads it there, never by name.
 */
#include "type_ops.h"
#include "codec/muid_codec.h"

const uid_inspect_type_ops muid_inspect = {
	.brief = "13-11-8 hex digits joined by dashes",
	.example = "5D5EAC793E61F-1BFC71B112D-0000000B",
	.decode = muid_decode,
	/* every 16 bytes are a muid, and muid::uuid gives them as uuid text */
	.takes_uuid = 1,
	/* its decoder's UID_BAD_SHAPE: a dash where a group is not done */
	.bad_shape = "a group has the wrong number of digits",
};
