/*
 * detect.c
 *		Recognising and decoding IDs: which types an input can be, and the
 *		fields and time of each reading.
 *
 * uid_inspect_detect() strips the input, reads it as every type's text form
 * by that type's decoder and as hex of the binary forms, and records each
 * reading a decoder accepts (and, for each type that refused, why);
 * uid_inspect_fields() turns one reading into named fields, its time
 * included.  format.c calls both to write the results; the unit test and
 * the fuzzer call them directly.  Nothing here writes text for people:
 * that is format.c's.
 *
 * Nothing here names a type either: what differs from type to type (its
 * decoder, the binary forms it refuses, its fields and time) is in the
 * type's own src/inspect/<name>_inspect.c, which this reaches through
 * types.c's table (type_ops.h); what is here is the same for every type.
 *
 * Everything here reads only the len bytes it is given: it runs on
 * whatever a log holds, and the fuzzer (test/fuzz/inspect_fuzz.c) calls it
 * on arbitrary bytes.
 */
#include <string.h>

#include "inspect.h"
#include "type_ops.h"

/* The white space the codecs and PostgreSQL's bigint input skip. */
static int
is_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
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

/*
 * A type's text form by its codec's decoder (type_ops.h): into the bytes,
 * or into the value, stored here as the big-endian bytes it stands for.
 */
static uid_status
decode_text(const uid_inspect_type_info *ti, const char *in, size_t len,
			uint8_t bytes[UID_INSPECT_MAX_BYTES], size_t *bad_pos)
{
	uint64_t	v = 0;
	uid_status	st;

	if (ti->ops->decode)
		return ti->ops->decode(in, len, bytes, bad_pos);
	st = ti->ops->decode_value(in, len, &v, bad_pos);
	uid_store_be(bytes, ti->nbytes, v);
	return st;
}

/*
 * Whether a type's recv function takes bytes as its binary form: a type
 * with a value refuses those above its largest or with reserved bits set
 * (type_ops.h); every binary form of the others is one.
 */
static uid_status
check_bytes(const uid_inspect_type_info *ti, const uint8_t *bytes)
{
	uint64_t	v;

	if (!ti->ops->decode_value)
		return UID_OK;
	v = uid_load_be(bytes, ti->nbytes);
	if (ti->ops->value_max && v > ti->ops->value_max)
		return UID_OUT_OF_RANGE;
	if (v & ti->ops->reserved_mask)
		return UID_BAD_RESERVED;
	return UID_OK;
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
 * the first UID_INSPECT_MAX_BYTES bytes go to out (used only when there
 * are no more).
 * Returns whether it was uuid text.
 */
static int
read_hex(uid_inspect_result *r, uint8_t out[UID_INSPECT_MAX_BYTES])
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
		if (ndigits < 2 * UID_INSPECT_MAX_BYTES)
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
	uint8_t		hb[UID_INSPECT_MAX_BYTES];

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
	for (int t = 0; t < UID_INSPECT_NTYPES; t++)
	{
		uint8_t		v[UID_INSPECT_MAX_BYTES];
		uid_status *st = &r->text_status[t];

		if (!(want & (1u << t)))
			continue;
		*st = decode_text(&uid_inspect_types[t], r->input, r->len, v,
						  &r->text_bad_pos[t]);
		if (*st == UID_OK)
			add_match(r, (uid_inspect_type) t, UID_INSPECT_FORM_TEXT, v,
					  uid_inspect_types[t].nbytes);
	}

	/* the binary forms, as the recv functions and bytea casts take them */
	r->hex_uuid = read_hex(r, hb);
	if (r->hex != UID_INSPECT_HEX_OK)
		return r->nmatches;
	for (int t = 0; t < UID_INSPECT_NTYPES; t++)
	{
		const uid_inspect_type_ops *ops = uid_inspect_types[t].ops;
		uid_status *st = &r->bytes_status[t];

		if (!(want & (1u << t)) || r->hex_nbytes != (size_t) uid_inspect_types[t].nbytes)
			continue;
		/* uuid text is only the types' that take it (muid::uuid's 16 bytes) */
		if (r->hex_uuid && !ops->takes_uuid)
			continue;
		/* plain, bytes that are the text: the text reading stands for both */
		if (ops->plain_hex_is_text && !r->hex_prefixed)
		{
			*st = r->text_status[t];
			continue;
		}
		*st = check_bytes(&uid_inspect_types[t], hb);
		if (*st == UID_OK)
			add_match(r, (uid_inspect_type) t,
					  r->hex_uuid ? UID_INSPECT_FORM_UUID : UID_INSPECT_FORM_BYTES,
					  hb, uid_inspect_types[t].nbytes);
	}
	return r->nmatches;
}

/* ---- fields ---- */

/* The time, and the same as Unix microseconds for programs. */
static void
field_time(uid_inspect_field *f, int *n, int64_t unix_us, int decimals)
{
	uid_inspect_iso8601(unix_us, decimals, uid_inspect_field_str(f, n, "timestamp")->str);
	uid_inspect_field_int(f, n, "unix_us", unix_us);
	f[*n - 1].json_only = 1;
}

/* A byte in hex, into s[0] and s[1]. */
static char *
put_hex(char *s, uint8_t b)
{
	static const char hex[] = "0123456789abcdef";

	*s++ = hex[b >> 4];
	*s++ = hex[b & 15];
	return s;
}

int
uid_inspect_fields(const uid_inspect_match *m, const uid_inspect_options *o,
				   uid_inspect_field f[UID_INSPECT_MAX_FIELDS])
{
	const uid_inspect_type_info *ti = &uid_inspect_types[m->type];
	int			n = 0;
	char	   *s;

	/* its canonical text first, then the bytes as psql prints a bytea */
	s = uid_inspect_field_str(f, &n, "text")->str;
	if (ti->ops->encode)
		ti->ops->encode(m->bytes, s);
	else
		ti->ops->encode_value(uid_load_be(m->bytes, ti->nbytes), s);
	if (ti->ops->text_len > 0)
		s[ti->ops->text_len] = '\0';
	s = uid_inspect_field_str(f, &n, "bytes")->str;
	*s++ = '\\';
	*s++ = 'x';
	for (int i = 0; i < ti->nbytes; i++)
		s = put_hex(s, m->bytes[i]);
	*s = '\0';

	/* the same bytes as the types it casts to (type_ops.h) */
	if (ti->ops->takes_uuid)
	{
		s = uid_inspect_field_str(f, &n, "uuid")->str;
		for (int i = 0; i < 16; i++)
		{
			if (i == 4 || i == 6 || i == 8 || i == 10)
				*s++ = '-';
			s = put_hex(s, m->bytes[i]);
		}
		*s = '\0';
	}
	if (ti->ops->has_bigint)
		uid_inspect_field_int(f, &n, "bigint", (int64_t) uid_load_be(m->bytes, 8));

	/* its time, then the fields of its own */
	field_time(f, &n, ti->ops->time_us(m->bytes, o), ti->ops->time_decimals);
	ti->ops->fields(m->bytes, o, f, &n);
	return n;
}
