/*
 * inspect_test.c
 *		Unit tests of uid-inspect's core (src/inspect/inspect.h), plain C,
 *		no server (make unitcheck; the built program itself is run by
 *		test/unit/inspect_cli.sh).
 *
 *	- the reference vectors of every type (those of sql/<type>_io.sql and
 *	  test/unit/<type>_test.c: the fields and times the SQL accessors give),
 *	  read from text and from each binary form;
 *	- which types a string can be (ambiguous strings, --type);
 *	- why a string is no ID, per type;
 *	- JSON: exact output for a vector, escaping, and every object checked
 *	  by an independent strict parser (inspect_json.h);
 *	- the snprintf contract of the formatting (every buffer size);
 *	- the options: type lists, base clocks, index widths; and the dates;
 *	- the table of the types: every type of the registry has its row, and
 *	  the usage's example of each decodes as that type.
 *
 * The last line printed is "N passed, M failed"; the exit status is
 * nonzero if any check failed.
 */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "inspect_json.h"
#include "inspect/inspect.h"

unsigned long long harness_passed;
unsigned long long harness_failed;
uint64_t	harness_seed = UINT64_C(0x696e737065637421);	/* "inspect!" */
const char *harness_ctx;
unsigned long long harness_iter;

#define EPOCH_2004 INT64_C(1072915200000)	/* 2004-01-01T00:00:00Z */
#define EPOCH_MIN INT64_C(1047972019225)	/* 2003-03-18T07:20:19.225Z */

static char buf[1 << 16];

static uid_inspect_options
opts(unsigned types, int64_t epoch_ms, int k, int json)
{
	uid_inspect_options o;

	uid_inspect_default_options(&o);
	if (types)
		o.types = types;
	if (epoch_ms)
		o.epoch_ms = epoch_ms;
	if (k)
		o.index_bits = k;
	o.json = json;
	return o;
}

static int
starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

static int
type_bit(uid_inspect_type t)
{
	return 1 << t;
}

/*
 * The match of type t and form f, rendered as "key=value" for every field
 * but text, bytes, uuid, bigint, timestamp and unix_us (checked alone).
 */
static const uid_inspect_match *
find_match(const uid_inspect_result *r, uid_inspect_type t, uid_inspect_form f)
{
	for (int i = 0; i < r->nmatches; i++)
		if (r->matches[i].type == t && r->matches[i].form == f)
			return &r->matches[i];
	return NULL;
}

static const uid_inspect_field *
get_field(const uid_inspect_field *f, int n, const char *key)
{
	for (int i = 0; i < n; i++)
		if (strcmp(f[i].key, key) == 0)
			return &f[i];
	return NULL;
}

static void
render_fields(const uid_inspect_field *f, int n, char *out, size_t size)
{
	size_t		len = 0;

	out[0] = '\0';
	for (int i = 0; i < n; i++)
	{
		const char *k = f[i].key;

		if (!strcmp(k, "text") || !strcmp(k, "bytes") || !strcmp(k, "uuid") ||
			!strcmp(k, "bigint") || !strcmp(k, "timestamp") || !strcmp(k, "unix_us"))
			continue;
		if (f[i].is_int)
			len += (size_t) snprintf(out + len, size - len, "%s%s=%" PRId64,
									 len ? " " : "", k, f[i].num);
		else
			len += (size_t) snprintf(out + len, size - len, "%s%s=%s",
									 len ? " " : "", k, f[i].str);
	}
}

/* ---- reference vectors ---- */

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

#define T UID_INSPECT_FORM_TEXT
#define B UID_INSPECT_FORM_BYTES
#define U UID_INSPECT_FORM_UUID

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

static void
test_vectors(void)
{
	for (size_t i = 0; i < sizeof vectors / sizeof vectors[0]; i++)
	{
		const vector *v = &vectors[i];
		uid_inspect_options o = opts(0, v->epoch_ms, v->k, 0);
		uid_inspect_result r;
		const uid_inspect_match *m;
		uid_inspect_field f[UID_INSPECT_MAX_FIELDS];
		const uid_inspect_field *x;
		char		rendered[256];
		int			n;

		harness_ctx = v->input;
		harness_iter = i;
		uid_inspect_detect(v->input, strlen(v->input), &o, &r);
		m = find_match(&r, v->type, v->form);
		if (!CHECK(m != NULL))
			continue;
		n = uid_inspect_fields(m, &o, f);
		CHECK(n <= UID_INSPECT_MAX_FIELDS);
		x = get_field(f, n, "text");
		CHECK(x && strcmp(x->str, v->text) == 0);
		x = get_field(f, n, "bytes");
		CHECK(x && strcmp(x->str, v->bytes) == 0);
		x = get_field(f, n, "timestamp");
		CHECK(x && strcmp(x->str, v->timestamp) == 0);
		x = get_field(f, n, "unix_us");
		CHECK(x && x->is_int && x->json_only && x->num == v->unix_us);
		x = get_field(f, n, "bigint");
		if (v->bigint)
		{
			char		num[32];

			if (CHECK(x && x->is_int))
			{
				snprintf(num, sizeof num, "%" PRId64, x->num);
				CHECK(strcmp(num, v->bigint) == 0);
			}
		}
		else
			CHECK(x == NULL);
		render_fields(f, n, rendered, sizeof rendered);
		if (!CHECK(strcmp(rendered, v->fields) == 0))
			fprintf(stderr, "    got  %s\n    want %s\n", rendered, v->fields);

		/* the canonical text reads back as the same ID of that type */
		{
			uid_inspect_options only = opts(type_bit(v->type), v->epoch_ms, v->k, 0);
			uid_inspect_result back;
			const char *text = get_field(f, n, "text")->str;

			uid_inspect_detect(text, strlen(text), &only, &back);
			m = find_match(&back, v->type, T);
			CHECK(m != NULL && memcmp(m->bytes, find_match(&r, v->type, v->form)->bytes, 16) == 0);
		}
	}
	harness_ctx = NULL;
}

