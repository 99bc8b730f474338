/*
 * muid_inspect_test.c
 *		What uid-inspect makes of muid: the rows of test/unit/inspect_test.c
 *		that are muid's (test/unit/inspect_rows.h says what each holds).
 */
#include "inspect_rows.h"

static const vector vectors[] = {
	/* muid: sql/muid_io.sql */
	{"5D5EAC793E61F-1BFC71B112D-0000000B", 0, 0, UID_INSPECT_MUID, T,
		"5D5EAC793E61F-1BFC71B112D-0000000B", "\\x5d5eac793e61f1bfc71b112d0000000b", NULL,
		"2022-01-19T08:00:30.975519Z", INT64_C(1642579230975519),
	"medallion=1923190821165 offset=11"},
	{"5d5eac793e61f-1bfc71b112d-ffffffff", 0, 0, UID_INSPECT_MUID, T,
		"5D5EAC793E61F-1BFC71B112D-FFFFFFFF", "\\x5d5eac793e61f1bfc71b112dffffffff", NULL,
		"2022-01-19T08:00:30.975519Z", INT64_C(1642579230975519),
	"medallion=1923190821165 offset=-1"},
	{"\\xffffffffffffffffffffffff00000004", 0, 0, UID_INSPECT_MUID, B,
		"FFFFFFFFFFFFF-FFFFFFFFFFF-00000004", "\\xffffffffffffffffffffffff00000004", NULL,
		"2112-09-17T23:53:47.370495Z", INT64_C(4503599627370495),
	"medallion=17592186044415 offset=4"},
	{"00000000000000000000000000000000", 0, 0, UID_INSPECT_MUID, B,
		"0000000000000-00000000000-00000000", "\\x00000000000000000000000000000000", NULL,
		"1970-01-01T00:00:00.000000Z", 0,
	"medallion=0 offset=0"},
	{"5d5eac79-3e61-f1bf-c71b-112d0000000b", 0, 0, UID_INSPECT_MUID, U,
		"5D5EAC793E61F-1BFC71B112D-0000000B", "\\x5d5eac793e61f1bfc71b112d0000000b", NULL,
		"2022-01-19T08:00:30.975519Z", INT64_C(1642579230975519),
	"medallion=1923190821165 offset=11"},
	/* the short forms fill in zeros */
	{"5D5EAC793E61F-1BFC71B112D", 0, 0, UID_INSPECT_MUID, T,
		"5D5EAC793E61F-1BFC71B112D-00000000", "\\x5d5eac793e61f1bfc71b112d00000000", NULL,
		"2022-01-19T08:00:30.975519Z", INT64_C(1642579230975519),
	"medallion=1923190821165 offset=0"},
	{"5d5eac793e61f", 0, 0, UID_INSPECT_MUID, T,
		"5D5EAC793E61F-00000000000-00000000", "\\x5d5eac793e61f0000000000000000000", NULL,
		"2022-01-19T08:00:30.975519Z", INT64_C(1642579230975519),
	"medallion=0 offset=0"},
};

/* how it reads strings, tried alone; inspect_test.c tries every type on them */
static const reading readings[] = {
	{"1234567890123", T},
	{"5d5eac79-3e61-f1bf-c71b-112d0000000b", U},
	{"5d5eac793e61f1bfc71b112d0000000b", B},
};

static const reason reasons[] = {
	{"5D5EAC793E61F1-BFC71B112D-0000000B", 1u << UID_INSPECT_MUID, "muid: expected hex digits in groups of 13, 11 and 8 joined by dashes, or the first one or two groups, or 16 bytes as hex or uuid text; character 14 ('1') is out of place: a group has the wrong number of digits, and it is not hex"},
	{"5D5EAC793E61F-1BFC71B112D-0000000G", 1u << UID_INSPECT_MUID, "character 34 ('G') is not allowed"},
};

const inspect_rows muid_inspect_rows = {INSPECT_ROWS(vectors), INSPECT_ROWS(readings), INSPECT_ROWS(reasons)};
