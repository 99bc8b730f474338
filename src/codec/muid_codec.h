/*
 * muid_codec.h
 *		The muid format (Gink, x5e/gink): 16 bytes, big-endian.
 *
 *	bits 127..76	timestamp: microseconds since 1970-01-01Z (52 bits)
 *	bits  75..32	medallion: the node that made it (44 bits)
 *	bits  31..0		offset inside the transaction, two's complement
 *
 * Text is upper-case hex in groups of 13, 11 and 8 digits joined by dashes,
 * so text order, byte order and (timestamp, medallion, unsigned offset)
 * order agree.  Input also takes lower case and the two short forms that
 * leave out a zero offset, or a zero medallion and offset.
 */
#ifndef UID_MUID_CODEC_H
#define UID_MUID_CODEC_H

#include <stddef.h>
#include <stdint.h>

#include "bits.h"

#define MUID_LEN			16
#define MUID_TEXT_LEN		34	/* 13 + 1 + 11 + 1 + 8 */
#define MUID_TS_DIGITS		13
#define MUID_MEDALLION_DIGITS 11
#define MUID_OFFSET_DIGITS	8
#define MUID_TS_MAX			((UINT64_C(1) << 52) - 1)	/* all ones: global */
#define MUID_MEDALLION_MAX	((UINT64_C(1) << 44) - 1)	/* all ones: global */
#define MUID_OFFSET_MAX		INT32_MAX	/* the last offset muid_new() issues */

/*
 * The generator's clock (codec/registry.h): microseconds since 1970, each
 * issued once per server (the offset counts within a transaction, not a
 * tick), a tick of its own for each transaction (uid_unique_tick); the
 * all-ones timestamp is Gink's "global object" sentinel, never generated.
 */
#define MUID_CLOCK (0, 1, MUID_TS_MAX - 1, 0, 0, 0, 1)

/*
 * The identity it embeds (codec/registry.h): the medallion, uid.medallion
 * by hand, else drawn at the server's start; all ones is the sentinel.
 */
#define MUID_IDENT ("medallion", MEDALLION, MUID_MEDALLION_MAX - 1, "1/2^40", NULL, MEDALLION, 0)

typedef struct muid_fields
{
	uint64_t	timestamp;		/* 0 .. MUID_TS_MAX */
	uint64_t	medallion;		/* 0 .. MUID_MEDALLION_MAX */
	int32_t		offset;
} muid_fields;

/* Excess bits of timestamp and medallion are masked off. */
extern void muid_pack(const muid_fields *f, uint8_t out[MUID_LEN]);
extern void muid_unpack(const uint8_t in[MUID_LEN], muid_fields *f);

/* Writes exactly MUID_TEXT_LEN characters, no terminator. */
extern void muid_encode(const uint8_t in[MUID_LEN], char out[MUID_TEXT_LEN]);

/*
 * Decodes len characters: 34 (full), 25 (no offset) or 13 (timestamp only),
 * hex digits in either case with dashes after the 13th and 25th.  On
 * UID_BAD_CHAR or UID_BAD_SHAPE, *bad_pos is the offset of the first
 * character that does not fit.
 */
extern uid_status muid_decode(const char *in, size_t len, uint8_t out[MUID_LEN],
							  size_t *bad_pos);

/*
 * The offset after *last within one transaction: 1, 2, 3 ... up to
 * MUID_OFFSET_MAX.  Returns false, leaving *last alone, when they are used
 * up (the caller reports it; offsets never wrap into the negative ones).
 */
static inline int
muid_next_offset(int32_t *last)
{
	if (*last < 0 || *last >= MUID_OFFSET_MAX)
		return 0;
	*last += 1;
	return 1;
}

static inline uint64_t
muid_sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/*
 * The abbreviated sort key of v, relative to a reference R (in a sort, the
 * first value converted): ref_hi is R's first 8 bytes, ref_med_lo its
 * bytes 8-11, both as big-endian integers.
 *
 * The plain 8-byte prefix is the timestamp and 12 bits of the medallion,
 * equal for all the muids of one transaction, which may be millions (a
 * bulk INSERT): every comparison among them would go to the full
 * comparator.  So the key is 52 bits of timestamp and 12 bits below, built
 * around R's (timestamp, medallion):
 *
 *	- timestamp below R's: ts << 12 | c, where c places (medallion, offset)
 *	  relative to R's medallion: 0 below it, 1 + offset (saturated at 4094)
 *	  equal to it, 4095 above it;
 *	- timestamp equal to R's: a block of 2^32 + 2 keys from R's ts << 12:
 *	  medallion below R's, then 1 + offset (all 2^32 offsets, unsigned) for
 *	  R's medallion, then medallion above R's;
 *	- timestamp above R's: ts << 12 | c as for those below, moved up by
 *	  2^33 past R's block (saturating at 2^64 - 1).
 *
 * Each part only ever grows with the byte order and the parts are in
 * order, so key(a) < key(b) implies a < b, and equal values have equal
 * keys.  R's transaction gets a distinct key for each of its offsets
 * (unless R is within 2^20 us of the end of the range, 2112-09-17);
 * other transactions of R's medallion are told apart by timestamp and their
 * first 4,094 offsets (0 .. 4093).
 */
static inline uint64_t
muid_abbrev_key(const uint8_t v[MUID_LEN], uint64_t ref_hi, uint32_t ref_med_lo)
{
	uint64_t	hi = uid_load_be(v, 8);
	uint64_t	lo = uid_load_be(v + 8, 8);
	uint32_t	med_lo = (uint32_t) (lo >> 32);
	uint32_t	offset = (uint32_t) lo;
	uint64_t	ts = hi >> 12;
	uint64_t	ref_ts = ref_hi >> 12;
	int			medcmp;
	uint64_t	c;

	/* the medallion against R's: its top 12 bits are in hi, the rest in lo */
	if ((hi & 0xFFF) != (ref_hi & 0xFFF))
		medcmp = (hi & 0xFFF) < (ref_hi & 0xFFF) ? -1 : 1;
	else
		medcmp = med_lo == ref_med_lo ? 0 : (med_lo < ref_med_lo ? -1 : 1);

	if (ts == ref_ts)
	{
		uint64_t	base = ref_ts << 12;

		if (medcmp == 0)
			return muid_sat_add(base, UINT64_C(1) + offset);
		return medcmp < 0 ? base : muid_sat_add(base, (UINT64_C(1) << 32) + 1);
	}
	c = medcmp < 0 ? 0 : medcmp > 0 ? 4095 : 1 + (offset < 4093 ? offset : 4093);
	if (ts < ref_ts)
		return ts << 12 | c;
	return muid_sat_add(ts << 12 | c, UINT64_C(1) << 33);
}

#endif							/* UID_MUID_CODEC_H */
