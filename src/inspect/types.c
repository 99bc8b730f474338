/*
 * types.c
 *		The ID types as uid-inspect knows them: one row per type of
 *		codec/registry.h's UID_TYPES, the names of types and forms, and
 *		lists of type names for messages.
 *
 * detect.c, format.c and options.c read the table (a type's name, binary
 * length and text form, and through its ops what its own file knows);
 * uid_inspect.c reads it, and the lists, for its usage, and the unit test
 * checks it.  Nothing here or in those files lists the types by hand: a
 * type added to the registry gets its row from UID_TYPES, and the rest
 * from its src/inspect/<name>_inspect.c (type_ops.h), without which the
 * build stops.
 */
#include <stdio.h>
#include <string.h>

#include "inspect.h"
#include "type_ops.h"

/*
 * The registry's row of each type, and what its own file says of it: the
 * usage's words and example (which point into the file's constant) and the
 * constant itself.  A type added to UID_TYPES without its
 * src/inspect/<name>_inspect.c stops the build: the Makefile has no rule
 * for the missing file, and without the file <name>_inspect is undefined.
 */
const uid_inspect_type_info uid_inspect_types[UID_INSPECT_NTYPES] = {
#define UID_INSPECT_TYPE(ID, name, slot, nbytes, text, ...) \
	[UID_INSPECT_##ID] = {#name, nbytes, text, \
						  name##_inspect.brief, name##_inspect.example, \
						  &name##_inspect},
	UID_TYPES(UID_INSPECT_TYPE)
#undef UID_INSPECT_TYPE
};

/* Each type's binary form fits a match's bytes. */
#define UID_INSPECT_FITS(ID, name, slot, nbytes, ...) \
	_Static_assert(nbytes >= 1 && nbytes <= UID_INSPECT_MAX_BYTES, \
				   #name "'s binary form fits uid_inspect_match's bytes");
UID_TYPES(UID_INSPECT_FITS)
#undef UID_INSPECT_FITS

const char *
uid_inspect_type_name(uid_inspect_type t)
{
	return (unsigned) t < UID_INSPECT_NTYPES ? uid_inspect_types[t].name : "?";
}

const char *
uid_inspect_form_name(uid_inspect_form f)
{
	switch (f)
	{
		case UID_INSPECT_FORM_TEXT:
			return "text";
		case UID_INSPECT_FORM_BYTES:
			return "bytes";
		case UID_INSPECT_FORM_UUID:
			return "uuid";
	}
	return "?";
}

/* Writes s at buf[len], snprintf-style; returns its length. */
static size_t
append(char *buf, size_t size, size_t len, const char *s)
{
	if (len < size)
		snprintf(buf + len, size - len, "%s", s);
	return strlen(s);
}

size_t
uid_inspect_type_list(unsigned types, const char *sep, const char *last,
					  char *buf, size_t size)
{
	size_t		len = 0;
	int			left = 0;

	if (size > 0)
		buf[0] = '\0';
	for (int t = 0; t < UID_INSPECT_NTYPES; t++)
		left += (types >> t) & 1;
	for (int t = 0; t < UID_INSPECT_NTYPES; t++)
	{
		if (!(types & (1u << t)))
			continue;
		len += append(buf, size, len, uid_inspect_types[t].name);
		if (--left > 0)
			len += append(buf, size, len, left == 1 ? last : sep);
	}
	return len;
}
