/*
 * types.c
 *		The ID types as uid-inspect knows them: one row per type of
 *		codec/registry.h's UID_TYPES, the names of types and forms, and
 *		lists of type names for messages.
 *
 * detect.c, format.c and options.c read the table (a type's name, binary
 * length and text form); uid_inspect.c reads it, and the lists, for its
 * usage, and the unit test checks it.  Nothing here or in those files
 * lists the types by hand: a type added to the registry gets its row from
 * UID_TYPES, and the build stops until its row for the usage is written
 * (below).
 */
#include <stdio.h>
#include <string.h>

#include "inspect.h"

/*
 * What the usage shows of each type that the registry does not hold: its
 * text form in a few words (the registry's words, which the reasons for a
 * refusal quote, are too long for a row of the usage's table) and an
 * example ID in that form.  One macro per type, named after the registry's
 * ID: a type added to UID_TYPES without one stops the build at the table
 * below ("UID_INSPECT_USAGE_<ID>" undeclared) rather than printing an
 * empty row.  inspect_test checks that each example decodes as its type.
 */
#define UID_INSPECT_USAGE_SNO \
	"16 characters of 2-9 and a-x", "brpk4q72xwf2m63l"
#define UID_INSPECT_USAGE_MUID \
	"13-11-8 hex digits joined by dashes", "5D5EAC793E61F-1BFC71B112D-0000000B"
#define UID_INSPECT_USAGE_SNOWFLAKE_SI \
	"a decimal integer up to 2^53 - 1", "5170397184000256"
#define UID_INSPECT_USAGE_REVTS8 \
	"16 hex digits", "cb54ecf284000000"
#define UID_INSPECT_USAGE_UID60 \
	"10 characters of A-Z a-z 0-9 - _", "AH1fUJZhJ7"

/* The registry's row of each type, and its words for the usage. */
const uid_inspect_type_info uid_inspect_types[UID_INSPECT_NTYPES] = {
#define UID_INSPECT_TYPE(ID, name, slot, nbytes, text, ...) \
	[UID_INSPECT_##ID] = {#name, nbytes, text, UID_INSPECT_USAGE_##ID},
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
