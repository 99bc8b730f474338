/*
 * muid_codec.c
 *		Pack, unpack, encode and decode of muid IDs.
 */
#include "muid_codec.h"

void
muid_pack(const muid_fields *f, uint8_t out[MUID_LEN])
{
	uint64_t	ts = f->timestamp & MUID_TS_MAX;
	uint64_t	med = f->medallion & MUID_MEDALLION_MAX;

	/* high 64 bits: timestamp, then the top 12 bits of the medallion */
	uid_store_be(out, 8, ts << 12 | med >> 32);
	/* low 64 bits: the low 32 bits of the medallion, then the offset */
	uid_store_be(out + 8, 8, (med & 0xFFFFFFFFu) << 32 | (uint32_t) f->offset);
}

void
muid_unpack(const uint8_t in[MUID_LEN], muid_fields *f)
{
	uint64_t	hi = uid_load_be(in, 8);
	uint64_t	lo = uid_load_be(in + 8, 8);

	f->timestamp = hi >> 12;
	f->medallion = (hi & 0xFFF) << 32 | lo >> 32;
	f->offset = (int32_t) (uint32_t) lo;
}

static char *
muid_put_hex(char *out, uint64_t v, int digits)
{
	static const char hex[] = "0123456789ABCDEF";

	for (int i = digits - 1; i >= 0; i--)
	{
		out[i] = hex[v & 15];
		v >>= 4;
	}
	return out + digits;
}

void
muid_encode(const uint8_t in[MUID_LEN], char out[MUID_TEXT_LEN])
{
	muid_fields f;

	muid_unpack(in, &f);
	out = muid_put_hex(out, f.timestamp, MUID_TS_DIGITS);
	*out++ = '-';
	out = muid_put_hex(out, f.medallion, MUID_MEDALLION_DIGITS);
	*out++ = '-';
	muid_put_hex(out, (uint32_t) f.offset, MUID_OFFSET_DIGITS);
}

/* Reads digits hex digits at in[*pos]; advances *pos. */
static uid_status
muid_get_hex(const char *in, size_t *pos, int digits, uint64_t *v, size_t *bad_pos)
{
	uint64_t	acc = 0;

	for (int i = 0; i < digits; i++, (*pos)++)
	{
		int			d = uid_hexval((unsigned char) in[*pos]);

		if (d < 0)
		{
			if (bad_pos)
				*bad_pos = *pos;
			return in[*pos] == '-' ? UID_BAD_SHAPE : UID_BAD_CHAR;
		}
		acc = acc << 4 | (uint64_t) d;
	}
	*v = acc;
	return UID_OK;
}

uid_status
muid_decode(const char *in, size_t len, uint8_t out[MUID_LEN], size_t *bad_pos)
{
	static const int group_digits[3] = {
		MUID_TS_DIGITS, MUID_MEDALLION_DIGITS, MUID_OFFSET_DIGITS
	};
	uint64_t	group[3] = {0, 0, 0};
	int			ngroups;
	size_t		pos = 0;
	muid_fields f;

	if (len == MUID_TEXT_LEN)
		ngroups = 3;
	else if (len == MUID_TS_DIGITS + 1 + MUID_MEDALLION_DIGITS)
		ngroups = 2;
	else if (len == MUID_TS_DIGITS)
		ngroups = 1;
	else
		return UID_BAD_LENGTH;

	for (int g = 0; g < ngroups; g++)
	{
		uid_status	st;

		if (g > 0)
		{
			if (in[pos] != '-')
			{
				if (bad_pos)
					*bad_pos = pos;
				return uid_hexval((unsigned char) in[pos]) >= 0 ?
					UID_BAD_SHAPE : UID_BAD_CHAR;
			}
			pos++;
		}
		st = muid_get_hex(in, &pos, group_digits[g], &group[g], bad_pos);
		if (st != UID_OK)
			return st;
	}

	f.timestamp = group[0];
	f.medallion = group[1];
	f.offset = (int32_t) (uint32_t) group[2];
	muid_pack(&f, out);
	return UID_OK;
}
