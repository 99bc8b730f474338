/*
 * revts8_inspect_test.c
 *		What uid-inspect makes of revts8: the rows of test/unit/inspect_test.c
 *		that are revts8's (test/unit/inspect_rows.h says what each holds).
 */
#include "inspect_rows.h"

static const vector vectors[] = {
	/* revts8: sql/revts8_io.sql */
	{"cb54ecf284000000", 0, 0, UID_INSPECT_REVTS8, T, "cb54ecf284000000",
		"\\xcb54ecf284000000", "-3795148059625652224", "1974-07-14T19:42:16.275Z",
		INT64_C(143062936275000), "sequence=0 generator=0 cluster=0"},
	{"CB54ECF284000000", 0, 0, UID_INSPECT_REVTS8, T, "cb54ecf284000000",
		"\\xcb54ecf284000000", "-3795148059625652224", "1974-07-14T19:42:16.275Z",
		INT64_C(143062936275000), "sequence=0 generator=0 cluster=0"},
	{"\\xcb54ecf284000000", 0, 0, UID_INSPECT_REVTS8, B, "cb54ecf284000000",
		"\\xcb54ecf284000000", "-3795148059625652224", "1974-07-14T19:42:16.275Z",
		INT64_C(143062936275000), "sequence=0 generator=0 cluster=0"},
	{"ffffffffffff03ff", 0, 0, UID_INSPECT_REVTS8, T, "ffffffffffff03ff",
		"\\xffffffffffff03ff", "-64513", "2109-05-15T07:35:11.103Z",
		INT64_C(4398046511103000), "sequence=63 generator=63 cluster=15"},
	{"bfffffffc0000000", 0, 0, UID_INSPECT_REVTS8, T, "bfffffffc0000000",
		"\\xbfffffffc0000000", "-4611686019501129728", "1970-07-18T20:11:09.181Z",
		INT64_C(17179869181000), "sequence=0 generator=0 cluster=0"},
};

/* how it reads strings, tried alone; inspect_test.c tries every type on them */
static const reading readings[] = {
	{"0000000000000000", T},
	{"\\x0000000000000000", B},
	{"0x0000000000000000", B},
	{"5170397184000256", T},
	{"\\x0020000000000000", B},
	{"\\x1000000000000000", B},
	{"\\x001fffffffff03ff", B},
};

static const reason reasons[] = {
	{"\\xcb54ecf284000400", 0, "revts8: expected 16 hexadecimal digits with bits 15 to 10 clear, or 8 bytes as hex; it is 18 characters long, and as bytes its reserved bits 15 to 10 are set"},
	{"cb54ecf284000400", 0, "revts8: expected 16 hexadecimal digits with bits 15 to 10 clear, or 8 bytes as hex; reserved bits 15 to 10 are set"},
	{"5d5eac79-3e61-f1bf-c71b-112d0000000b", 1u << UID_INSPECT_REVTS8, "as hex it is 16 bytes of uuid text"},
};

const inspect_rows revts8_inspect_rows = {INSPECT_ROWS(vectors), INSPECT_ROWS(readings), INSPECT_ROWS(reasons)};