/* ---- what a string can be ---- */

typedef struct ambiguity
{
	const char *input;
	unsigned	types;			/* 0: all */
	const char *want;			/* "type/form ..." in output order */
} ambiguity;

static const ambiguity ambiguities[] = {
	/* 16 hex digits: revts8 text (= its bytes), and 8 bytes of the others */
	{"0000000000000000", 0,
	"snowflake_si/text revts8/text snowflake_si/bytes uid60/bytes"},
	{"\\x0000000000000000", 0, "snowflake_si/bytes revts8/bytes uid60/bytes"},
	{"0x0000000000000000", 0, "snowflake_si/bytes revts8/bytes uid60/bytes"},
	/* a 16-digit decimal is snowflake_si and, with bits 15..10 clear, revts8 */
	{"5170397184000256", 0, "snowflake_si/text revts8/text"},
	{"5170397184000256", 1u << UID_INSPECT_SNOWFLAKE_SI, "snowflake_si/text"},
	/* digits 2-9 are sno's alphabet too */
	{"2345678923456789", 0, "sno/text snowflake_si/text"},
	{"2222222222222222", 0, "sno/text snowflake_si/text"},
	/* 10 digits: snowflake_si and uid60; 13: snowflake_si and muid */
	{"1234567890", 0, "snowflake_si/text uid60/text"},
	{"1234567890123", 0, "muid/text snowflake_si/text"},
	{"1234567890123", 1u << UID_INSPECT_MUID, "muid/text"},
	/* reserved bits set: no revts8; above 2^53 and 2^60: no 8-byte type */
	{"cb54ecf284000400", 0, ""},
	{"\\xcb54ecf284000400", 0, ""},
	{"\\x0020000000000000", 0, "revts8/bytes uid60/bytes"},
	{"\\x1000000000000000", 0, "revts8/bytes"},
	{"\\x0fffffffffffffff", 0, "uid60/bytes"},
	{"\\x001fffffffffffff", 0, "snowflake_si/bytes uid60/bytes"},
	{"\\x001fffffffff03ff", 0, "snowflake_si/bytes revts8/bytes uid60/bytes"},
	/* uuid text is muid's; 32 plain digits are 16 bytes */
	{"5d5eac79-3e61-f1bf-c71b-112d0000000b", 0, "muid/uuid"},
	{"5d5eac79-3e61-f1bf-c71b-112d0000000b", 1u << UID_INSPECT_SNO, ""},
	{"5d5eac793e61f1bfc71b112d0000000b", 0, "muid/bytes"},
	/* other lengths of bytes */
	{"\\x", 0, ""},
	{"\\x00", 0, ""},
	{"\\x000", 0, ""},
	{"\\x000000000000000000", 0, ""},
	/* not quite */
	{"brpk4q72xwf2m63y", 0, ""},
	{"brpk4q72 xwf2m63l", 0, ""},
	{"9007199254740991", 0, "snowflake_si/text"},
	{"9007199254740992", 0, ""},
	{"-AAAAAAAAA", 0, "uid60/text"},
	{"AH1fUJZhJ+", 0, ""},
	{"", 0, ""},
	{"   ", 0, ""},
};

