/*
 * revts8_codec.c
 *		Pack, unpack, encode and decode of revts8 IDs.
 */
#include "revts8_codec.h"

uint64_t
revts8_pack(const revts8_fields *f)
{
	return uid_bitrev64(f->ts & REVTS8_TS_MAX) |
		(uint64_t) (f->seq & REVTS8_SEQ_MAX) << 16 |
		(uint64_t) (f->generator & REVTS8_GENERATOR_MAX) << 4 |
		(f->cluster & REVTS8_CLUSTER_MAX);
}

void
revts8_unpack(uint64_t canonical, revts8_fields *f)
{
	f->ts = uid_bitrev64(canonical) & REVTS8_TS_MAX;
	f->seq = (unsigned) (canonical >> 16) & REVTS8_SEQ_MAX;
	f->generator = (unsigned) (canonical >> 4) & REVTS8_GENERATOR_MAX;
	f->cluster = (unsigned) canonical & REVTS8_CLUSTER_MAX;
}

void
revts8_encode(uint64_t canonical, char out[REVTS8_TEXT_LEN])
{
	static const char hex[] = "0123456789abcdef";

	for (int i = REVTS8_TEXT_LEN - 1; i >= 0; i--)
	{
		out[i] = hex[canonical & 15];
		canonical >>= 4;
	}
}

uid_status
revts8_decode(const char *in, size_t len, uint64_t *canonical, size_t *bad_pos)
{
	uint64_t	v = 0;

	if (len != REVTS8_TEXT_LEN)
		return UID_BAD_LENGTH;
	for (size_t i = 0; i < REVTS8_TEXT_LEN; i++)
	{
		int			d = uid_hexval((unsigned char) in[i]);

		if (d < 0)
		{
			if (bad_pos)
				*bad_pos = i;
			return UID_BAD_CHAR;
		}
		v = v << 4 | (uint64_t) d;
	}
	if (v & REVTS8_RESERVED_MASK)
		return UID_BAD_RESERVED;
	*canonical = v;
	return UID_OK;
}
