/*
 * types.c
 *		The ID types as uid-inspect knows them: one row per type of
 *		codec/registry.h's UID_TYPES, and the names of types and forms.
 *
 * detect.c, format.c and options.c read the table (a type's name, binary
 * length and text form); uid_inspect.c and the unit test read it through
 * inspect.h.  Nothing here lists a type by hand: a type added to the
 * registry gets its row from UID_TYPES.
 */
#include "inspect.h"

/* What each type's input takes, in the words of its SQL input function. */
const uid_inspect_type_info uid_inspect_types[UID_INSPECT_NTYPES] = {
#define UID_INSPECT_TYPE(ID, name, slot, nbytes, text, ...) [UID_INSPECT_##ID] = {name, nbytes, text},
	UID_TYPES(UID_INSPECT_TYPE)
#undef UID_INSPECT_TYPE
};

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
