/*
 * snowflake_si_codec.c
 *		Pack, unpack, encode and decode of Snowflake-SI IDs.
 */
#include "snowflake_si_codec.h"

uint64_t
snowflake_si_pack(const snowflake_si_fields *f, int k)
{
	return (f->mab & SNOWFLAKE_SI_MAB_MAX) << SNOWFLAKE_SI_LOW_BITS |
		(uint64_t) (f->mid & snowflake_si_mid_max(k)) << k |
		(f->uin & snowflake_si_uin_max(k));
}

void
snowflake_si_unpack(uint64_t id, int k, snowflake_si_fields *f)
{
	f->mab = (id >> SNOWFLAKE_SI_LOW_BITS) & SNOWFLAKE_SI_MAB_MAX;
	f->mid = (unsigned) (id >> k) & snowflake_si_mid_max(k);
	f->uin = (unsigned) id & snowflake_si_uin_max(k);
}

int
snowflake_si_encode(uint64_t id, char out[SNOWFLAKE_SI_TEXT_MAX + 1])
{
	char		rev[20];
	int			n = 0;

	do
	{
		rev[n++] = (char) ('0' + id % 10);
		id /= 10;
	} while (id != 0);
	for (int i = 0; i < n; i++)
		out[i] = rev[n - 1 - i];
	out[n] = '\0';
	return n;
}

static inline int
is_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

uid_status
snowflake_si_decode(const char *in, size_t len, uint64_t *out, size_t *bad_pos)
{
	size_t		i = 0;
	size_t		end = len;
	uint64_t	v = 0;
	int			overflow = 0;

	while (i < end && is_space((unsigned char) in[i]))
		i++;
	while (end > i && is_space((unsigned char) in[end - 1]))
		end--;
	if (i == end)
	{
		if (bad_pos)
			*bad_pos = len;
		return UID_BAD_CHAR;
	}
	for (; i < end; i++)
	{
		unsigned char c = (unsigned char) in[i];

		if (c < '0' || c > '9')
		{
			if (bad_pos)
				*bad_pos = i;
			return UID_BAD_CHAR;
		}
		if (!overflow)
		{
			v = v * 10 + (c - '0');
			overflow = v > SNOWFLAKE_SI_MAX;
		}
	}
	if (overflow)
		return UID_OUT_OF_RANGE;
	*out = v;
	return UID_OK;
}
