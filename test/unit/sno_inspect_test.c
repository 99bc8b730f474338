/*
 * sno_inspect_test.c
 *		What uid-inspect makes of sno: the rows of test/unit/inspect_test.c
 *		that are sno's (test/unit/inspect_rows.h says what each holds).
 */
#include "inspect_rows.h"

static const vector vectors[] = {
	/* sno: test/unit/sno_test.c, sql/sno_io.sql */
	{"brpk4q72xwf2m63l", 0, 0, UID_INSPECT_SNO, T, "brpk4q72xwf2m63l",
		"\\x4e6f2160a0ff9a0a1033", NULL, "2031-05-08T23:03:34.976Z", INT64_C(1936047814976000),
	"meta=255 partition=39434 sequence=4147 tick=0"},
	{"BRPK4Q72XWF2M63L", 0, 0, UID_INSPECT_SNO, T, "brpk4q72xwf2m63l",
		"\\x4e6f2160a0ff9a0a1033", NULL, "2031-05-08T23:03:34.976Z", INT64_C(1936047814976000),
	"meta=255 partition=39434 sequence=4147 tick=0"},
	{"\\x4e6f2160a0ff9a0a1033", 0, 0, UID_INSPECT_SNO, B, "brpk4q72xwf2m63l",
		"\\x4e6f2160a0ff9a0a1033", NULL, "2031-05-08T23:03:34.976Z", INT64_C(1936047814976000),
	"meta=255 partition=39434 sequence=4147 tick=0"},
	{"0X4E6F2160A0FF9A0A1033", 0, 0, UID_INSPECT_SNO, B, "brpk4q72xwf2m63l",
		"\\x4e6f2160a0ff9a0a1033", NULL, "2031-05-08T23:03:34.976Z", INT64_C(1936047814976000),
	"meta=255 partition=39434 sequence=4147 tick=0"},
	{"4e6f2160a0ff9a0a1033", 0, 0, UID_INSPECT_SNO, B, "brpk4q72xwf2m63l",
		"\\x4e6f2160a0ff9a0a1033", NULL, "2031-05-08T23:03:34.976Z", INT64_C(1936047814976000),
	"meta=255 partition=39434 sequence=4147 tick=0"},
	{"2222222222222222", 0, 0, UID_INSPECT_SNO, T, "2222222222222222",
		"\\x00000000000000000000", NULL, "2010-01-01T00:00:00.000Z", INT64_C(1262304000000000),
	"meta=0 partition=0 sequence=0 tick=0"},
	{"xxxxxxxxxxxxxxxx", 0, 0, UID_INSPECT_SNO, T, "xxxxxxxxxxxxxxxx",
		"\\xffffffffffffffffffff", NULL, "2079-09-07T15:47:35.548Z", INT64_C(3461327255548000),
	"meta=255 partition=65535 sequence=65535 tick=1"},
};

/* how it reads strings, tried alone; inspect_test.c tries every type on them */
static const reading readings[] = {
	{"2345678923456789", T},
	{"2222222222222222", T},
};

static const reason reasons[] = {
	{"brpk4q72xwf2m63y", 0, "\"brpk4q72xwf2m63y\" is not an ID of any type tried:\n  sno: "},
	{"brpk4q72xwf2m63y", 0,
	"sno: expected 16 characters of 2-9 and a-x (either case), or 10 bytes as hex; character 16 ('y') is not allowed, and it is not hex"},
	{"brpk4q72xwf2m63", 0, "sno: expected 16 characters of 2-9 and a-x (either case), or 10 bytes as hex; it is 15 characters long"},
	{"0x12345678", 1u << UID_INSPECT_SNO, "as hex it is 4 bytes"},
	{"a\"b", 1u << UID_INSPECT_SNO, "\"a\\\"b\" is not an ID"},
};

const inspect_rows sno_inspect_rows = {INSPECT_ROWS(vectors), INSPECT_ROWS(readings), INSPECT_ROWS(reasons)};