static void
test_ambiguity(void)
{
	for (size_t i = 0; i < sizeof ambiguities / sizeof ambiguities[0]; i++)
	{
		const ambiguity *a = &ambiguities[i];
		uid_inspect_options o = opts(a->types, 0, 0, 0);
		uid_inspect_result r;
		char		got[256] = "";
		size_t		len = 0;
		int			n;

		harness_ctx = a->input;
		harness_iter = i;
		n = uid_inspect_detect(a->input, strlen(a->input), &o, &r);
		CHECK(n == r.nmatches);
		for (int k = 0; k < r.nmatches; k++)
			len += (size_t) snprintf(got + len, sizeof got - len, "%s%s/%s", k ? " " : "",
									 uid_inspect_type_name(r.matches[k].type),
									 uid_inspect_form_name(r.matches[k].form));
		if (!CHECK(strcmp(got, a->want) == 0))
			fprintf(stderr, "    got  \"%s\"\n    want \"%s\"\n", got, a->want);
	}

	/*
	 * No string has more readings than the result holds: random strings
	 * over the alphabets that make readings overlap, at the lengths that do.
	 */
	harness_ctx = "at most UID_INSPECT_MAX_MATCHES";
	{
		static const char *alpha[] = {"0123456789", "0123", "2345678", "0123456789abcdef", "01"};
		static const size_t lens[] = {10, 13, 16, 20, 32};
		harness_rng rng = rng_seeded(0xA5);
		uid_inspect_options o = opts(0, 0, 0, 0);
		int			most = 0;

		for (harness_iter = 0; harness_iter < 200000; harness_iter++)
		{
			const char *al = alpha[rng_below(&rng, 5)];
			size_t		n = lens[rng_below(&rng, 5)];
			char		s[40];
			uid_inspect_result r;

			for (size_t k = 0; k < n; k++)
				s[k] = al[rng_below(&rng, strlen(al))];
			uid_inspect_detect(s, n, &o, &r);
			if (r.nmatches > most)
				most = r.nmatches;
		}
		CHECK(most == 4);
		CHECK(most < UID_INSPECT_MAX_MATCHES);
	}
	harness_ctx = NULL;
}

/* ---- why a string is no ID ---- */

typedef struct reason
{
	const char *input;
	unsigned	types;
	const char *want;			/* a part of the message */
} reason;

static const reason reasons[] = {
	{"brpk4q72xwf2m63y", 0, "\"brpk4q72xwf2m63y\" is not an ID of any type tried:\n  sno: "},
	{"brpk4q72xwf2m63y", 0,
	"sno: expected 16 characters of 2-9 and a-x (either case), or 10 bytes as hex; character 16 ('y') is not allowed, and it is not hex"},
	{"brpk4q72xwf2m63", 0, "sno: expected 16 characters of 2-9 and a-x (either case), or 10 bytes as hex; it is 15 characters long"},
	{"", 0, "\"\" is empty"},
	{" \t ", 0, "\"\" is empty"},
	{"\\xcb54ecf284000400", 0, "revts8: expected 16 hexadecimal digits with bits 15 to 10 clear, or 8 bytes as hex; it is 18 characters long, and as bytes its reserved bits 15 to 10 are set"},
	{"cb54ecf284000400", 0, "revts8: expected 16 hexadecimal digits with bits 15 to 10 clear, or 8 bytes as hex; reserved bits 15 to 10 are set"},
	{"\\xffffffffffffffff", 0, "snowflake_si: expected a decimal integer from 0 to 9007199254740991, or 8 bytes as hex; character 1 ('\\') is not allowed, and as bytes it is above 9007199254740991"},
	{"\\xffffffffffffffff", 0, "uid60: expected 10 characters of A-Z, a-z, 0-9, - and _, or 8 bytes as hex; it is 18 characters long, and as bytes it is above 1152921504606846975 (2^60 - 1)"},
	{"9007199254740992", 1u << UID_INSPECT_SNOWFLAKE_SI, "\"9007199254740992\" is not an ID of any type tried:\n  snowflake_si: expected a decimal integer from 0 to 9007199254740991, or 8 bytes as hex; it is out of range, and as bytes it is above 9007199254740991"},
	{"5D5EAC793E61F1-BFC71B112D-0000000B", 1u << UID_INSPECT_MUID, "muid: expected hex digits in groups of 13, 11 and 8 joined by dashes, or the first one or two groups, or 16 bytes as hex or uuid text; character 14 ('1') is out of place: a group has the wrong number of digits, and it is not hex"},
	{"5D5EAC793E61F-1BFC71B112D-0000000G", 1u << UID_INSPECT_MUID, "character 34 ('G') is not allowed"},
	{"\\x123", 0, "it has an odd number of hex digits"},
	{"0x12345678", 1u << UID_INSPECT_SNO, "as hex it is 4 bytes"},
	{"5d5eac79-3e61-f1bf-c71b-112d0000000b", 1u << UID_INSPECT_REVTS8, "as hex it is 16 bytes of uuid text"},
	{"AH1fUJZh\x01J", 1u << UID_INSPECT_UID60, "\"AH1fUJZh\\x01J\" is not an ID of any type tried:\n  uid60: expected 10 characters of A-Z, a-z, 0-9, - and _, or 8 bytes as hex; character 9 (byte 0x01) is not allowed, and it is not hex"},
	{"a\"b", 1u << UID_INSPECT_SNO, "\"a\\\"b\" is not an ID"},
	{"AH1fUJZhJ7'", 1u << UID_INSPECT_UID60, "it is 11 characters long"},
};

