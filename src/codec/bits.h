/*
 * bits.h
 *		Byte-order and bit-order helpers shared by every format's codec.
 *
 * Pure C: no PostgreSQL headers, so the codecs can be unit-tested and
 * fuzzed on their own.
 */
#ifndef UID_CODEC_BITS_H
#define UID_CODEC_BITS_H

#include <stdint.h>
#include <string.h>

/*
 * Big-endian loads and stores of 1..8 bytes.  Where the compiler has a byte
 * swap, they take one copy of nbytes (a constant where they are used: one or
 * two moves) and a swap, as the loop's byte at a time does not become by
 * itself: the sort keys of the 16-byte types are made on every row of a
 * sort, and sno_pack()'s 5-byte time on every ID (38 instructions as a
 * loop, 5 now).  The value to store must fit in nbytes; higher bits are
 * dropped, as by the loop.
 */
static inline uint64_t
uid_load_be(const uint8_t *p, int nbytes)
{
	uint64_t	v = 0;

#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (nbytes >= 1 && nbytes <= 8)
	{
		/* p[0] in the lowest byte; swapped, in the highest */
		memcpy(&v, p, (size_t) nbytes);
		return __builtin_bswap64(v) >> (64 - 8 * nbytes);
	}
#endif
	for (int i = 0; i < nbytes; i++)
		v = (v << 8) | p[i];
	return v;
}

static inline void
uid_store_be(uint8_t *p, int nbytes, uint64_t v)
{
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (nbytes >= 1 && nbytes <= 8)
	{
		v = __builtin_bswap64(v << (64 - 8 * nbytes));
		memcpy(p, &v, (size_t) nbytes);
		return;
	}
#endif
	for (int i = nbytes - 1; i >= 0; i--)
	{
		p[i] = (uint8_t) v;
		v >>= 8;
	}
}

static inline uint32_t
uid_bitrev32(uint32_t x)
{
	x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
	x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
	x = ((x >> 4) & 0x0F0F0F0Fu) | ((x & 0x0F0F0F0Fu) << 4);
	return __builtin_bswap32(x);
}

static inline uint64_t
uid_bitrev64(uint64_t x)
{
	return ((uint64_t) uid_bitrev32((uint32_t) x) << 32) |
		uid_bitrev32((uint32_t) (x >> 32));
}

/* Value of a hexadecimal digit in either case, or -1. */
static inline int
uid_hexval(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/*
 * Outcome of a text or binary decode.  type_support.c maps each to an
 * SQLSTATE and a message; the codecs never format messages themselves.
 */
typedef enum uid_status
{
	UID_OK = 0,
	UID_BAD_LENGTH,				/* wrong number of characters or bytes */
	UID_BAD_CHAR,				/* a character outside the alphabet */
	UID_BAD_SHAPE,				/* separators or groups in the wrong place */
	UID_BAD_RESERVED,			/* bits that must be zero are set */
	UID_OUT_OF_RANGE			/* a value beyond the format's range */
} uid_status;

#endif							/* UID_CODEC_BITS_H */
