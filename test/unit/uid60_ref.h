/*
 * uid60_ref.h
 *		Independent references for the uid60 format, written from doc/formats.md
 *		without the codec or bits.h; shared by the unit test and the fuzz
 *		target.
 *
 * Two of them, built differently:
 *	- bit by bit: each field bit placed at its position, the timestamp bit
 *	  i of the display value at bit 28 + 31 - i, each character found by
 *	  indexing the alphabet string;
 *	- the original's way (abyss-club/uexky src/uid/index.js, 2019): n as 15
 *	  hex digits, the first 8 (the timestamp) reversed digit by digit with a
 *	  table of reversed nibbles and in reverse order, then each 3 hex digits
 *	  written as 2 characters.
 */
#ifndef UID_UID60_REF_H
#define UID_UID60_REF_H

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "codec/uid60_codec.h"

static const char u60_ref_alphabet[] =
"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/* The value of a character of the alphabet, or -1. */
static inline int
u60_ref_char(unsigned char c)
{
	const char *p;

	if (c == '\0' || (p = strchr(u60_ref_alphabet, c)) == NULL)
		return -1;
	return (int) (p - u60_ref_alphabet);
}

/* n from fields, bit by bit: ts at 28..59, worker 19..27, seq 9..18, rand 0..8. */
static inline uint64_t
u60_ref_pack(uint64_t ts, uint64_t worker, uint64_t seq, uint64_t rand)
{
	uint64_t	n = 0;

	for (int i = 0; i < 32; i++)
		if ((ts >> i) & 1)
			n |= UINT64_C(1) << (28 + i);
	for (int i = 0; i < 9; i++)
		if ((worker >> i) & 1)
			n |= UINT64_C(1) << (19 + i);
	for (int i = 0; i < 10; i++)
		if ((seq >> i) & 1)
			n |= UINT64_C(1) << (9 + i);
	for (int i = 0; i < 9; i++)
		if ((rand >> i) & 1)
			n |= UINT64_C(1) << i;
	return n;
}

static inline void
u60_ref_unpack(uint64_t n, uid60_fields *f)
{
	f->ts = 0;
	f->worker = f->seq = f->rand = 0;
	for (int i = 0; i < 32; i++)
		if ((n >> (28 + i)) & 1)
			f->ts |= UINT64_C(1) << i;
	for (int i = 0; i < 9; i++)
		if ((n >> (19 + i)) & 1)
			f->worker |= 1u << i;
	for (int i = 0; i < 10; i++)
		if ((n >> (9 + i)) & 1)
			f->seq |= 1u << i;
	for (int i = 0; i < 9; i++)
		if ((n >> i) & 1)
			f->rand |= 1u << i;
}

/* The display value: timestamp bit i (n's bit 28 + i) at bit 59 - i. */
static inline uint64_t
u60_ref_display(uint64_t n)
{
	uint64_t	m = n & ((UINT64_C(1) << 28) - 1);

	for (int i = 0; i < 32; i++)
		if ((n >> (28 + i)) & 1)
			m |= UINT64_C(1) << (59 - i);
	return m;
}

/* Ten characters and a terminator, bit by bit. */
static inline void
u60_ref_encode(uint64_t n, char out[UID60_TEXT_LEN + 1])
{
	uint64_t	m = u60_ref_display(n);

	for (int g = 0; g < 10; g++)
	{
		int			v = 0;

		for (int j = 0; j < 6; j++)
			if ((m >> (59 - 6 * g - j)) & 1)
				v |= 1 << (5 - j);
		out[g] = u60_ref_alphabet[v];
	}
	out[UID60_TEXT_LEN] = '\0';
}

/* The original's decode(storageId): 15 hex digits to the display text. */
static inline void
u60_ref_encode_hex(uint64_t n, char out[UID60_TEXT_LEN + 1])
{
	static const char rev[] = "084c2a6e195d3b7f";	/* nibble bits reversed */
	const char *hexd = "0123456789abcdef";
	char		hex[16];
	char		fixed[16];

	snprintf(hex, sizeof hex, "%015" PRIx64, n);
	for (int i = 0; i < 8; i++)
		fixed[i] = rev[strchr(hexd, hex[7 - i]) - hexd];
	memcpy(fixed + 8, hex + 8, 7);
	for (int i = 0; i < 5; i++)
	{
		unsigned	v = 0;

		for (int j = 0; j < 3; j++)
			v = v * 16 + (unsigned) (strchr(hexd, fixed[3 * i + j]) - hexd);
		out[2 * i] = u60_ref_alphabet[v / 64];
		out[2 * i + 1] = u60_ref_alphabet[v % 64];
	}
	out[UID60_TEXT_LEN] = '\0';
}

/*
 * The spec's decoder: exactly 10 characters (length first), the first one
 * outside the alphabet is reported; every other string is valid.
 */
static inline uid_status
u60_ref_decode(const char *in, size_t len, uint64_t *out, size_t *bad_pos)
{
	uint64_t	m = 0;

	if (len != 10)
		return UID_BAD_LENGTH;
	for (size_t i = 0; i < 10; i++)
	{
		int			v = u60_ref_char((unsigned char) in[i]);

		if (v < 0)
		{
			*bad_pos = i;
			return UID_BAD_CHAR;
		}
		m = m * 64 + (uint64_t) v;
	}
	*out = u60_ref_display(m);	/* its own inverse */
	return UID_OK;
}

/* -1, 0 or 1 comparing (ts, worker, seq, rand) lexicographically */
static inline int
u60_fields_cmp(const uid60_fields *a, const uid60_fields *b)
{
	if (a->ts != b->ts)
		return a->ts < b->ts ? -1 : 1;
	if (a->worker != b->worker)
		return a->worker < b->worker ? -1 : 1;
	if (a->seq != b->seq)
		return a->seq < b->seq ? -1 : 1;
	if (a->rand != b->rand)
		return a->rand < b->rand ? -1 : 1;
	return 0;
}

#endif							/* UID_UID60_REF_H */
