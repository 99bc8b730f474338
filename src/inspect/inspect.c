/*
 * inspect.c
 *		The core of uid-inspect: detection over the codecs, and formatting
 *		into a caller's buffer (see inspect.h).
 *
 * Everything here reads only the len bytes it is given and writes only
 * within the buffer it is given: it runs on whatever a log holds, and the
 * fuzzer (test/fuzz/inspect_fuzz.c) calls it on arbitrary bytes.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "inspect.h"
#include "codec/muid_codec.h"
#include "codec/revts8_codec.h"
#include "codec/sno_codec.h"
#include "codec/snowflake_si_codec.h"
#include "codec/uid60_codec.h"

/* What each type's input takes, in the words of its SQL input function. */
static const struct
{
	const char *name;
	int			nbytes;			/* the binary form */
	const char *text;			/* the text form */
}			types[UID_INSPECT_NTYPES] = {
#define UID_INSPECT_TYPE(ID, name, slot, nbytes, text, ...) [UID_INSPECT_##ID] = {name, nbytes, text},
	UID_TYPES(UID_INSPECT_TYPE)
#undef UID_INSPECT_TYPE
};

#define US_PER_MS	INT64_C(1000)
#define US_PER_S	INT64_C(1000000)
#define US_PER_DAY	INT64_C(86400000000)
#define MS_PER_DAY	INT64_C(86400000)

void
uid_inspect_default_options(uid_inspect_options *o)
{
	o->types = UID_INSPECT_ALL_TYPES;
	o->epoch_ms = UID_INSPECT_DEFAULT_EPOCH_MS;
	o->index_bits = UID_INSPECT_DEFAULT_INDEX_BITS;
	o->json = 0;
}

