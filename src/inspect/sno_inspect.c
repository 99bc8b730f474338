/*
 * sno_inspect.c
 *		What uid-inspect knows of sno beyond codec/registry.h's row: the
 *		usage's words for its text form and an example.
 *
 * It owns sno_inspect, sno's row of operations and facts (type_ops.h), and
 * nothing else; types.c's table points at it, and the core (detect.c,
 * format.c, uid_inspect.c) reads it there, never by name.
 */
#include "type_ops.h"
#include "codec/sno_codec.h"

const uid_inspect_type_ops sno_inspect = {
	.brief = "16 characters of 2-9 and a-x",
	.example = "brpk4q72xwf2m63l",
	.decode = sno_decode,
};
