/*
 * inspect_rows.h
 *		The rows of uid-inspect's unit test that are one type's: each type's
 *		test/unit/<type>_inspect_test.c holds its own, as <type>_inspect_rows,
 *		and test/unit/inspect_test.c runs the rows of every type of the
 *		registry (the Makefile links the file of each).  So a type added
 *		brings its rows and changes no other type's.
 */
#ifndef UID_TEST_INSPECT_ROWS_H
#define UID_TEST_INSPECT_ROWS_H

#include <stddef.h>
#include <stdint.h>

#include "inspect/inspect.h"

#define EPOCH_2004 INT64_C(1072915200000)	/* 2004-01-01T00:00:00Z */
#define EPOCH_MIN INT64_C(1047972019225)	/* 2003-03-18T07:20:19.225Z */

#define T UID_INSPECT_FORM_TEXT
#define B UID_INSPECT_FORM_BYTES
#define U UID_INSPECT_FORM_UUID

/*
 * A reference vector (those of sql/<type>_io.sql and
 * test/unit/<type>_test.c: the fields and times the SQL accessors give),
 * read from text or from a binary form.
 */
typedef struct vector
{
	const char *input;
	int64_t		epoch_ms;		/* 0: the default */
	int			k;				/* 0: the default */
	uid_inspect_type type;
	uid_inspect_form form;
	const char *text;
	const char *bytes;
	const char *bigint;			/* NULL: the type has no bigint cast */
	const char *timestamp;
	int64_t		unix_us;
	const char *fields;
} vector;

/*
 * A string the type reads, and as what, tried alone.  Every type is tried
 * on every string of every type's rows: a string's readings are those its
 * rows give, and no more.
 */
typedef struct reading
{
	const char *input;
	uid_inspect_form form;
} reading;

/* Why a string is no ID: a part of the message, with the types tried. */
typedef struct reason
{
	const char *input;
	unsigned	types;			/* 0: all */
	const char *want;
} reason;

typedef struct inspect_rows
{
	const vector *vectors;
	size_t		nvectors;
	const reading *readings;
	size_t		nreadings;
	const reason *reasons;
	size_t		nreasons;
} inspect_rows;

#define INSPECT_ROWS(a) a, sizeof(a) / sizeof((a)[0])

#endif							/* UID_TEST_INSPECT_ROWS_H */
