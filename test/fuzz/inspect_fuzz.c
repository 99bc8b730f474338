/*
 * inspect_fuzz.c
 *		libFuzzer target for uid-inspect's core (make fuzzcheck): detection
 *		over every codec, and both output modes.
 *
 * The first byte picks the options (JSON or text, the types tried, one of
 * three base clocks), the second the snowflake_si index width; the rest is
 * the input.  Properties, each checked with abort() so that libFuzzer reports
 * it:
 *	- nothing reads or writes outside its buffers (ASan, UBSan);
 *	- every match is of a type tried, and every type whose text decoder
 *	  takes the input (without its surrounding white space) has its text
 *	  match with the decoded value: no reading is dropped;
 *	- each match's "text" field decodes, as that type, to the match's
 *	  value, and its "bytes" field is \x and the hex of that value;
 *	- the formatting keeps the snprintf contract: the same length for every
 *	  buffer size, the text cut at size - 1 and terminated, nothing written
 *	  past size;
 *	- JSON output is one line holding one valid JSON object (a strict
 *	  parser, test/unit/inspect_json.h), with "error" exactly when nothing
 *	  matched; text output is empty exactly when nothing matched, and then
 *	  the explanation names the input.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "inspect/inspect.h"
#include "codec/muid_codec.h"
#include "codec/revts8_codec.h"
#include "codec/sno_codec.h"
#include "codec/snowflake_si_codec.h"
#include "codec/uid60_codec.h"
#include "../unit/inspect_json.h"
#include "fuzz.h"

static int
is_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static const uid_inspect_match *
find(const uid_inspect_result *r, uid_inspect_type t, uid_inspect_form f)
{
	for (int i = 0; i < r->nmatches; i++)
		if (r->matches[i].type == t && r->matches[i].form == f)
			return &r->matches[i];
	return NULL;
}

/* The value of a type's text as its binary form, or 0 if it is refused. */
static int
decode_as(uid_inspect_type t, const char *s, size_t n, uint8_t out[16])
{
	uint64_t	v;

	memset(out, 0, 16);
	switch (t)
	{
		case UID_INSPECT_SNO:
			return sno_decode(s, n, out, NULL) == UID_OK;
		case UID_INSPECT_MUID:
			return muid_decode(s, n, out, NULL) == UID_OK;
		case UID_INSPECT_SNOWFLAKE_SI:
			if (snowflake_si_decode(s, n, &v, NULL) != UID_OK)
				return 0;
			break;
		case UID_INSPECT_REVTS8:
			if (revts8_decode(s, n, &v, NULL) != UID_OK)
				return 0;
			break;
		case UID_INSPECT_UID60:
			if (uid60_decode(s, n, &v, NULL) != UID_OK)
				return 0;
			break;
		default:
			abort();
	}
	uid_store_be(out, 8, v);
	return 1;
}

static const int nbytes[UID_INSPECT_NTYPES] = {10, 16, 8, 8, 8};

