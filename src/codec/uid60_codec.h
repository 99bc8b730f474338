/*
 * uid60_codec.h
 *		The uid60 format (abyss-club/uexky, "Unique ID Generator Design"): a
 *		60-bit non-negative integer
 *
 *	n = ts << 28 | worker << 19 | seq << 9 | rand
 *
 *	ts		32 bits: seconds since 2018-03-01T00:00:00Z
 *	worker	 9 bits: worker (generator) id
 *	seq		10 bits: sequence
 *	rand	 9 bits: random
 *
 * so that integer order is time order.  The text (the original's display
 * form) is made to look random: m = bitrev32(ts) << 28 | (n & 0x0FFFFFFF),
 * a 32-bit bit reversal of the timestamp, written as ten 6-bit groups, most
 * significant first, over the base64url alphabet.  The change from n to m
 * is its own inverse.
 */
#ifndef UID_UID60_CODEC_H
#define UID_UID60_CODEC_H

#include <stddef.h>
#include <stdint.h>

#include "bits.h"

#define UID60_TEXT_LEN		10
#define UID60_MAX			((UINT64_C(1) << 60) - 1)
#define UID60_EPOCH_UNIX_S	INT64_C(1519862400)	/* 2018-03-01T00:00:00Z */
#define UID60_TS_BITS		32
#define UID60_TS_MAX		((UINT64_C(1) << UID60_TS_BITS) - 1)
#define UID60_WORKER_MAX	511
#define UID60_SEQ_MAX		1023
#define UID60_RAND_MAX		511
#define UID60_LOW_BITS		28	/* below the timestamp */
#define UID60_LOW_MASK		((UINT64_C(1) << UID60_LOW_BITS) - 1)

/*
 * The generator's clock (codec/registry.h): seconds since 2018-03-01, 1024
 * IDs each, the sequence not reset each second (the original's rule).
 */
#define UID60_CLOCK (UID60_EPOCH_UNIX_S * 1000000, 1000000, UID60_TS_MAX, UID60_SEQ_MAX, 1, 0, 0)

/* The identity it embeds (codec/registry.h): the worker, uid.generator. */
#define UID60_IDENT ("worker", GENERATOR, UID60_WORKER_MAX, NULL, NULL, GENERATOR, 0)

typedef struct uid60_fields
{
	uint64_t	ts;				/* 0 .. UID60_TS_MAX */
	unsigned	worker;			/* 0 .. 511 */
	unsigned	seq;			/* 0 .. 1023 */
	unsigned	rand;			/* 0 .. 511 */
} uid60_fields;

/* n from fields (in range; excess bits are masked) and back. */
extern uint64_t uid60_pack(const uid60_fields *f);
extern void uid60_unpack(uint64_t n, uid60_fields *f);

/*
 * The display value m of n, and n of m: the timestamp's 32 bits reversed,
 * the low 28 bits as they are.  Only the low 60 bits of the argument count.
 */
static inline uint64_t
uid60_display(uint64_t n)
{
	return (uint64_t) uid_bitrev32((uint32_t) (n >> UID60_LOW_BITS)) << UID60_LOW_BITS |
		(n & UID60_LOW_MASK);
}

/* Writes exactly UID60_TEXT_LEN characters of n's display form, no terminator. */
extern void uid60_encode(uint64_t n, char out[UID60_TEXT_LEN]);

/*
 * Decodes len characters: exactly 10 of A-Z, a-z, 0-9, '-' and '_'
 * (case-sensitive); every such string is a valid uid60.  UID_BAD_LENGTH, or
 * UID_BAD_CHAR with *bad_pos at the first character outside the alphabet.
 * *bad_pos is untouched otherwise and may be NULL.
 */
extern uid_status uid60_decode(const char *in, size_t len, uint64_t *n,
							   size_t *bad_pos);

#endif							/* UID_UID60_CODEC_H */
