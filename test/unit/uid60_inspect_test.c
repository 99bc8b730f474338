/*
 * uid60_inspect_test.c
 *		What uid-inspect makes of uid60: the rows of test/unit/inspect_test.c
 *		that are uid60's (test/unit/inspect_rows.h says what each holds).
 */
#include "inspect_rows.h"

static const vector vectors[] = {
	/* uid60: sql/uid60_io.sql */
	{"AAAAAQAAAA", 0, 0, UID_INSPECT_UID60, T, "AAAAAQAAAA",
		"\\x0800000000000000", "576460752303423488", "2086-03-19T03:14:08Z",
		INT64_C(3667346048000000), "worker=0 sequence=0 random=0"},
	{"AAAAAAAAAA", 0, 0, UID_INSPECT_UID60, T, "AAAAAAAAAA",
		"\\x0000000000000000", "0", "2018-03-01T00:00:00Z",
		INT64_C(1519862400000000), "worker=0 sequence=0 random=0"},
	{"__________", 0, 0, UID_INSPECT_UID60, T, "__________",
		"\\x0fffffffffffffff", "1152921504606846975", "2154-04-07T06:28:15Z",
		INT64_C(5814829695000000), "worker=511 sequence=1023 random=511"},
	{"AAAAAACAAA", 0, 0, UID_INSPECT_UID60, T, "AAAAAACAAA",
		"\\x0000000000080000", "524288", "2018-03-01T00:00:00Z",
		INT64_C(1519862400000000), "worker=1 sequence=0 random=0"},
	{"AAAAAAAAIA", 0, 0, UID_INSPECT_UID60, T, "AAAAAAAAIA",
		"\\x0000000000000200", "512", "2018-03-01T00:00:00Z",
		INT64_C(1519862400000000), "worker=0 sequence=1 random=0"},
	{"AH1fUJZhJ7", 0, 0, UID_INSPECT_UID60, T, "AH1fUJZhJ7",
		"\\x00afabe00966127b", "49447099643073147", "2024-01-01T00:00:00Z",
		INT64_C(1704067200000000), "worker=300 sequence=777 random=123"},
	{"gH1fUJZhJ7", 0, 0, UID_INSPECT_UID60, T, "gH1fUJZhJ7",
		"\\x00afabe01966127b", "49447099911508603", "2024-01-01T00:00:01Z",
		INT64_C(1704067201000000), "worker=300 sequence=777 random=123"},
	{"0x0800000000000000", 0, 0, UID_INSPECT_UID60, B, "AAAAAQAAAA",
		"\\x0800000000000000", "576460752303423488", "2086-03-19T03:14:08Z",
		INT64_C(3667346048000000), "worker=0 sequence=0 random=0"},
	/* surrounding white space is not part of an ID */
	{" \tAH1fUJZhJ7\r\n", 0, 0, UID_INSPECT_UID60, T, "AH1fUJZhJ7",
		"\\x00afabe00966127b", "49447099643073147", "2024-01-01T00:00:00Z",
		INT64_C(1704067200000000), "worker=300 sequence=777 random=123"},
};

/* how it reads strings, tried alone; inspect_test.c tries every type on them */
static const reading readings[] = {
	{"0000000000000000", B},
	{"\\x0000000000000000", B},
	{"0x0000000000000000", B},
	{"1234567890", T},
	{"\\x0020000000000000", B},
	{"\\x0fffffffffffffff", B},
	{"\\x001fffffffffffff", B},
	{"\\x001fffffffff03ff", B},
	{"-AAAAAAAAA", T},
};

static const reason reasons[] = {
	{"\\xffffffffffffffff", 0, "uid60: expected 10 characters of A-Z, a-z, 0-9, - and _, or 8 bytes as hex; it is 18 characters long, and as bytes it is above 1152921504606846975 (2^60 - 1)"},
	{"AH1fUJZh\x01J", 1u << UID_INSPECT_UID60, "\"AH1fUJZh\\x01J\" is not an ID of any type tried:\n  uid60: expected 10 characters of A-Z, a-z, 0-9, - and _, or 8 bytes as hex; character 9 (byte 0x01) is not allowed, and it is not hex"},
	{"AH1fUJZhJ7'", 1u << UID_INSPECT_UID60, "it is 11 characters long"},
};

const inspect_rows uid60_inspect_rows = {INSPECT_ROWS(vectors), INSPECT_ROWS(readings), INSPECT_ROWS(reasons)};