/* Formats with fn into a buffer of every kind of size; returns the text. */
static char *
check_format(const uid_inspect_result *r, const uid_inspect_options *o, int explain,
			 size_t cut, size_t *len)
{
	size_t		n = explain ? uid_inspect_explain(r, o, "; ", NULL, 0) :
		uid_inspect_format(r, o, NULL, 0);
	char	   *full = malloc(n + 1);
	char	   *small;
	size_t		size = cut % (n + 2);

	if (full == NULL)
		abort();
	if ((explain ? uid_inspect_explain(r, o, "; ", full, n + 1) :
		 uid_inspect_format(r, o, full, n + 1)) != n || full[n] != '\0' || strlen(full) != n)
		abort();

	/* a buffer that may be too small, with a guard byte after it */
	small = malloc(size + 1);
	if (small == NULL)
		abort();
	memset(small, 0x5A, size + 1);
	if ((explain ? uid_inspect_explain(r, o, "; ", small, size) :
		 uid_inspect_format(r, o, small, size)) != n)
		abort();
	if (small[size] != 0x5A)
		abort();
	if (size > 0)
	{
		size_t		k = size - 1 < n ? size - 1 : n;

		if (small[k] != '\0' || memcmp(small, full, k) != 0)
			abort();
	}
	free(small);
	*len = n;
	return full;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const int64_t epochs[4] = {
		UID_INSPECT_DEFAULT_EPOCH_MS, INT64_C(1047972019225), UID_INSPECT_EPOCH_MAX_MS,
		UID_INSPECT_DEFAULT_EPOCH_MS
	};
	uid_inspect_options o;
	uid_inspect_result r;
	const char *in;
	size_t		len;
	size_t		b;
	size_t		e;
	uint8_t		op = size > 0 ? data[0] : 0;
	uint8_t		op2 = size > 1 ? data[1] : 0;
	char	   *out;
	size_t		outlen;

	uid_inspect_default_options(&o);
	o.json = op & 1;
	if ((op >> 1) & 31)
		o.types = (op >> 1) & 31;
	o.epoch_ms = epochs[op >> 6];
	o.index_bits = 1 + op2 % 13;
	in = (const char *) data + (size < 2 ? size : 2);
	len = size < 2 ? 0 : size - 2;

	uid_inspect_detect(in, len, &o, &r);
	if (r.nmatches < 0 || r.nmatches >= UID_INSPECT_MAX_MATCHES)
		abort();

	/* the input as the codecs see it */
	b = 0;
	e = len;
	while (b < e && is_space((unsigned char) in[b]))
		b++;
	while (e > b && is_space((unsigned char) in[e - 1]))
		e--;
	if (r.input != in + b || r.len != e - b)
		abort();

	for (int t = 0; t < UID_INSPECT_NTYPES; t++)
	{
		uint8_t		v[16];
		const uid_inspect_match *m = find(&r, (uid_inspect_type) t, UID_INSPECT_FORM_TEXT);
		int			tried = (o.types >> t) & 1;

		if (tried && decode_as((uid_inspect_type) t, r.input, r.len, v))
		{
			if (m == NULL || memcmp(m->bytes, v, 16) != 0)
				abort();
		}
		else if (m != NULL)
			abort();
	}

	for (int i = 0; i < r.nmatches; i++)
	{
		const uid_inspect_match *m = &r.matches[i];
		uid_inspect_field f[UID_INSPECT_MAX_FIELDS];
		int			n;
		uint8_t		v[16];
		char		hex[40] = "\\x";

		if (!((o.types >> m->type) & 1))
			abort();
		n = uid_inspect_fields(m, &o, f);
		if (n < 4 || n > UID_INSPECT_MAX_FIELDS || strcmp(f[0].key, "text") != 0 ||
			strcmp(f[1].key, "bytes") != 0)
			abort();
		if (!decode_as(m->type, f[0].str, strlen(f[0].str), v) || memcmp(v, m->bytes, 16) != 0)
			abort();
		for (int k = 0; k < nbytes[m->type]; k++)
		{
			hex[2 + 2 * k] = "0123456789abcdef"[m->bytes[k] >> 4];
			hex[3 + 2 * k] = "0123456789abcdef"[m->bytes[k] & 15];
		}
		hex[2 + 2 * nbytes[m->type]] = '\0';
		if (strcmp(f[1].str, hex) != 0)
			abort();
	}

	out = check_format(&r, &o, 0, size > 1 ? (size_t) data[size - 1] * 7 : 0, &outlen);
	if (o.json)
	{
		if (outlen == 0 || out[outlen - 1] != '\n' || memchr(out, '\n', outlen - 1) != NULL)
			abort();
		if (!json_check(out, outlen))
			abort();
		if ((r.nmatches == 0) != (strstr(out, ",\"error\":\"") != NULL))
			abort();
	}
	else if ((r.nmatches == 0) != (outlen == 0))
		abort();
	free(out);

	if (r.nmatches == 0)
	{
		out = check_format(&r, &o, 1, size, &outlen);
		if (outlen == 0 || out[0] != '"')
			abort();
		free(out);
	}
	return 0;
}