static void
test_reasons(void)
{
	for (size_t i = 0; i < sizeof reasons / sizeof reasons[0]; i++)
	{
		const reason *e = &reasons[i];
		uid_inspect_options o = opts(e->types, 0, 0, 0);
		uid_inspect_result r;
		size_t		n;

		harness_ctx = e->input;
		harness_iter = i;
		CHECK(uid_inspect_detect(e->input, strlen(e->input), &o, &r) == 0);
		n = uid_inspect_explain(&r, &o, "\n  ", buf, sizeof buf);
		CHECK(n == strlen(buf));
		if (!CHECK(strstr(buf, e->want) != NULL))
			fprintf(stderr, "    got  %s\n    want %s\n", buf, e->want);
		/* one reason per type tried, each on its line */
		{
			int			lines = 0;
			int			tried = 0;

			for (const char *p = buf; (p = strchr(p, '\n')) != NULL; p++)
				lines++;
			for (int t = 0; t < UID_INSPECT_NTYPES; t++)
				tried += (o.types >> t) & 1;
			CHECK(lines == (r.len == 0 ? 0 : tried));
		}
		/* text output is empty: the reasons go to stderr */
		CHECK(uid_inspect_format(&r, &o, buf, sizeof buf) == 0 && buf[0] == '\0');
	}
	harness_ctx = NULL;
}

/* ---- JSON ---- */

static void
check_json_output(const char *in, size_t len, const uid_inspect_options *o)
{
	int			nm;
	size_t		n = uid_inspect(in, len, o, buf, sizeof buf, &nm);

	CHECK(n < sizeof buf && n == strlen(buf));
	CHECK(n > 0 && buf[n - 1] == '\n');
	/* one line, one object */
	CHECK(memchr(buf, '\n', n - 1) == NULL);
	if (!CHECK(json_check(buf, n)))
		fprintf(stderr, "    %s", buf);
	CHECK((nm == 0) == (strstr(buf, "\"matches\":[]") != NULL));
	CHECK((nm == 0) == (strstr(buf, ",\"error\":\"") != NULL));
}

static void
test_json(void)
{
	uid_inspect_options o = opts(0, 0, 0, 1);
	size_t		n;
	int			nm;

	/* the exact object of a vector */
	harness_ctx = "json exact";
	n = uid_inspect("brpk4q72xwf2m63l", 16, &o, buf, sizeof buf, &nm);
	CHECK(nm == 1);
	CHECK(strcmp(buf,
				 "{\"input\":\"brpk4q72xwf2m63l\",\"matches\":[{\"type\":\"sno\",\"form\":\"text\","
				 "\"text\":\"brpk4q72xwf2m63l\",\"bytes\":\"\\\\x4e6f2160a0ff9a0a1033\","
				 "\"timestamp\":\"2031-05-08T23:03:34.976Z\",\"unix_us\":1936047814976000,"
				 "\"meta\":255,\"partition\":39434,\"sequence\":4147,\"tick\":0}]}\n") == 0);
	CHECK(n == strlen(buf));
	n = uid_inspect("5170397184000256", 16, &o, buf, sizeof buf, &nm);
	CHECK(nm == 2);
	CHECK(strstr(buf, "{\"type\":\"snowflake_si\",\"form\":\"text\",\"text\":\"5170397184000256\","
				 "\"bytes\":\"\\\\x00125e72e7800100\",\"bigint\":5170397184000256,"
				 "\"timestamp\":\"2044-01-01T00:00:00.000Z\",\"unix_us\":2335219200000000,"
				 "\"machine\":1,\"index\":0,\"epoch\":\"2024-01-01T00:00:00.000Z\",\"index_bits\":8}") != NULL);
	n = uid_inspect("5D5EAC793E61F-1BFC71B112D-FFFFFFFF", 34, &o, buf, sizeof buf, &nm);
	CHECK(strstr(buf, "\"uuid\":\"5d5eac79-3e61-f1bf-c71b-112dffffffff\",\"timestamp\":\"2022-01-19T08:00:30.975519Z\","
				 "\"unix_us\":1642579230975519,\"medallion\":1923190821165,\"offset\":-1}") != NULL);
	n = uid_inspect("nope", 4, &o, buf, sizeof buf, &nm);
	CHECK(nm == 0);
	CHECK(starts_with(buf, "{\"input\":\"nope\",\"matches\":[],\"error\":\"\\\"nope\\\" is not an ID of any type tried: sno: expected"));

	/* escaping: quotes, backslashes, controls, UTF-8 and bytes that are not */
	harness_ctx = "json escaping";
	{
		static const char in[] = "a\"b\\c\x01\x7f\xc3\xa9\xf0\x9f\x98\x80\xff\xc3\t";

		n = uid_inspect(in, sizeof in - 1, &o, buf, sizeof buf, &nm);
		CHECK(starts_with(buf, "{\"input\":\"a\\\"b\\\\c\\u0001\\u007f\\u00e9\\ud83d\\ude00\\ufffd\\ufffd\","));
		CHECK(json_check(buf, n));
		/* the message quotes the input for people, then it is escaped for JSON */
		CHECK(strstr(buf, "\"error\":\"\\\"a\\\\\\\"b\\\\c\\\\x01\\\\x7f\\\\xc3\\\\xa9") != NULL);
	}
	{
		/* overlong, surrogate, above U+10FFFF, truncated: each byte is U+FFFD */
		static const char *bad[] = {"\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xe2\x82", "\xf0"};

		for (size_t i = 0; i < 5; i++)
		{
			harness_iter = i;
			n = uid_inspect(bad[i], strlen(bad[i]), &o, buf, sizeof buf, &nm);
			CHECK(json_check(buf, n));
			CHECK(strstr(buf, "\\ufffd") != NULL);
			CHECK(strstr(buf, "\\ufffd\\ufffd") != NULL || strlen(bad[i]) == 1);
		}
	}
	{
		/* a NUL inside the input */
		static const char in[] = "AH1f\0JZhJ7";

		n = uid_inspect(in, sizeof in - 1, &o, buf, sizeof buf, &nm);
		CHECK(nm == 0 && strstr(buf, "\"input\":\"AH1f\\u0000JZhJ7\"") != NULL);
		CHECK(json_check(buf, n));
	}

	/* every output of the vectors, reasons and random bytes is valid JSON */
	harness_ctx = "json valid";
	for (size_t i = 0; i < sizeof vectors / sizeof vectors[0]; i++)
	{
		uid_inspect_options v = opts(0, vectors[i].epoch_ms, vectors[i].k, 1);

		harness_iter = i;
		check_json_output(vectors[i].input, strlen(vectors[i].input), &v);
	}
	for (size_t i = 0; i < sizeof reasons / sizeof reasons[0]; i++)
	{
		uid_inspect_options v = opts(reasons[i].types, 0, 0, 1);

		harness_iter = i;
		check_json_output(reasons[i].input, strlen(reasons[i].input), &v);
	}
	{
		harness_rng rng = rng_seeded(0x15);
		char		in[64];

		for (harness_iter = 0; harness_iter < 20000; harness_iter++)
		{
			size_t		len = rng_below(&rng, sizeof in);
			uid_inspect_options v = opts((unsigned) rng_below(&rng, 32), 0, 0, 1);

			rng_fill(&rng, in, len);
			check_json_output(in, len, &v);
		}
	}

	/* the checker itself refuses what is not JSON */
	harness_ctx = "json checker";
	CHECK(json_check("{\"a\":[1,-2.5e3,true,null,\"\\u00e9\"]}", 35));
	CHECK(!json_check("{\"a\":1,}", 8));
	CHECK(!json_check("{\"a\":01}", 8));
	CHECK(!json_check("{\"a\":\"\x01\"}", 9));
	CHECK(!json_check("{\"a\":\"\\x41\"}", 12));
	CHECK(!json_check("{\"a\":\"\\ud800\"}", 14));
	CHECK(!json_check("{\"a\":\"\xff\"}", 9));
	CHECK(!json_check("{} {}", 5));
	CHECK(!json_check("{\"a\"}", 5));
	harness_ctx = NULL;
}

