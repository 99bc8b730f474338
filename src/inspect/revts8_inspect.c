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

const uid_inspect_type_ops revts8_inspect = {
	.brief = "16 hex digits",
	.example = "cb54ecf284000000",
};
