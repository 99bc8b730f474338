/*
 * sno_codec.c
 *		Pack, unpack, encode and decode of sno IDs.
 */
#include "sno_codec.h"

static const char sno_alphabet[] = "23456789abcdefghijklmnopqrstuvwx";

/* 0xFF marks a character outside the alphabet; A-X fold to a-x. */
static const uint8_t sno_decode_table[256] = {
#define X 0xFF
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
/*	0  1  2  3  4  5  6  7  8  9 */
	X, X, 0, 1, 2, 3, 4, 5, 6, 7, X, X, X, X, X, X,
/*	   A  B  C   D   E   F   G   H   I   J   K   L   M   N   O */
	X, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22,
/*	P   Q   R   S   T   U   V   W   X */
	23, 24, 25, 26, 27, 28, 29, 30, 31, X, X, X, X, X, X, X,
	X, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22,
	23, 24, 25, 26, 27, 28, 29, 30, 31, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
#undef X
};

void
sno_pack(const sno_fields *f, uint8_t out[SNO_LEN])
{
	uid_store_be(out, 5, ((f->units & SNO_UNITS_MAX) << 1) | (f->tick & 1));
	out[5] = (uint8_t) f->meta;
	uid_store_be(out + 6, 2, f->partition & 0xFFFF);
	uid_store_be(out + 8, 2, f->sequence & 0xFFFF);
}

void
sno_unpack(const uint8_t in[SNO_LEN], sno_fields *f)
{
	uint64_t	head = uid_load_be(in, 5);

	f->units = head >> 1;
	f->tick = (unsigned) (head & 1);
	f->meta = in[5];
	f->partition = (unsigned) uid_load_be(in + 6, 2);
	f->sequence = (unsigned) uid_load_be(in + 8, 2);
}

/* 40 bits are exactly 8 characters, so each half of the ID encodes alone. */
void
sno_encode(const uint8_t in[SNO_LEN], char out[SNO_TEXT_LEN])
{
	for (int half = 0; half < 2; half++)
	{
		uint64_t	v = uid_load_be(in + 5 * half, 5);

		for (int i = 7; i >= 0; i--)
		{
			out[8 * half + i] = sno_alphabet[v & 31];
			v >>= 5;
		}
	}
}

uid_status
sno_decode(const char *in, size_t len, uint8_t out[SNO_LEN], size_t *bad_pos)
{
	if (len != SNO_TEXT_LEN)
		return UID_BAD_LENGTH;

	for (int half = 0; half < 2; half++)
	{
		uint64_t	v = 0;

		for (int i = 0; i < 8; i++)
		{
			uint8_t		d = sno_decode_table[(uint8_t) in[8 * half + i]];

			if (d == 0xFF)
			{
				if (bad_pos)
					*bad_pos = (size_t) (8 * half + i);
				return UID_BAD_CHAR;
			}
			v = (v << 5) | d;
		}
		uid_store_be(out + 5 * half, 5, v);
	}
	return UID_OK;
}