/* ---- text for people ---- */

static void
test_text(void)
{
	uid_inspect_options o = opts(0, 0, 0, 0);
	int			nm;
	size_t		n;

	harness_ctx = "text exact";
	n = uid_inspect("  brpk4q72xwf2m63l\n", 19, &o, buf, sizeof buf, &nm);
	CHECK(nm == 1);
	CHECK(strcmp(buf,
				 "brpk4q72xwf2m63l\n"
				 "  sno (text)\n"
				 "    text        brpk4q72xwf2m63l\n"
				 "    bytes       \\x4e6f2160a0ff9a0a1033\n"
				 "    timestamp   2031-05-08T23:03:34.976Z\n"
				 "    meta        255\n"
				 "    partition   39434\n"
				 "    sequence    4147\n"
				 "    tick        0\n") == 0);
	CHECK(n == strlen(buf));
	n = uid_inspect("0000000000000000", 16, &o, buf, sizeof buf, &nm);
	CHECK(nm == 4);
	CHECK(strstr(buf, "\n  snowflake_si (text)\n") && strstr(buf, "\n  revts8 (text)\n") &&
		  strstr(buf, "\n  snowflake_si (8 bytes)\n") && strstr(buf, "\n  uid60 (8 bytes)\n"));
	CHECK(strstr(buf, "    index_bits  8\n") != NULL);
	CHECK(strstr(buf, "unix_us") == NULL);
	n = uid_inspect("5d5eac79-3e61-f1bf-c71b-112d0000000b", 36, &o, buf, sizeof buf, &nm);
	CHECK(strstr(buf, "  muid (uuid)\n    text        5D5EAC793E61F-1BFC71B112D-0000000B\n") != NULL);
	harness_ctx = NULL;
}

/* ---- every buffer size ---- */

