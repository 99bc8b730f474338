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
#include "inspect_rows.h"

unsigned long long harness_passed;
unsigned long long harness_failed;
uint64_t	harness_seed = UINT64_C(0x696e737065637421);	/* "inspect!" */
const char *harness_ctx;
unsigned long long harness_iter;


static char buf[1 << 16];

/* Each type's rows (inspect_rows.h), from its <type>_inspect_test.c. */
#define TYPE_ROWS_DECL(ID, name, ...) extern const inspect_rows name##_inspect_rows;
UID_TYPES(TYPE_ROWS_DECL)
#define TYPE_ROWS_OF(ID, name, ...) [UID_INSPECT_##ID] = &name##_inspect_rows,
static const inspect_rows *const type_rows[UID_INSPECT_NTYPES] = {UID_TYPES(TYPE_ROWS_OF)};

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

/* Each type's vectors, read as every type's; its text read back as its own. */
static void
test_vector(const vector *v)
{
	{
		uid_inspect_options o = opts(0, v->epoch_ms, v->k, 0);
		uid_inspect_result r;
		const uid_inspect_match *m;
		uid_inspect_field f[UID_INSPECT_MAX_FIELDS];
		const uid_inspect_field *x;
		char		rendered[256];
		int			n;

		harness_ctx = v->input;
		uid_inspect_detect(v->input, strlen(v->input), &o, &r);
		m = find_match(&r, v->type, v->form);
		if (!CHECK(m != NULL))
			return;
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
}

static void
test_vectors(void)
{
	for (int t = 0; t < UID_INSPECT_NTYPES; t++)
		for (size_t i = 0; i < type_rows[t]->nvectors; i++)
		{
			harness_iter = i;
			test_vector(&type_rows[t]->vectors[i]);
		}
	harness_ctx = NULL;
}

/* ---- what a string can be ---- */

/* Strings no type reads. */
static const char *const no_readings[] = {
	/* reserved bits set: no revts8; above 2^53 and 2^60: no 8-byte type */
	"cb54ecf284000400", "\\xcb54ecf284000400",
	/* other lengths of bytes */
	"\\x", "\\x00", "\\x000", "\\x000000000000000000",
	/* not quite */
	"brpk4q72xwf2m63y", "brpk4q72 xwf2m63l", "9007199254740992", "AH1fUJZhJ+", "", "   ",
};

/*
 * The readings of input by the types of mask that the types' rows give, as
 * "type/form ..." in uid-inspect's order (every text reading, then the
 * others, each in type order); returns how many.
 */
static int
rows_readings(const char *input, unsigned mask, char *out, size_t size)
{
	size_t		len = 0;
	int			n = 0;

	out[0] = '\0';
	for (int text = 1; text >= 0; text--)
		for (int t = 0; t < UID_INSPECT_NTYPES; t++)
			for (size_t i = 0; (mask >> t & 1) && i < type_rows[t]->nreadings; i++)
			{
				const reading *g = &type_rows[t]->readings[i];

				if (strcmp(g->input, input) != 0 || (g->form == T) != text)
					continue;
				len += (size_t) snprintf(out + len, size - len, "%s%s/%s", n++ ? " " : "",
										 uid_inspect_type_name((uid_inspect_type) t),
										 uid_inspect_form_name(g->form));
			}
	return n;
}

/* What input is, tried as the types of mask, against the rows; how many readings. */
static int
check_readings(const char *input, unsigned mask)
{
	uid_inspect_options o = opts(mask, 0, 0, 0);
	uid_inspect_result r;
	char		got[256] = "";
	char		want[256];
	size_t		len = 0;
	int			n;
	int			nwant = rows_readings(input, mask, want, sizeof want);

	harness_ctx = input;
	n = uid_inspect_detect(input, strlen(input), &o, &r);
	CHECK(n == r.nmatches);
	for (int k = 0; k < r.nmatches; k++)
		len += (size_t) snprintf(got + len, sizeof got - len, "%s%s/%s", k ? " " : "",
								 uid_inspect_type_name(r.matches[k].type),
								 uid_inspect_form_name(r.matches[k].form));
	if (!CHECK(strcmp(got, want) == 0))
		fprintf(stderr, "    got  \"%s\"\n    want \"%s\"\n", got, want);
	return nwant;
}

static void
test_ambiguity(void)
{
	int			table_most = 0;

	/* every type's strings, tried by every type and by their type alone */
	for (int t = 0; t < UID_INSPECT_NTYPES; t++)
		for (size_t i = 0; i < type_rows[t]->nreadings; i++)
		{
			const char *input = type_rows[t]->readings[i].input;
			int			n = check_readings(input, UID_INSPECT_ALL_TYPES);

			harness_iter = i;
			if (n > table_most)
				table_most = n;
			check_readings(input, 1u << t);
		}
	for (size_t i = 0; i < sizeof no_readings / sizeof no_readings[0]; i++)
	{
		harness_iter = i;
		CHECK(check_readings(no_readings[i], UID_INSPECT_ALL_TYPES) == 0);
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
		CHECK(most >= table_most);
		CHECK(most < UID_INSPECT_MAX_MATCHES);
	}
	harness_ctx = NULL;
}

/* ---- why a string is no ID ---- */

/* Reasons of no type's. */
static const reason reasons[] = {
	{"", 0, "\"\" is empty"},
	{" \t ", 0, "\"\" is empty"},
	{"\\x123", 0, "it has an odd number of hex digits"},
};

static void
test_reason(const reason *e)
{
	{
		uid_inspect_options o = opts(e->types, 0, 0, 0);
		uid_inspect_result r;
		size_t		n;

		harness_ctx = e->input;
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
}

static void
test_reasons(void)
{
	for (size_t i = 0; i < sizeof reasons / sizeof reasons[0]; i++)
	{
		harness_iter = i;
		test_reason(&reasons[i]);
	}
	for (int t = 0; t < UID_INSPECT_NTYPES; t++)
		for (size_t i = 0; i < type_rows[t]->nreasons; i++)
		{
			harness_iter = i;
			test_reason(&type_rows[t]->reasons[i]);
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
	for (int t = 0; t < UID_INSPECT_NTYPES; t++)
	{
		const inspect_rows *rows = type_rows[t];

		for (size_t i = 0; i < rows->nvectors; i++)
		{
			uid_inspect_options v = opts(0, rows->vectors[i].epoch_ms, rows->vectors[i].k, 1);

			harness_iter = i;
			check_json_output(rows->vectors[i].input, strlen(rows->vectors[i].input), &v);
		}
		for (size_t i = 0; i < rows->nreasons; i++)
		{
			uid_inspect_options v = opts(rows->reasons[i].types, 0, 0, 1);

			harness_iter = i;
			check_json_output(rows->reasons[i].input, strlen(rows->reasons[i].input), &v);
		}
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
	char		list[256];

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
	/* every reading of an ambiguous string, each under its heading */
	n = uid_inspect("0000000000000000", 16, &o, buf, sizeof buf, &nm);
	CHECK(nm == rows_readings("0000000000000000", UID_INSPECT_ALL_TYPES, list, sizeof list) && nm > 1);
	for (int t = 0; t < UID_INSPECT_NTYPES; t++)
		for (size_t i = 0; i < type_rows[t]->nreadings; i++)
		{
			const reading *g = &type_rows[t]->readings[i];
			char		heading[64];

			if (strcmp(g->input, "0000000000000000") != 0)
				continue;
			if (g->form == B)
				snprintf(heading, sizeof heading, "\n  %s (%d bytes)\n",
						 uid_inspect_types[t].name, uid_inspect_types[t].nbytes);
			else
				snprintf(heading, sizeof heading, "\n  %s (%s)\n",
						 uid_inspect_types[t].name, uid_inspect_form_name(g->form));
			if (!CHECK(strstr(buf, heading) != NULL))
				fprintf(stderr, "    no \"%s\"\n", heading);
		}
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
	/* every type's name, last first */
	{
		char		names[256] = "";
		size_t		len = 0;

		for (int t = UID_INSPECT_NTYPES - 1; t >= 0; t--)
			len += (size_t) snprintf(names + len, sizeof names - len, "%s%s",
									 len ? "," : "", uid_inspect_type_name((uid_inspect_type) t));
		mask = 0;
		CHECK(uid_inspect_parse_types(names, &mask, why, sizeof why) && mask == UID_INSPECT_ALL_TYPES);
	}
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
	const unsigned all = UID_INSPECT_ALL_TYPES;
	char		list[256];
	char		want[256] = "";
	size_t		wlen = 0;
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
	/* every type, in the registry's order: "sno, muid, ... and the last" */
	for (int t = 0; t < UID_INSPECT_NTYPES; t++)
		wlen += (size_t) snprintf(want + wlen, sizeof want - wlen, "%s%s",
								  t == 0 ? "" : t == UID_INSPECT_NTYPES - 1 ? " and " : ", ",
								  uid_inspect_type_name((uid_inspect_type) t));
	n = uid_inspect_type_list(all, ", ", " and ", list, sizeof list);
	CHECK(n == strlen(list) && strcmp(list, want) == 0);
	n = uid_inspect_type_list(1u << UID_INSPECT_REVTS8 | 1u << UID_INSPECT_SNO, ", ", " or ",
							  list, sizeof list);
	CHECK(n == strlen(list) && strcmp(list, "sno or revts8") == 0);
	CHECK(uid_inspect_type_list(1u << UID_INSPECT_MUID, ", ", " or ", list, sizeof list) == 4 &&
		  strcmp(list, "muid") == 0);
	CHECK(uid_inspect_type_list(0, ", ", " or ", list, sizeof list) == 0 && list[0] == '\0');
	/* snprintf's contract: cut and terminated, the whole length returned */
	CHECK(uid_inspect_type_list(all, ", ", " and ", list, 6) == wlen && strcmp(list, "sno, ") == 0);
	CHECK(uid_inspect_type_list(all, ", ", " and ", NULL, 0) == wlen);
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
