/*
 * format.c
 *		Formatting the results of detect.c: the text for people, --json,
 *		and why an input is no ID, into a caller's buffer.
 *
 * uid_inspect_format() and uid_inspect_explain() (and uid_inspect(), which
 * detects and formats in one call) are what uid_inspect.c, the unit test
 * and the fuzzer call; they read a uid_inspect_result that
 * uid_inspect_detect() filled, and call uid_inspect_fields() for each
 * match.  Nothing here decodes: a reading's fields are detect.c's.  Nor
 * does anything here name a type: what a reason says that is one type's
 * alone (which bits are reserved, its largest value, whether it takes uuid
 * text) is in its src/inspect/<name>_inspect.c, read through types.c's
 * table (type_ops.h).
 *
 * Everything here writes only within the buffer it is given, snprintf-style
 * (see inspect.h): the fuzzer checks every size.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "inspect.h"
#include "type_ops.h"

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

/*
 * A type's own words for a reason (type_ops.h), or plainer ones if its
 * file has none for a status its decoder or check gives after all.
 */
static const char *
or_else(const char *words, const char *plain)
{
	return words ? words : plain;
}

static void
explain_text(outbuf *o, const uid_inspect_result *r, int t)
{
	const uid_inspect_type_ops *ops = uid_inspect_types[t].ops;
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
			if (pos < r->len)
			{
				out_char_at(o, r, pos);
				out_str(o, " is out of place: ");
			}
			out_str(o, or_else(ops->bad_shape, "the separators are out of place"));
			break;
		case UID_BAD_RESERVED:
			out_str(o, "reserved ");
			out_str(o, or_else(ops->reserved, "bits"));
			out_str(o, " are set");
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
	const uid_inspect_type_ops *ops = uid_inspect_types[t].ops;

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
	if (r->hex_nbytes != (size_t) uid_inspect_types[t].nbytes)
	{
		out_str(o, "as hex it is ");
		out_int(o, (int64_t) r->hex_nbytes);
		out_str(o, r->hex_nbytes == 1 ? " byte" : " bytes");
		/* (then 16 bytes, the length of the types that take uuid text) */
		if (r->hex_uuid)
			out_str(o, " of uuid text");
		return;
	}
	switch (r->bytes_status[t])
	{
		case UID_OUT_OF_RANGE:
			out_str(o, "as bytes it is ");
			if (ops->value_max_text)
			{
				out_str(o, "above ");
				out_str(o, ops->value_max_text);
			}
			else
				out_str(o, "out of range");
			break;
		case UID_BAD_RESERVED:
			out_str(o, "as bytes its reserved ");
			out_str(o, or_else(ops->reserved, "bits"));
			out_str(o, " are set");
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
		out_str(ob, uid_inspect_types[t].name);
		out_str(ob, ": expected ");
		out_str(ob, uid_inspect_types[t].text);
		out_str(ob, ", or ");
		out_int(ob, uid_inspect_types[t].nbytes);
		out_str(ob, uid_inspect_types[t].ops->takes_uuid ?
				" bytes as hex or uuid text; " : " bytes as hex; ");
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
		out_str(ob, uid_inspect_types[m->type].name);
		out_str(ob, " (");
		if (m->form == UID_INSPECT_FORM_BYTES)
		{
			out_int(ob, uid_inspect_types[m->type].nbytes);
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
		out_str(ob, uid_inspect_types[m->type].name);
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