static void
test_buffer_sizes(void)
{
	static const char *inputs[] = {"0000000000000000", "nope\x01\xff", "brpk4q72xwf2m63l", ""};
	char		full[8192];
	char		small[8192 + 16];

	for (size_t i = 0; i < 4; i++)
		for (int mode = 0; mode < 4; mode++)
		{
			uid_inspect_options o = opts(0, 0, 0, mode & 1);
			uid_inspect_result r;
			size_t		len;

			harness_ctx = inputs[i];
			uid_inspect_detect(inputs[i], strlen(inputs[i]), &o, &r);
			len = mode < 2 ? uid_inspect_format(&r, &o, full, sizeof full) :
				uid_inspect_explain(&r, &o, "; ", full, sizeof full);
			CHECK(len < sizeof full && strlen(full) == len);
			/* NULL with size 0 only measures */
			CHECK((mode < 2 ? uid_inspect_format(&r, &o, NULL, 0) :
				   uid_inspect_explain(&r, &o, "; ", NULL, 0)) == len);
			for (size_t size = 1; size <= len + 1; size++)
			{
				size_t		got;

				harness_iter = size;
				memset(small, 0x5A, sizeof small);
				got = mode < 2 ? uid_inspect_format(&r, &o, small, size) :
					uid_inspect_explain(&r, &o, "; ", small, size);
				CHECK(got == len);
				CHECK(small[size - 1 < len ? size - 1 : len] == '\0');
				CHECK(memcmp(small, full, size - 1 < len ? size - 1 : len) == 0);
				/* nothing written past the buffer */
				CHECK(small[size] == 0x5A);
			}
		}
	harness_ctx = NULL;
}

/* ---- options and dates ---- */

