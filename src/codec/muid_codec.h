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

#endif							/* UID_MUID_CODEC_H */