const char *
uid_inspect_type_name(uid_inspect_type t)
{
	return (unsigned) t < UID_INSPECT_NTYPES ? types[t].name : "?";
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

/* The white space the codecs and PostgreSQL's bigint input skip. */
static int
is_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static int
is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

/* ---- detection ---- */

static void
add_match(uid_inspect_result *r, uid_inspect_type t, uid_inspect_form f,
		  const uint8_t *bytes, int n)
{
	uid_inspect_match *m;

	/* at most five readings exist (inspect_test checks the worst cases) */
	if (r->nmatches >= UID_INSPECT_MAX_MATCHES)
		return;
	m = &r->matches[r->nmatches++];
	m->type = t;
	m->form = f;
	memset(m->bytes, 0, sizeof m->bytes);
	memcpy(m->bytes, bytes, (size_t) n);
}

/* An 8-byte type's value as its binary form, a big-endian integer. */
static void
add_match_u64(uid_inspect_result *r, uid_inspect_type t, uid_inspect_form f,
			  uint64_t v)
{
	uint8_t		b[8];

	uid_store_be(b, 8, v);
	add_match(r, t, f, b, 8);
}

/* uuid text: 8-4-4-4-12 hex digits. */
static int
is_uuid_text(const char *s, size_t n)
{
	if (n != 36)
		return 0;
	for (size_t i = 0; i < n; i++)
	{
		if (i == 8 || i == 13 || i == 18 || i == 23)
		{
			if (s[i] != '-')
				return 0;
		}
		else if (uid_hexval((unsigned char) s[i]) < 0)
			return 0;
	}
	return 1;
}

/*
 * The input as hex bytes: with a prefix "\x" (psql's bytea output) or
 * "0x", plain, or as uuid text.  Sets r->hex, hex_prefixed and hex_nbytes;
 * the first 16 bytes go to out (used only when there are no more).
 * Returns whether it was uuid text.
 */
static int
read_hex(uid_inspect_result *r, uint8_t out[16])
{
	const char *s = r->input;
	size_t		n = r->len;
	size_t		ndigits = 0;
	int			uuid = 0;

	r->hex = UID_INSPECT_HEX_NONE;
	r->hex_prefixed = 0;
	r->hex_nbytes = 0;
	if (n >= 2 && (s[0] == '\\' || s[0] == '0') && (s[1] == 'x' || s[1] == 'X'))
	{
		r->hex_prefixed = 1;
		s += 2;
		n -= 2;
	}
	else if (is_uuid_text(s, n))
		uuid = 1;
	else if (n == 0)
		return 0;

	for (size_t i = 0; i < n; i++)
	{
		int			d = uid_hexval((unsigned char) s[i]);

		if (uuid && s[i] == '-')
			continue;
		if (d < 0)
			return 0;
		if (ndigits < 32)
			out[ndigits / 2] = (uint8_t) (ndigits % 2 ? out[ndigits / 2] << 4 | d : d);
		ndigits++;
	}
	if (ndigits % 2)
	{
		/* plain digits of an odd number are no bytes at all */
		if (r->hex_prefixed)
			r->hex = UID_INSPECT_HEX_ODD;
		return 0;
	}
	r->hex = UID_INSPECT_HEX_OK;
	r->hex_nbytes = ndigits / 2;
	return uuid;
}

int
uid_inspect_detect(const char *in, size_t len, const uid_inspect_options *o,
				   uid_inspect_result *r)
{
	size_t		b = 0;
	size_t		e = len;
	unsigned	want = o->types;
	uint8_t		hb[16];
	int			uuid;

	memset(r, 0, sizeof *r);
	while (b < e && is_space((unsigned char) in[b]))
		b++;
	while (e > b && is_space((unsigned char) in[e - 1]))
		e--;
	r->input = in + b;
	r->len = e - b;
	for (int t = 0; t < UID_INSPECT_NTYPES; t++)
	{
		r->text_status[t] = UID_BAD_LENGTH;
		r->bytes_status[t] = UID_BAD_LENGTH;
	}

	/* the text forms, each by its own decoder */
	if (want & (1u << UID_INSPECT_SNO))
	{
		uint8_t		v[SNO_LEN];
		uid_status *st = &r->text_status[UID_INSPECT_SNO];

		*st = sno_decode(r->input, r->len, v, &r->text_bad_pos[UID_INSPECT_SNO]);
		if (*st == UID_OK)
			add_match(r, UID_INSPECT_SNO, UID_INSPECT_FORM_TEXT, v, SNO_LEN);
	}
	if (want & (1u << UID_INSPECT_MUID))
	{
		uint8_t		v[MUID_LEN];
		uid_status *st = &r->text_status[UID_INSPECT_MUID];

		*st = muid_decode(r->input, r->len, v, &r->text_bad_pos[UID_INSPECT_MUID]);
		if (*st == UID_OK)
			add_match(r, UID_INSPECT_MUID, UID_INSPECT_FORM_TEXT, v, MUID_LEN);
	}
	if (want & (1u << UID_INSPECT_SNOWFLAKE_SI))
	{
		uint64_t	v;
		uid_status *st = &r->text_status[UID_INSPECT_SNOWFLAKE_SI];

		/* (the input has no surrounding white space left for it to skip) */
		*st = snowflake_si_decode(r->input, r->len, &v,
								  &r->text_bad_pos[UID_INSPECT_SNOWFLAKE_SI]);
		if (*st == UID_OK)
			add_match_u64(r, UID_INSPECT_SNOWFLAKE_SI, UID_INSPECT_FORM_TEXT, v);
	}
	if (want & (1u << UID_INSPECT_REVTS8))
	{
		uint64_t	v;
		uid_status *st = &r->text_status[UID_INSPECT_REVTS8];

		*st = revts8_decode(r->input, r->len, &v, &r->text_bad_pos[UID_INSPECT_REVTS8]);
		if (*st == UID_OK)
			add_match_u64(r, UID_INSPECT_REVTS8, UID_INSPECT_FORM_TEXT, v);
	}
	if (want & (1u << UID_INSPECT_UID60))
	{
		uint64_t	v;
		uid_status *st = &r->text_status[UID_INSPECT_UID60];

		*st = uid60_decode(r->input, r->len, &v, &r->text_bad_pos[UID_INSPECT_UID60]);
		if (*st == UID_OK)
			add_match_u64(r, UID_INSPECT_UID60, UID_INSPECT_FORM_TEXT, v);
	}

	/* the binary forms, as the recv functions and bytea casts take them */
	uuid = read_hex(r, hb);
	if (r->hex != UID_INSPECT_HEX_OK)
		return r->nmatches;
	for (int t = 0; t < UID_INSPECT_NTYPES; t++)
	{
		uid_status *st = &r->bytes_status[t];
		uint64_t	v;

		if (!(want & (1u << t)) || r->hex_nbytes != (size_t) types[t].nbytes)
			continue;
		/* uuid text is muid's alone: the 16 bytes of muid::uuid */
		if (uuid && t != UID_INSPECT_MUID)
			continue;
		v = types[t].nbytes == 8 ? uid_load_be(hb, 8) : 0;
		switch ((uid_inspect_type) t)
		{
			case UID_INSPECT_SNO:
			case UID_INSPECT_MUID:
				*st = UID_OK;
				break;
			case UID_INSPECT_SNOWFLAKE_SI:
				*st = v > SNOWFLAKE_SI_MAX ? UID_OUT_OF_RANGE : UID_OK;
				break;
			case UID_INSPECT_REVTS8:

				/*
				 * Plain, its 8 bytes are its text: the text reading above
				 * stands for both.
				 */
				if (!r->hex_prefixed)
				{
					*st = r->text_status[t];
					continue;
				}
				*st = v & REVTS8_RESERVED_MASK ? UID_BAD_RESERVED : UID_OK;
				break;
			case UID_INSPECT_UID60:
				*st = v > UID60_MAX ? UID_OUT_OF_RANGE : UID_OK;
				break;
			case UID_INSPECT_NTYPES:
				continue;
		}
		if (*st == UID_OK)
			add_match(r, (uid_inspect_type) t,
					  uuid ? UID_INSPECT_FORM_UUID : UID_INSPECT_FORM_BYTES,
					  hb, types[t].nbytes);
	}
	return r->nmatches;
}

/* ---- dates ---- */

/* Days since 1970-01-01 of a proleptic Gregorian date (Hinnant's method). */
static int64_t
days_from_civil(int64_t y, int m, int d)
{
	int64_t		era;
	int64_t		yoe;
	int64_t		doy;
	int64_t		doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

/* And back. */
static void
civil_from_days(int64_t z, int64_t *y, int *m, int *d)
{
	int64_t		era;
	int64_t		doe;
	int64_t		yoe;
	int64_t		doy;
	int64_t		mp;

	z += 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = z - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = (int) (doy - (153 * mp + 2) / 5 + 1);
	*m = (int) (mp < 10 ? mp + 3 : mp - 9);
	*y = yoe + era * 400 + (*m <= 2);
}

void
uid_inspect_iso8601(int64_t unix_us, int decimals, char out[40])
{
	int64_t		days = unix_us / US_PER_DAY;
	int64_t		rem = unix_us % US_PER_DAY;
	int64_t		y;
	int			m;
	int			d;
	int64_t		secs;
	int			n;

	if (rem < 0)
	{
		rem += US_PER_DAY;
		days--;
	}
	civil_from_days(days, &y, &m, &d);
	secs = rem / US_PER_S;
	n = snprintf(out, 40, "%04" PRId64 "-%02d-%02dT%02d:%02d:%02d", y, m, d,
				 (int) (secs / 3600), (int) (secs / 60 % 60), (int) (secs % 60));
	if (decimals == 3)
		n += snprintf(out + n, 40 - (size_t) n, ".%03d", (int) (rem % US_PER_S / 1000));
	else if (decimals == 6)
		n += snprintf(out + n, 40 - (size_t) n, ".%06d", (int) (rem % US_PER_S));
	snprintf(out + n, 40 - (size_t) n, "Z");
}

/* ---- fields ---- */

static uid_inspect_field *
field_str(uid_inspect_field *f, int *n, const char *key)
{
	uid_inspect_field *x = &f[(*n)++];

	x->key = key;
	x->is_int = 0;
	x->json_only = 0;
	x->num = 0;
	x->str[0] = '\0';
	return x;
}

static void
field_int(uid_inspect_field *f, int *n, const char *key, int64_t v)
{
	uid_inspect_field *x = field_str(f, n, key);

	x->is_int = 1;
	x->num = v;
}

/* The time, and the same as Unix microseconds for programs. */
static void
field_time(uid_inspect_field *f, int *n, int64_t unix_us, int decimals)
{
	uid_inspect_iso8601(unix_us, decimals, field_str(f, n, "timestamp")->str);
	field_int(f, n, "unix_us", unix_us);
	f[*n - 1].json_only = 1;
}

int
uid_inspect_fields(const uid_inspect_match *m, const uid_inspect_options *o,
				   uid_inspect_field f[UID_INSPECT_MAX_FIELDS])
{
	static const char hex[] = "0123456789abcdef";
	int			n = 0;
	int			nbytes = types[m->type].nbytes;
	uint64_t	v = uid_load_be(m->bytes, 8);
	char	   *s;

	/* text first, then the bytes as psql prints a bytea */
	s = field_str(f, &n, "text")->str;
	switch (m->type)
	{
		case UID_INSPECT_SNO:
			sno_encode(m->bytes, s);
			s[SNO_TEXT_LEN] = '\0';
			break;
		case UID_INSPECT_MUID:
			muid_encode(m->bytes, s);
			s[MUID_TEXT_LEN] = '\0';
			break;
		case UID_INSPECT_SNOWFLAKE_SI:
			snowflake_si_encode(v, s);
			break;
		case UID_INSPECT_REVTS8:
			revts8_encode(v, s);
			s[REVTS8_TEXT_LEN] = '\0';
			break;
		case UID_INSPECT_UID60:
			uid60_encode(v, s);
			s[UID60_TEXT_LEN] = '\0';
			break;
		case UID_INSPECT_NTYPES:
			break;
	}
	s = field_str(f, &n, "bytes")->str;
	*s++ = '\\';
	*s++ = 'x';
	for (int i = 0; i < nbytes; i++)
	{
		*s++ = hex[m->bytes[i] >> 4];
		*s++ = hex[m->bytes[i] & 15];
	}
	*s = '\0';

	switch (m->type)
	{
		case UID_INSPECT_SNO:
			{
				sno_fields x;

				sno_unpack(m->bytes, &x);
				field_time(f, &n, (SNO_EPOCH_UNIX_MS + (int64_t) x.units * SNO_UNIT_MS) * US_PER_MS, 3);
				field_int(f, &n, "meta", x.meta);
				field_int(f, &n, "partition", x.partition);
				field_int(f, &n, "sequence", x.sequence);
				field_int(f, &n, "tick", x.tick);
				break;
			}
		case UID_INSPECT_MUID:
			{
				muid_fields x;
				char	   *u;
				int			j = 0;

				/* muid::uuid is the same 16 bytes */
				u = field_str(f, &n, "uuid")->str;
				for (int i = 0; i < MUID_LEN; i++)
				{
					if (i == 4 || i == 6 || i == 8 || i == 10)
						u[j++] = '-';
					u[j++] = hex[m->bytes[i] >> 4];
					u[j++] = hex[m->bytes[i] & 15];
				}
				u[j] = '\0';
				muid_unpack(m->bytes, &x);
				field_time(f, &n, (int64_t) x.timestamp, 6);
				field_int(f, &n, "medallion", (int64_t) x.medallion);
				field_int(f, &n, "offset", x.offset);
				break;
			}
		case UID_INSPECT_SNOWFLAKE_SI:
			{
				snowflake_si_fields x;

				snowflake_si_unpack(v, o->index_bits, &x);
				field_int(f, &n, "bigint", (int64_t) v);
				field_time(f, &n, (o->epoch_ms + (int64_t) x.mab) * US_PER_MS, 3);
				field_int(f, &n, "machine", x.mid);
				field_int(f, &n, "index", x.uin);
				uid_inspect_iso8601(o->epoch_ms * US_PER_MS, 3, field_str(f, &n, "epoch")->str);
				field_int(f, &n, "index_bits", o->index_bits);
				break;
			}
		case UID_INSPECT_REVTS8:
			{
				revts8_fields x;

				revts8_unpack(v, &x);
				/* revts8::bigint: the bytes as a signed integer */
				field_int(f, &n, "bigint", (int64_t) v);
				field_time(f, &n, (int64_t) x.ts * US_PER_MS, 3);
				field_int(f, &n, "sequence", x.seq);
				field_int(f, &n, "generator", x.generator);
				field_int(f, &n, "cluster", x.cluster);
				break;
			}
		case UID_INSPECT_UID60:
			{
				uid60_fields x;

				uid60_unpack(v, &x);
				field_int(f, &n, "bigint", (int64_t) v);
				field_time(f, &n, (UID60_EPOCH_UNIX_S + (int64_t) x.ts) * US_PER_S, 0);
				field_int(f, &n, "worker", x.worker);
				field_int(f, &n, "sequence", x.seq);
				field_int(f, &n, "random", x.rand);
				break;
			}
		case UID_INSPECT_NTYPES:
			break;
	}
	return n;
}

/* ---- output into the caller's buffer ---- */

typedef struct outbuf
{
	char	   *buf;
	size_t		size;
	size_t		len;			/* of the whole text, written or not */
	int			json;			/* escape what is written for a JSON string */
} outbuf;

static void
out_raw(outbuf *o, const char *s, size_t n)
{
	if (o->len < o->size)
	{
		size_t		room = o->size - o->len;

		memcpy(o->buf + o->len, s, n < room ? n : room);
	}
	o->len += n;
}

/*
 * Writes s, escaped for the inside of a JSON string when o->json is set:
 * then only ASCII comes here (messages quote the input with out_quoted).
 */
static void
out_mem(outbuf *o, const char *s, size_t n)
{
	if (!o->json)
	{
		out_raw(o, s, n);
		return;
	}
	for (size_t i = 0; i < n; i++)
	{
		unsigned char c = (unsigned char) s[i];
		char		esc[8];

		if (c == '"' || c == '\\')
		{
			esc[0] = '\\';
			esc[1] = (char) c;
			out_raw(o, esc, 2);
		}
		else if (c < 0x20 || c >= 0x7f)
		{
			snprintf(esc, sizeof esc, "\\u%04x", c < 0x80 ? c : 0xFFFD);
			out_raw(o, esc, 6);
		}
		else
			out_raw(o, (const char *) &c, 1);
	}
}

static void
out_str(outbuf *o, const char *s)
{
	out_mem(o, s, strlen(s));
}

static void
out_int(outbuf *o, int64_t v)
{
	char		num[24];

	snprintf(num, sizeof num, "%" PRId64, v);
	out_str(o, num);
}

static size_t
out_finish(outbuf *o)
{
	if (o->size > 0)
		o->buf[o->len < o->size ? o->len : o->size - 1] = '\0';
	return o->len;
}

/*
 * The input for people, in double quotes: printable ASCII as it is, a
 * double quote as \", anything else as \xNN.
 */
static void
out_quoted(outbuf *o, const char *s, size_t n)
{
	out_str(o, "\"");
	for (size_t i = 0; i < n; i++)
	{
		unsigned char c = (unsigned char) s[i];
		char		esc[5];

		if (c == '"')
			out_str(o, "\\\"");
		else if (c >= 0x20 && c < 0x7f)
			out_mem(o, (const char *) &c, 1);
		else
		{
			snprintf(esc, sizeof esc, "\\x%02x", c);
			out_str(o, esc);
		}
	}
	out_str(o, "\"");
}

/*
 * The length of the UTF-8 sequence at s[0 .. n-1] and its code point, or 0
 * if it is not one (overlong forms, surrogates and values above U+10FFFF
 * are not).
 */
static int
utf8_seq(const unsigned char *s, size_t n, uint32_t *cp)
{
	int			len;
	uint32_t	v;
	uint32_t	min;

	if (s[0] < 0x80)
	{
		*cp = s[0];
		return 1;
	}
	if (s[0] >= 0xC2 && s[0] <= 0xDF)
		len = 2, v = s[0] & 0x1F, min = 0x80;
	else if (s[0] >= 0xE0 && s[0] <= 0xEF)
		len = 3, v = s[0] & 0x0F, min = 0x800;
	else if (s[0] >= 0xF0 && s[0] <= 0xF4)
		len = 4, v = s[0] & 0x07, min = 0x10000;
	else
		return 0;
	if ((size_t) len > n)
		return 0;
	for (int i = 1; i < len; i++)
	{
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		v = v << 6 | (s[i] & 0x3F);
	}
	if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
		return 0;
	*cp = v;
	return len;
}

/*
 * A JSON string in pure ASCII: every character outside printable ASCII as
 * \uXXXX (surrogate pairs above U+FFFF), and each byte that is not part of
 * valid UTF-8 as U+FFFD, since JSON text cannot carry it.
 */
static void
out_json_str(outbuf *o, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *) s;
	size_t		i = 0;

	out_str(o, "\"");
	while (i < n)
	{
		uint32_t	cp;
		int			k = utf8_seq(p + i, n - i, &cp);
		char		esc[16];

		if (k == 0)
		{
			cp = 0xFFFD;
			k = 1;
		}
		i += (size_t) k;
		if (cp == '"')
			out_str(o, "\\\"");
		else if (cp == '\\')
			out_str(o, "\\\\");
		else if (cp >= 0x20 && cp < 0x7f)
		{
			char		c = (char) cp;

			out_mem(o, &c, 1);
		}
		else if (cp == '\n')
			out_str(o, "\\n");
		else if (cp == '\t')
			out_str(o, "\\t");
		else if (cp == '\r')
			out_str(o, "\\r");
		else if (cp < 0x10000)
		{
			snprintf(esc, sizeof esc, "\\u%04x", (unsigned) cp);
			out_str(o, esc);
		}
		else
		{
			cp -= 0x10000;
			snprintf(esc, sizeof esc, "\\u%04x\\u%04x",
					 (unsigned) (0xD800 + (cp >> 10)), (unsigned) (0xDC00 + (cp & 0x3FF)));
			out_str(o, esc);
		}
	}
	out_str(o, "\"");
}

/* ---- why nothing matched ---- */

/* The character at pos, for a message: 'c', or its byte value. */
static void
out_char_at(outbuf *o, const uid_inspect_result *r, size_t pos)
{
	unsigned char c = (unsigned char) r->input[pos];
	char		num[32];

	snprintf(num, sizeof num, "character %zu (", pos + 1);
	out_str(o, num);
	if (c >= 0x20 && c < 0x7f && c != '\'')
	{
		out_str(o, "'");
		out_mem(o, (const char *) &c, 1);
		out_str(o, "'");
	}
	else
	{
		snprintf(num, sizeof num, "byte 0x%02x", c);
		out_str(o, num);
	}
	out_str(o, ")");
}

static void
explain_text(outbuf *o, const uid_inspect_result *r, int t)
{
	size_t		pos = r->text_bad_pos[t];

	switch (r->text_status[t])
	{
		case UID_BAD_LENGTH:
			out_str(o, "it is ");
			out_int(o, (int64_t) r->len);
			out_str(o, r->len == 1 ? " character long" : " characters long");
			break;
		case UID_BAD_CHAR:
			/* the codecs put it at len for an empty or all-blank input */
			if (pos >= r->len)
			{
				out_str(o, "it is empty");
				break;
			}
			out_char_at(o, r, pos);
			out_str(o, " is not allowed");
			break;
		case UID_BAD_SHAPE:
			if (pos >= r->len)
			{
				out_str(o, "a group has the wrong number of digits");
				break;
			}
			out_char_at(o, r, pos);
			out_str(o, " is out of place: a group has the wrong number of digits");
			break;
		case UID_BAD_RESERVED:
			out_str(o, "reserved bits 15 to 10 are set");
			break;
		case UID_OUT_OF_RANGE:
			out_str(o, "it is out of range");
			break;
		case UID_OK:
			out_str(o, "it is");
			break;
	}
}

static void
explain_bytes(outbuf *o, const uid_inspect_result *r, int t)
{
	switch (r->hex)
	{
		case UID_INSPECT_HEX_NONE:
			out_str(o, "it is not hex");
			return;
		case UID_INSPECT_HEX_ODD:
			out_str(o, "it has an odd number of hex digits");
			return;
		case UID_INSPECT_HEX_OK:
			break;
	}
	if (r->hex_nbytes != (size_t) types[t].nbytes)
	{
		out_str(o, "as hex it is ");
		out_int(o, (int64_t) r->hex_nbytes);
		out_str(o, r->hex_nbytes == 1 ? " byte" : " bytes");
		/* (uuid text is 16 bytes: other than muid's, no type's length) */
		if (is_uuid_text(r->input, r->len))
			out_str(o, " of uuid text");
		return;
	}
	switch (r->bytes_status[t])
	{
		case UID_OUT_OF_RANGE:
			out_str(o, t == UID_INSPECT_SNOWFLAKE_SI ?
					"as bytes it is above 9007199254740991" :
					"as bytes it is above 1152921504606846975 (2^60 - 1)");
			break;
		case UID_BAD_RESERVED:
			out_str(o, "as bytes its reserved bits 15 to 10 are set");
			break;
		default:
			out_str(o, "as bytes it is refused");
			break;
	}
}

static void
explain_into(outbuf *ob, const uid_inspect_result *r, const uid_inspect_options *o,
			 const char *sep)
{
	int			first = 1;

	out_quoted(ob, r->input, r->len);
	if (r->len == 0)
	{
		out_str(ob, " is empty");
		return;
	}
	out_str(ob, " is not an ID of any type tried:");
	for (int t = 0; t < UID_INSPECT_NTYPES; t++)
	{
		if (!(o->types & (1u << t)))
			continue;
		out_str(ob, first ? (sep[0] == '\n' ? sep : " ") : sep);
		first = 0;
		out_str(ob, types[t].name);
		out_str(ob, ": expected ");
		out_str(ob, types[t].text);
		out_str(ob, t == UID_INSPECT_MUID ? ", or 16 bytes as hex or uuid text; " :
				t == UID_INSPECT_SNO ? ", or 10 bytes as hex; " : ", or 8 bytes as hex; ");
		explain_text(ob, r, t);
		out_str(ob, ", and ");
		explain_bytes(ob, r, t);
	}
	if (first)
		out_str(ob, " no type was tried");
}

size_t
uid_inspect_explain(const uid_inspect_result *r, const uid_inspect_options *o,
					const char *sep, char *buf, size_t size)
{
	outbuf		ob = {buf, size, 0, 0};

	explain_into(&ob, r, o, sep);
	return out_finish(&ob);
}

/* ---- the result ---- */

static void
format_text(outbuf *ob, const uid_inspect_result *r, const uid_inspect_options *o)
{
	/* whatever matched is printable ASCII: every text and hex form is */
	out_mem(ob, r->input, r->len);
	out_str(ob, "\n");
	for (int i = 0; i < r->nmatches; i++)
	{
		const uid_inspect_match *m = &r->matches[i];
		uid_inspect_field f[UID_INSPECT_MAX_FIELDS];
		int			n = uid_inspect_fields(m, o, f);

		out_str(ob, "  ");
		out_str(ob, types[m->type].name);
		out_str(ob, " (");
		if (m->form == UID_INSPECT_FORM_BYTES)
		{
			out_int(ob, types[m->type].nbytes);
			out_str(ob, " bytes");
		}
		else
			out_str(ob, uid_inspect_form_name(m->form));
		out_str(ob, ")\n");
		for (int k = 0; k < n; k++)
		{
			size_t		w = strlen(f[k].key);

			if (f[k].json_only)
				continue;
			out_str(ob, "    ");
			out_str(ob, f[k].key);
			out_mem(ob, "            ", w < 11 ? 12 - w : 1);
			if (f[k].is_int)
				out_int(ob, f[k].num);
			else
				out_str(ob, f[k].str);
			out_str(ob, "\n");
		}
	}
}

static void
format_json(outbuf *ob, const uid_inspect_result *r, const uid_inspect_options *o)
{
	out_str(ob, "{\"input\":");
	out_json_str(ob, r->input, r->len);
	out_str(ob, ",\"matches\":[");
	for (int i = 0; i < r->nmatches; i++)
	{
		const uid_inspect_match *m = &r->matches[i];
		uid_inspect_field f[UID_INSPECT_MAX_FIELDS];
		int			n = uid_inspect_fields(m, o, f);

		out_str(ob, i ? ",{\"type\":\"" : "{\"type\":\"");
		out_str(ob, types[m->type].name);
		out_str(ob, "\",\"form\":\"");
		out_str(ob, uid_inspect_form_name(m->form));
		out_str(ob, "\"");
		for (int k = 0; k < n; k++)
		{
			out_str(ob, ",\"");
			out_str(ob, f[k].key);
			out_str(ob, "\":");
			if (f[k].is_int)
				out_int(ob, f[k].num);
			else
				out_json_str(ob, f[k].str, strlen(f[k].str));
		}
		out_str(ob, "}");
	}
	out_str(ob, "]");
	if (r->nmatches == 0)
	{
		out_str(ob, ",\"error\":\"");
		ob->json = 1;
		explain_into(ob, r, o, "; ");
		ob->json = 0;
		out_str(ob, "\"");
	}
	out_str(ob, "}\n");
}

size_t
uid_inspect_format(const uid_inspect_result *r, const uid_inspect_options *o,
				   char *buf, size_t size)
{
	outbuf		ob = {buf, size, 0, 0};

	if (o->json)
		format_json(&ob, r, o);
	else if (r->nmatches > 0)
		format_text(&ob, r, o);
	return out_finish(&ob);
}

size_t
uid_inspect(const char *in, size_t len, const uid_inspect_options *o,
			char *buf, size_t size, int *nmatches)
{
	uid_inspect_result r;
	int			n = uid_inspect_detect(in, len, o, &r);

	if (nmatches)
		*nmatches = n;
	return uid_inspect_format(&r, o, buf, size);
}

/* ---- options ---- */

static void
set_why(char *why, size_t whysize, const char *msg)
{
	if (why && whysize > 0)
		snprintf(why, whysize, "%s", msg);
}

int
uid_inspect_parse_types(const char *s, unsigned *mask, char *why, size_t whysize)
{
	const char *p = s;

	for (;;)
	{
		size_t		n = strcspn(p, ",");
		int			found = -1;

		for (int t = 0; t < UID_INSPECT_NTYPES; t++)
			if (strlen(types[t].name) == n && strncmp(p, types[t].name, n) == 0)
				found = t;
		if (found < 0)
		{
			if (why && whysize > 0)
				snprintf(why, whysize, "unknown type \"%.*s\" (the types are sno, muid, snowflake_si, revts8 and uid60)",
						 n > 40 ? 40 : (int) n, p);
			return 0;
		}
		*mask |= 1u << found;
		if (p[n] == '\0')
			return 1;
		p += n + 1;
	}
}

int
uid_inspect_parse_index_bits(const char *s, int *bits, char *why, size_t whysize)
{
	int			v = 0;
	size_t		n = strlen(s);

	if (n == 0 || n > 2)
		goto bad;
	for (size_t i = 0; i < n; i++)
	{
		if (!is_digit((unsigned char) s[i]))
			goto bad;
		v = v * 10 + (s[i] - '0');
	}
	if (v < SNOWFLAKE_SI_K_MIN || v > SNOWFLAKE_SI_K_MAX)
		goto bad;
	*bits = v;
	return 1;
bad:
	set_why(why, whysize, "the index width must be an integer from 1 to 13");
	return 0;
}

/* Takes the character c at *p; never steps past the terminator. */
static int
take_char(const char **p, char c)
{
	if (**p != c)
		return 0;
	(*p)++;
	return 1;
}

/* Reads exactly n digits at *p; advances *p. */
static int
take_digits(const char **p, int n, int *v)
{
	*v = 0;
	for (int i = 0; i < n; i++)
	{
		if (!is_digit((unsigned char) (*p)[i]))
			return 0;
		*v = *v * 10 + ((*p)[i] - '0');
	}
	*p += n;
	return 1;
}

int
uid_inspect_parse_epoch(const char *s, int64_t *epoch_ms, char *why, size_t whysize)
{
	static const char form[] =
		"the base clock must be Unix milliseconds or a date and time such as 2024-01-01T00:00:00Z";
	static const int mdays[12] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	const char *p = s;
	int64_t		ms = 0;
	size_t		n = strlen(s);
	size_t		i;

	for (i = 0; i < n && is_digit((unsigned char) s[i]); i++)
		;
	if (n > 0 && i == n)
	{
		if (n > 15)
			goto range;
		for (i = 0; i < n; i++)
			ms = ms * 10 + (s[i] - '0');
	}
	else
	{
		int			y,
					mo,
					d,
					h = 0,
					mi = 0,
					sec = 0,
					frac_ms = 0,
					off = 0;

		if (!take_digits(&p, 4, &y) || !take_char(&p, '-') || !take_digits(&p, 2, &mo) ||
			!take_char(&p, '-') || !take_digits(&p, 2, &d))
			goto bad;
		if ((*p == 'T' || *p == 't' || *p == ' ') && is_digit((unsigned char) p[1]))
		{
			p++;
			if (!take_digits(&p, 2, &h) || !take_char(&p, ':') || !take_digits(&p, 2, &mi))
				goto bad;
			if (*p == ':')
			{
				p++;
				if (!take_digits(&p, 2, &sec))
					goto bad;
				if (*p == '.')
				{
					int			nd = 0;

					for (p++; is_digit((unsigned char) *p); p++, nd++)
					{
						if (nd < 3)
							frac_ms = frac_ms * 10 + (*p - '0');
						else if (*p != '0')
						{
							set_why(why, whysize, "the base clock must be a whole number of milliseconds");
							return 0;
						}
					}
					if (nd == 0 || nd > 9)
						goto bad;
					for (; nd < 3; nd++)
						frac_ms *= 10;
				}
			}
		}
		while (*p == ' ')
			p++;
		if (*p == 'Z' || *p == 'z')
			p++;
		else if ((p[0] == 'U' || p[0] == 'u') && (p[1] == 'T' || p[1] == 't') &&
				 (p[2] == 'C' || p[2] == 'c'))
			p += 3;
		else if (*p == '+' || *p == '-')
		{
			int			sign = *p++ == '-' ? -1 : 1;
			int			oh,
						om = 0;

			if (!take_digits(&p, 2, &oh))
				goto bad;
			if (*p == ':')
				p++;
			if (is_digit((unsigned char) *p) && !take_digits(&p, 2, &om))
				goto bad;
			if (oh > 15 || om > 59)
				goto bad;
			off = sign * (oh * 60 + om);
		}
		if (*p != '\0')
			goto bad;
		if (mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1] || h > 23 || mi > 59 || sec > 59 ||
			(mo == 2 && d == 29 && !(y % 4 == 0 && (y % 100 != 0 || y % 400 == 0))))
			goto bad;
		ms = ((days_from_civil(y, mo, d) * 24 + h) * 60 + mi - off) * 60000 +
			sec * INT64_C(1000) + frac_ms;
	}
	if (ms < SNOWFLAKE_SI_EPOCH_MIN_MS || ms > UID_INSPECT_EPOCH_MAX_MS)
		goto range;
	*epoch_ms = ms;
	return 1;

bad:
	set_why(why, whysize, form);
	return 0;
range:
	set_why(why, whysize, "the base clock must be from 2003-03-18T07:20:19.225Z (the format's earliest) to 9965-02-27T04:06:12.224Z");
	return 0;
}