static void
test_options(void)
{
	unsigned	mask;
	int64_t		ms;
	int			k;
	char		why[256];

	harness_ctx = "types";
	mask = 0;
	CHECK(uid_inspect_parse_types("sno", &mask, why, sizeof why) && mask == 1u << UID_INSPECT_SNO);
	mask = 0;
	CHECK(uid_inspect_parse_types("uid60,muid,snowflake_si", &mask, why, sizeof why) &&
		  mask == (1u << UID_INSPECT_UID60 | 1u << UID_INSPECT_MUID | 1u << UID_INSPECT_SNOWFLAKE_SI));
	mask = 0;
	CHECK(uid_inspect_parse_types("revts8", &mask, why, sizeof why) &&
		  uid_inspect_parse_types("sno", &mask, why, sizeof why) &&
		  mask == (1u << UID_INSPECT_REVTS8 | 1u << UID_INSPECT_SNO));
	mask = 0;
	CHECK(!uid_inspect_parse_types("SNO", &mask, why, sizeof why) && strstr(why, "unknown type \"SNO\""));
	CHECK(!uid_inspect_parse_types("sno,", &mask, why, sizeof why) && strstr(why, "unknown type \"\""));
	CHECK(!uid_inspect_parse_types("", &mask, why, sizeof why));
	CHECK(!uid_inspect_parse_types("snowflake", &mask, why, sizeof why));
	CHECK(!uid_inspect_parse_types("sno,uuid", &mask, why, sizeof why) && strstr(why, "\"uuid\""));

	harness_ctx = "index bits";
	CHECK(uid_inspect_parse_index_bits("1", &k, why, sizeof why) && k == 1);
	CHECK(uid_inspect_parse_index_bits("13", &k, why, sizeof why) && k == 13);
	CHECK(uid_inspect_parse_index_bits("08", &k, why, sizeof why) && k == 8);
	CHECK(!uid_inspect_parse_index_bits("0", &k, why, sizeof why) && strstr(why, "1 to 13"));
	CHECK(!uid_inspect_parse_index_bits("14", &k, why, sizeof why));
	CHECK(!uid_inspect_parse_index_bits("", &k, why, sizeof why));
	CHECK(!uid_inspect_parse_index_bits("8x", &k, why, sizeof why));
	CHECK(!uid_inspect_parse_index_bits("-8", &k, why, sizeof why));
	CHECK(!uid_inspect_parse_index_bits("008", &k, why, sizeof why));

	harness_ctx = "epoch";
	{
		static const struct
		{
			const char *s;
			int64_t		ms;			/* -1: refused */
		}			e[] = {
			{"2024-01-01", INT64_C(1704067200000)},
			{"2024-01-01Z", INT64_C(1704067200000)},
			{"2024-01-01T00:00:00Z", INT64_C(1704067200000)},
			{"2024-01-01t00:00z", INT64_C(1704067200000)},
			{"2024-01-01 00:00:00+00", INT64_C(1704067200000)},
			{"2024-01-01 00:00:00 UTC", INT64_C(1704067200000)},
			{"2024-01-01 00:00:00", INT64_C(1704067200000)},
			{"2024-01-01T01:30:00+01:30", INT64_C(1704067200000)},
			{"2023-12-31T19:00:00-0500", INT64_C(1704067200000)},
			{"2024-01-01T00:00:00.000000Z", INT64_C(1704067200000)},
			{"2024-01-01T00:00:00.5Z", INT64_C(1704067200500)},
			{"2024-01-01T00:00:00.123Z", INT64_C(1704067200123)},
			{"2024-01-01T00:00:00.123000000Z", INT64_C(1704067200123)},
			{"1704067200000", INT64_C(1704067200000)},
			{"2004-02-29", INT64_C(1078012800000)},
			{"2003-03-18 07:20:19.225+00", EPOCH_MIN},
			{"1047972019225", EPOCH_MIN},
			{"9965-02-27T04:06:12.224Z", UID_INSPECT_EPOCH_MAX_MS},
			{"2003-03-18 07:20:19.224+00", -1},
			{"1047972019224", -1},
			{"9965-02-27T04:06:12.225Z", -1},
			{"2024-01-01T00:00:00.0001Z", -1},
			{"2024-01-01T00:00:00.1234567890Z", -1},
			{"2023-02-29", -1},
			{"2100-02-29", -1},
			{"2024-13-01", -1},
			{"2024-04-31", -1},
			{"2024-01-01T24:00:00Z", -1},
			{"2024-01-01T00:60:00Z", -1},
			{"2024-01-01T00:00:60Z", -1},
			{"2024-01-01T00:00:00.Z", -1},
			{"2024-01-01T00Z", -1},
			{"2024-01-01T", -1},
			{"2024-1-01", -1},
			{"24-01-01", -1},
			{"2024-01-01 00:00:00+16", -1},
			{"2024-01-01 00:00:00+0060", -1},
			{"2024-01-01 00:00:00 PST", -1},
			{"2024-01-01 00:00:00Zx", -1},
			{"-1704067200000", -1},
			{"", -1},
			{"now", -1},
			{"2024-01-01\n", -1},
			{"9999999999999999", -1},
		};

		for (size_t i = 0; i < sizeof e / sizeof e[0]; i++)
		{
			int			ok;

			harness_iter = i;
			ms = 42;
			why[0] = '\0';
			ok = uid_inspect_parse_epoch(e[i].s, &ms, why, sizeof why);
			if (e[i].ms < 0)
			{
				if (!CHECK(!ok && ms == 42 && why[0] != '\0'))
					fprintf(stderr, "    \"%s\" was taken\n", e[i].s);
			}
			else if (!CHECK(ok && ms == e[i].ms))
				fprintf(stderr, "    \"%s\": %" PRId64 " (%s)\n", e[i].s, ms, why);
		}
	}

	/* a base clock printed is read back as the same */
	harness_ctx = "epoch round trip";
	{
		harness_rng rng = rng_seeded(0xE9);

		for (harness_iter = 0; harness_iter < 100000; harness_iter++)
		{
			int64_t		want = EPOCH_MIN + (int64_t) rng_below(&rng, (uint64_t) (UID_INSPECT_EPOCH_MAX_MS - EPOCH_MIN + 1));
			char		iso[40];

			uid_inspect_iso8601(want * 1000, 3, iso);
			if (!CHECK(uid_inspect_parse_epoch(iso, &ms, why, sizeof why) && ms == want))
				break;
		}
	}

	/* the options reach the snowflake_si fields */
	harness_ctx = "options used";
	{
		uid_inspect_options o = opts(1u << UID_INSPECT_SNOWFLAKE_SI, EPOCH_2004, 13, 1);
		int			nm;

		uid_inspect("5170397184000256", 16, &o, buf, sizeof buf, &nm);
		CHECK(nm == 1);
		CHECK(strstr(buf, "\"timestamp\":\"2024-01-01T00:00:00.000Z\"") != NULL);
		CHECK(strstr(buf, "\"machine\":0,\"index\":256,\"epoch\":\"2004-01-01T00:00:00.000Z\",\"index_bits\":13") != NULL);
	}
	harness_ctx = NULL;
}

static void
test_dates(void)
{
	static const struct
	{
		int			y,
					mo,
					d,
					h,
					mi,
					s,
					ms;
		const char *want;
	}			v[] = {
		{1970, 1, 1, 0, 0, 0, 0, "1970-01-01T00:00:00.000Z"},
		{1999, 12, 31, 23, 59, 59, 999, "1999-12-31T23:59:59.999Z"},
		{2000, 2, 29, 12, 0, 0, 1, "2000-02-29T12:00:00.001Z"},
		{2000, 3, 1, 0, 0, 0, 0, "2000-03-01T00:00:00.000Z"},
		{2100, 2, 28, 23, 59, 59, 0, "2100-02-28T23:59:59.000Z"},
		{2100, 3, 1, 0, 0, 0, 0, "2100-03-01T00:00:00.000Z"},
		{1969, 12, 31, 23, 59, 59, 999, "1969-12-31T23:59:59.999Z"},
		{1600, 2, 29, 0, 0, 0, 0, "1600-02-29T00:00:00.000Z"},
		{9999, 12, 31, 23, 59, 59, 999, "9999-12-31T23:59:59.999Z"},
	};
	char		iso[40];

	harness_ctx = "dates";
	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
	{
		int64_t		ms = harness_unix_ms(v[i].y, v[i].mo, v[i].d, v[i].h, v[i].mi, v[i].s, v[i].ms);

		harness_iter = i;
		uid_inspect_iso8601(ms * 1000, 3, iso);
		CHECK(strcmp(iso, v[i].want) == 0);
	}
	uid_inspect_iso8601(INT64_C(1642579230975519), 6, iso);
	CHECK(strcmp(iso, "2022-01-19T08:00:30.975519Z") == 0);
	uid_inspect_iso8601(INT64_C(1704067201999999), 0, iso);
	CHECK(strcmp(iso, "2024-01-01T00:00:01Z") == 0);
	uid_inspect_iso8601(-1, 6, iso);
	CHECK(strcmp(iso, "1969-12-31T23:59:59.999999Z") == 0);
	/* the extremes do not overflow */
	uid_inspect_iso8601(INT64_MAX, 6, iso);
	CHECK(strcmp(iso, "294247-01-10T04:00:54.775807Z") == 0);
	uid_inspect_iso8601(INT64_MIN, 6, iso);
	CHECK(strcmp(iso, "-290308-12-21T19:59:05.224192Z") == 0);
	harness_ctx = NULL;
}

