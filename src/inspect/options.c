/*
 * options.c
 *		uid-inspect's options: their defaults, and the parsing of --type,
 *		--epoch and --index-bits into uid_inspect_options.
 *
 * uid_inspect.c calls these on its arguments; test/unit/settings_test.c
 * parses uid.snowflake_si_epoch's boot value with uid_inspect_parse_epoch()
 * to check that the setting and uid-inspect agree.  Each parser returns 1,
 * or 0 with the reason in why (for a usage error).
 */
#include <stdio.h>
#include <string.h>

#include "inspect.h"
#include "codec/snowflake_si_codec.h"

void
uid_inspect_default_options(uid_inspect_options *o)
{
	o->types = UID_INSPECT_ALL_TYPES;
	o->epoch_ms = UID_INSPECT_DEFAULT_EPOCH_MS;
	o->index_bits = UID_INSPECT_DEFAULT_INDEX_BITS;
	o->json = 0;
}

static int
is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

/*
 * Days since 1970-01-01 of a proleptic Gregorian date (Hinnant's method;
 * type_ops.c's civil_from_days() is the way back).
 */
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
		{
			const char *name = uid_inspect_types[t].name;

			if (strlen(name) == n && strncmp(p, name, n) == 0)
				found = t;
		}
		if (found < 0)
		{
			/* the registry's names: a type added there is named here */
			char		names[256];

			uid_inspect_type_list(UID_INSPECT_ALL_TYPES, ", ", " and ",
								  names, sizeof names);
			if (why && whysize > 0)
				snprintf(why, whysize, "unknown type \"%.*s\" (the types are %s)",
						 n > 40 ? 40 : (int) n, p, names);
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
