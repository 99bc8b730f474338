/*
 * uid60_codec.c
 *		Pack, unpack, encode and decode of uid60 IDs.
 */
#include "uid60_codec.h"

static const char uid60_alphabet[] =
"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/* The value of a character of the alphabet, or -1. */
static inline int
uid60_char_value(unsigned char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '-')
		return 62;
	if (c == '_')
		return 63;
	return -1;
}

uint64_t
uid60_pack(const uid60_fields *f)
{
	return (f->ts & UID60_TS_MAX) << UID60_LOW_BITS |
		(uint64_t) (f->worker & UID60_WORKER_MAX) << 19 |
		(uint64_t) (f->seq & UID60_SEQ_MAX) << 9 |
		(f->rand & UID60_RAND_MAX);
}

void
uid60_unpack(uint64_t n, uid60_fields *f)
{
	f->ts = (n >> UID60_LOW_BITS) & UID60_TS_MAX;
	f->worker = (unsigned) (n >> 19) & UID60_WORKER_MAX;
	f->seq = (unsigned) (n >> 9) & UID60_SEQ_MAX;
	f->rand = (unsigned) n & UID60_RAND_MAX;
}

void
uid60_encode(uint64_t n, char out[UID60_TEXT_LEN])
{
	uint64_t	m = uid60_display(n);

	for (int i = UID60_TEXT_LEN - 1; i >= 0; i--)
	{
		out[i] = uid60_alphabet[m & 63];
		m >>= 6;
	}
}

uid_status
uid60_decode(const char *in, size_t len, uint64_t *n, size_t *bad_pos)
{
	uint64_t	m = 0;

	if (len != UID60_TEXT_LEN)
		return UID_BAD_LENGTH;
	for (size_t i = 0; i < UID60_TEXT_LEN; i++)
	{
		int			d = uid60_char_value((unsigned char) in[i]);

		if (d < 0)
		{
			if (bad_pos)
				*bad_pos = i;
			return UID_BAD_CHAR;
		}
		m = m << 6 | (uint64_t) d;
	}
	*n = uid60_display(m);
	return UID_OK;
}