/*
 * The table the usage is made from (types.c): a row per type of the
 * registry, each with its words for the usage and an example that reads as
 * that type's text form, and nothing else; and the lists of names the
 * messages use.
 */
static void
test_types(void)
{
	/* the five types of 0.7.0, named: the lists hold for a sixth type too */
	const unsigned five = 1u << UID_INSPECT_SNO | 1u << UID_INSPECT_MUID |
		1u << UID_INSPECT_SNOWFLAKE_SI | 1u << UID_INSPECT_REVTS8 | 1u << UID_INSPECT_UID60;
	char		list[256];
	size_t		n;

	harness_ctx = "type table";
	CHECK(UID_INSPECT_NTYPES == UID_NTYPES);
	for (int t = 0; t < UID_INSPECT_NTYPES; t++)
	{
		const uid_inspect_type_info *ti = &uid_inspect_types[t];
		uid_inspect_options o = opts(1u << t, 0, 0, 0);
		uid_inspect_result r;
		uid_inspect_field f[UID_INSPECT_MAX_FIELDS];

		harness_iter = (unsigned long long) t;
		CHECK(ti->name && strcmp(ti->name, uid_inspect_type_name((uid_inspect_type) t)) == 0);
		CHECK(ti->nbytes >= 1 && ti->nbytes <= 16);
		CHECK(ti->text && ti->text[0] != '\0');
		CHECK(ti->brief && ti->brief[0] != '\0');
		CHECK(ti->example && ti->example[0] != '\0');
		if (!ti->example)
			continue;
		/* the example is its type's canonical text */
		CHECK(uid_inspect_detect(ti->example, strlen(ti->example), &o, &r) >= 1 &&
			  r.matches[0].type == (uid_inspect_type) t &&
			  r.matches[0].form == UID_INSPECT_FORM_TEXT);
		CHECK(r.nmatches >= 1 && uid_inspect_fields(&r.matches[0], &o, f) > 0 &&
			  strcmp(f[0].key, "text") == 0 && strcmp(f[0].str, ti->example) == 0);
	}

	harness_ctx = "type lists";
	harness_iter = 0;
	n = uid_inspect_type_list(five, ", ", " and ", list, sizeof list);
	CHECK(n == strlen(list) && strcmp(list, "sno, muid, snowflake_si, revts8 and uid60") == 0);
	n = uid_inspect_type_list(1u << UID_INSPECT_REVTS8 | 1u << UID_INSPECT_SNO, ", ", " or ",
							  list, sizeof list);
	CHECK(n == strlen(list) && strcmp(list, "sno or revts8") == 0);
	CHECK(uid_inspect_type_list(1u << UID_INSPECT_MUID, ", ", " or ", list, sizeof list) == 4 &&
		  strcmp(list, "muid") == 0);
	CHECK(uid_inspect_type_list(0, ", ", " or ", list, sizeof list) == 0 && list[0] == '\0');
	/* snprintf's contract: cut and terminated, the whole length returned */
	CHECK(uid_inspect_type_list(five, ", ", ", ", list, 6) ==
		  strlen("sno, muid, snowflake_si, revts8, uid60") && strcmp(list, "sno, ") == 0);
	CHECK(uid_inspect_type_list(five, ", ", ", ", NULL, 0) ==
		  strlen("sno, muid, snowflake_si, revts8, uid60"));
	harness_ctx = NULL;
}

int
main(void)
{
	printf("seed 0x%016" PRIx64 "\n", harness_seed);
	test_vectors();
	test_ambiguity();
	test_reasons();
	test_json();
	test_text();
	test_buffer_sizes();
	test_options();
	test_dates();
	test_types();
	printf("inspect: %llu passed, %llu failed\n", harness_passed, harness_failed);
	return harness_failed ? 1 : 0;
}
