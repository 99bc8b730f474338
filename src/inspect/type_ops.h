/*
 * type_ops.h
 *		What each ID type tells uid-inspect's core about itself: the
 *		uid_inspect_type_ops that its own file, src/inspect/<name>_inspect.c,
 *		defines as <name>_inspect.
 *
 * The core (types.c, detect.c, format.c, uid_inspect.c) knows no type by
 * name: it loops over types.c's table, whose rows are made from
 * codec/registry.h and point at these constants, and does for each type
 * what its constant says.  So a type added to the registry adds its file
 * and no line here or in the core; without the file the build stops (the
 * Makefile names src/inspect/<name>_inspect.c for each type of the
 * registry, and the table below needs its constant).
 *
 * Plain C, no PostgreSQL headers, as the rest of src/inspect.
 */
#ifndef UID_INSPECT_TYPE_OPS_H
#define UID_INSPECT_TYPE_OPS_H

#include "inspect.h"

struct uid_inspect_type_ops
{
	/*
	 * For the usage's table of the types: the text form in a few words (the
	 * registry's words, which the reasons for a refusal quote, are too long
	 * for a row of the table; the column is 35 wide) and an example ID in
	 * that form, which inspect_test checks is the type's canonical text.
	 * Arrays, not pointers, so that types.c's constant table can point at
	 * them (an array of a constant object is an address constant, a pointer
	 * held in one is not).
	 */
	char		brief[48];
	char		example[48];
};

/* Each type's constant, defined in its src/inspect/<name>_inspect.c. */
#define UID_INSPECT_DECLARE_OPS(ID, name, ...) \
	extern const uid_inspect_type_ops name##_inspect;
UID_TYPES(UID_INSPECT_DECLARE_OPS)
#undef UID_INSPECT_DECLARE_OPS

#endif							/* UID_INSPECT_TYPE_OPS_H */
