/*
 * snowflake_si_inspect_test.c
 *		What uid-inspect makes of snowflake_si: the rows of test/unit/inspect_test.c
 *		that are snowflake_si's (test/unit/inspect_rows.h says what each holds).
 */
#include "inspect_rows.h"

static const vector vectors[] = {
	/* snowflake_si: sql/snowflake_si_io.sql, base clock 2004-01-01Z */
	{"8192", EPOCH_2004, 8, UID_INSPECT_SNOWFLAKE_SI, T, "8192",
		"\\x0000000000002000", "8192", "2004-01-01T00:00:00.001Z", INT64_C(1072915200001000),
	"machine=0 index=0 epoch=2004-01-01T00:00:00.000Z index_bits=8"},
	{"5170397184000256", EPOCH_2004, 8, UID_INSPECT_SNOWFLAKE_SI, T, "5170397184000256",
		"\\x00125e72e7800100", "5170397184000256", "2024-01-01T00:00:00.000Z", INT64_C(1704067200000000),
	"machine=1 index=0 epoch=2004-01-01T00:00:00.000Z index_bits=8"},
	{"5170397184000256", EPOCH_2004, 13, UID_INSPECT_SNOWFLAKE_SI, T, "5170397184000256",
		"\\x00125e72e7800100", "5170397184000256", "2024-01-01T00:00:00.000Z", INT64_C(1704067200000000),
	"machine=0 index=256 epoch=2004-01-01T00:00:00.000Z index_bits=13"},
	{"5170397184000256", EPOCH_2004, 1, UID_INSPECT_SNOWFLAKE_SI, T, "5170397184000256",
		"\\x00125e72e7800100", "5170397184000256", "2024-01-01T00:00:00.000Z", INT64_C(1704067200000000),
	"machine=128 index=0 epoch=2004-01-01T00:00:00.000Z index_bits=1"},
	{"9007199254740991", EPOCH_MIN, 8, UID_INSPECT_SNOWFLAKE_SI, T, "9007199254740991",
		"\\x001fffffffffffff", "9007199254740991", "2038-01-19T03:14:07.000Z", INT64_C(2147483647000000),
	"machine=31 index=255 epoch=2003-03-18T07:20:19.225Z index_bits=8"},
	/* the defaults: base clock 2024-01-01Z, width 8 */
	{"5170397184000256", 0, 0, UID_INSPECT_SNOWFLAKE_SI, T, "5170397184000256",
		"\\x00125e72e7800100", "5170397184000256", "2044-01-01T00:00:00.000Z", INT64_C(2335219200000000),
	"machine=1 index=0 epoch=2024-01-01T00:00:00.000Z index_bits=8"},
	{"000123", 0, 0, UID_INSPECT_SNOWFLAKE_SI, T, "123",
		"\\x000000000000007b", "123", "2024-01-01T00:00:00.000Z", INT64_C(1704067200000000),
	"machine=0 index=123 epoch=2024-01-01T00:00:00.000Z index_bits=8"},
	{"\\x00125e72e7800100", 0, 0, UID_INSPECT_SNOWFLAKE_SI, B, "5170397184000256",
		"\\x00125e72e7800100", "5170397184000256", "2044-01-01T00:00:00.000Z", INT64_C(2335219200000000),
	"machine=1 index=0 epoch=2024-01-01T00:00:00.000Z index_bits=8"},
};

/* how it reads strings, tried alone; inspect_test.c tries every type on them */
static const reading readings[] = {
	{"0000000000000000", T},
	{"0000000000000000", B},
	{"\\x0000000000000000", B},
	{"0x0000000000000000", B},
	{"5170397184000256", T},
	{"2345678923456789", T},
	{"2222222222222222", T},
	{"1234567890", T},
	{"1234567890123", T},
	{"\\x001fffffffffffff", B},
	{"\\x001fffffffff03ff", B},
	{"9007199254740991", T},
};

static const reason reasons[] = {
	{"\\xffffffffffffffff", 0, "snowflake_si: expected a decimal integer from 0 to 9007199254740991, or 8 bytes as hex; character 1 ('\\') is not allowed, and as bytes it is above 9007199254740991"},
	{"9007199254740992", 1u << UID_INSPECT_SNOWFLAKE_SI, "\"9007199254740992\" is not an ID of any type tried:\n  snowflake_si: expected a decimal integer from 0 to 9007199254740991, or 8 bytes as hex; it is out of range, and as bytes it is above 9007199254740991"},
};

const inspect_rows snowflake_si_inspect_rows = {INSPECT_ROWS(vectors), INSPECT_ROWS(readings), INSPECT_ROWS(reasons)};
