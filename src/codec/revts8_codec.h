/*
 * revts8_codec.h
 *		The 8-byte ID of LableOrg/java-uniqueid.  Its canonical form, as a
 *		big-endian 64-bit integer L:
 *
 *	bits 63..22	the timestamp (ms since 1970, 42 bits), bit-reversed:
 *				timestamp bit i sits at bit 63 - i (L = bitrev64(ts) | ...)
 *	bits 21..16	sequence (0..63)
 *	bits 15..10	reserved, zero
 *	bits  9..4	generator (0..63)
 *	bits  3..0	cluster (0..15)
 *
 * The reversal spreads consecutive IDs over the byte range, so byte order is
 * not time order.  The time key K = ts << 22 | (L & 0x3FFFFF) orders IDs by
 * (timestamp, sequence, generator, cluster) as an unsigned integer; it and L
 * determine each other.  Text is the 16 lower-case hex digits of L.
 */
#ifndef UID_REVTS8_CODEC_H
#define UID_REVTS8_CODEC_H

#include <stddef.h>
#include <stdint.h>

#include "bits.h"

#define REVTS8_TEXT_LEN		16
#define REVTS8_TS_BITS		42
#define REVTS8_TS_MAX		((UINT64_C(1) << REVTS8_TS_BITS) - 1)
#define REVTS8_SEQ_MAX		63
#define REVTS8_GENERATOR_MAX 63
#define REVTS8_CLUSTER_MAX	15
#define REVTS8_LOW_BITS		22
#define REVTS8_LOW_MASK		((UINT64_C(1) << REVTS8_LOW_BITS) - 1)
#define REVTS8_RESERVED_MASK UINT64_C(0xFC00)	/* bits 15..10 */

/* The generator's clock (codec/registry.h): Unix milliseconds, 64 IDs each. */
#define REVTS8_CLOCK (0, 1000, REVTS8_TS_MAX, REVTS8_SEQ_MAX, 0, 0, 0)

/*
 * The identity it embeds (codec/registry.h): two fields, the generator
 * (uid.generator) and the cluster (uid.cluster); an identity id is
 * generator + 64 * cluster.
 */
#define REVTS8_IDENT ("generator", GENERATOR, REVTS8_GENERATOR_MAX, NULL, \
					  "cluster", CLUSTER, REVTS8_CLUSTER_MAX)

typedef struct revts8_fields
{
	uint64_t	ts;				/* 0 .. REVTS8_TS_MAX */
	unsigned	seq;			/* 0 .. 63 */
	unsigned	generator;		/* 0 .. 63 */
	unsigned	cluster;		/* 0 .. 15 */
} revts8_fields;

/* Canonical value L from fields (in range; excess bits are masked) and back. */
extern uint64_t revts8_pack(const revts8_fields *f);
extern void revts8_unpack(uint64_t canonical, revts8_fields *f);

/* The time key K of a canonical value with its reserved bits clear, and back. */
static inline uint64_t
revts8_key(uint64_t canonical)
{
	return (uid_bitrev64(canonical) & REVTS8_TS_MAX) << REVTS8_LOW_BITS |
		(canonical & REVTS8_LOW_MASK);
}

static inline uint64_t
revts8_canonical(uint64_t key)
{
	return uid_bitrev64(key >> REVTS8_LOW_BITS) | (key & REVTS8_LOW_MASK);
}

/* Writes exactly REVTS8_TEXT_LEN lower-case hex digits of L, no terminator. */
extern void revts8_encode(uint64_t canonical, char out[REVTS8_TEXT_LEN]);

/*
 * Decodes len characters: exactly 16 hex digits in either case.
 * UID_BAD_LENGTH, UID_BAD_CHAR (with *bad_pos), or UID_BAD_RESERVED when
 * bits 15..10 are set.  *bad_pos is untouched otherwise and may be NULL.
 */
extern uid_status revts8_decode(const char *in, size_t len, uint64_t *canonical,
								size_t *bad_pos);

#endif							/* UID_REVTS8_CODEC_H */
