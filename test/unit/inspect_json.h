/*
 * inspect_json.h
 *		A strict JSON checker (RFC 8259) for the tests of uid-inspect's
 *		--json output: the unit test and the fuzzer check every object the
 *		core formats with it.
 *
 * json_check(s, n) returns 1 when s[0 .. n-1] is exactly one JSON value
 * with optional white space around it, in valid UTF-8; it reads nothing
 * outside those n bytes.  Written from the grammar alone, independent of
 * the code under test.
 */
#ifndef UID_INSPECT_JSON_H
#define UID_INSPECT_JSON_H

#include <stddef.h>
#include <stdint.h>

typedef struct json_cursor
{
	const unsigned char *s;
	size_t		n;
	size_t		i;
	int			depth;
} json_cursor;

static int	json_value(json_cursor *c);

static int
json_peek(const json_cursor *c)
{
	return c->i < c->n ? c->s[c->i] : -1;
}

static void
json_ws(json_cursor *c)
{
	while (c->i < c->n && (c->s[c->i] == ' ' || c->s[c->i] == '\t' ||
						   c->s[c->i] == '\n' || c->s[c->i] == '\r'))
		c->i++;
}

static int
json_lit(json_cursor *c, const char *lit)
{
	for (size_t k = 0; lit[k]; k++, c->i++)
		if (c->i >= c->n || c->s[c->i] != (unsigned char) lit[k])
			return 0;
	return 1;
}

static int
json_hex4(json_cursor *c, unsigned *v)
{
	*v = 0;
	for (int k = 0; k < 4; k++, c->i++)
	{
		int			ch = json_peek(c);
		unsigned	d;

		if (ch >= '0' && ch <= '9')
			d = (unsigned) (ch - '0');
		else if (ch >= 'a' && ch <= 'f')
			d = (unsigned) (ch - 'a' + 10);
		else if (ch >= 'A' && ch <= 'F')
			d = (unsigned) (ch - 'A' + 10);
		else
			return 0;
		*v = *v << 4 | d;
	}
	return 1;
}

/* One UTF-8 sequence of a string's raw characters. */
static int
json_utf8(json_cursor *c)
{
	unsigned char b = c->s[c->i];
	int			len;
	uint32_t	v;
	uint32_t	min;

	if (b < 0x80)
	{
		c->i++;
		return 1;
	}
	if ((b & 0xE0) == 0xC0)
		len = 2, v = b & 0x1F, min = 0x80;
	else if ((b & 0xF0) == 0xE0)
		len = 3, v = b & 0x0F, min = 0x800;
	else if ((b & 0xF8) == 0xF0)
		len = 4, v = b & 0x07, min = 0x10000;
	else
		return 0;
	if (c->n - c->i < (size_t) len)
		return 0;
	for (int k = 1; k < len; k++)
	{
		if ((c->s[c->i + k] & 0xC0) != 0x80)
			return 0;
		v = v << 6 | (c->s[c->i + k] & 0x3F);
	}
	if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
		return 0;
	c->i += (size_t) len;
	return 1;
}

static int
json_string(json_cursor *c)
{
	if (json_peek(c) != '"')
		return 0;
	c->i++;
	for (;;)
	{
		int			ch = json_peek(c);

		if (ch < 0 || ch < 0x20)
			return 0;
		if (ch == '"')
		{
			c->i++;
			return 1;
		}
		if (ch == '\\')
		{
			unsigned	u;

			c->i++;
			ch = json_peek(c);
			if (ch < 0)
				return 0;
			c->i++;
			switch (ch)
			{
				case '"':
				case '\\':
				case '/':
				case 'b':
				case 'f':
				case 'n':
				case 'r':
				case 't':
					break;
				case 'u':
					if (!json_hex4(c, &u))
						return 0;
					/* a high surrogate must be followed by a low one */
					if (u >= 0xD800 && u <= 0xDBFF)
					{
						if (!json_lit(c, "\\u") || !json_hex4(c, &u) ||
							u < 0xDC00 || u > 0xDFFF)
							return 0;
					}
					else if (u >= 0xDC00 && u <= 0xDFFF)
						return 0;
					break;
				default:
					return 0;
			}
			continue;
		}
		if (!json_utf8(c))
			return 0;
	}
}

static int
json_digits(json_cursor *c)
{
	size_t		start = c->i;

	while (json_peek(c) >= '0' && json_peek(c) <= '9')
		c->i++;
	return c->i > start;
}

static int
json_number(json_cursor *c)
{
	if (json_peek(c) == '-')
		c->i++;
	if (json_peek(c) == '0')
		c->i++;
	else if (!json_digits(c))
		return 0;
	if (json_peek(c) == '.')
	{
		c->i++;
		if (!json_digits(c))
			return 0;
	}
	if (json_peek(c) == 'e' || json_peek(c) == 'E')
	{
		c->i++;
		if (json_peek(c) == '+' || json_peek(c) == '-')
			c->i++;
		if (!json_digits(c))
			return 0;
	}
	return 1;
}

static int
json_value(json_cursor *c)
{
	int			ch;
	int			ok = 1;

	json_ws(c);
	ch = json_peek(c);
	if (ch == '{' || ch == '[')
	{
		int			close = ch == '{' ? '}' : ']';
		int			first = 1;

		if (++c->depth > 64)
			return 0;
		c->i++;
		json_ws(c);
		if (json_peek(c) == close)
			c->i++;
		else
			for (;;)
			{
				if (!first)
				{
					json_ws(c);
					if (json_peek(c) == close)
					{
						c->i++;
						break;
					}
					if (json_peek(c) != ',')
						return 0;
					c->i++;
				}
				first = 0;
				if (close == '}')
				{
					json_ws(c);
					if (!json_string(c))
						return 0;
					json_ws(c);
					if (json_peek(c) != ':')
						return 0;
					c->i++;
				}
				if (!json_value(c))
					return 0;
			}
		c->depth--;
	}
	else if (ch == '"')
		ok = json_string(c);
	else if (ch == 't')
		ok = json_lit(c, "true");
	else if (ch == 'f')
		ok = json_lit(c, "false");
	else if (ch == 'n')
		ok = json_lit(c, "null");
	else
		ok = json_number(c);
	json_ws(c);
	return ok;
}

static int
json_check(const char *s, size_t n)
{
	json_cursor c = {(const unsigned char *) s, n, 0, 0};

	return json_value(&c) && c.i == n;
}

#endif							/* UID_INSPECT_JSON_H */
