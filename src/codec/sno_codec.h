/*
 * sno_codec.h
 *		The sno format (muyo/sno v1.2.1): 10 bytes, big-endian.
 *
 *	bytes 0-4	units << 1 | tick (units: 4 ms since 2010-01-01Z, 39 bits)
 *	byte  5		metabyte
 *	bytes 6-7	partition
 *	bytes 8-9	sequence
 *
 * Text is 16 characters of a 32-letter alphabet in ASCII order, so text
 * order, byte order and time order agree.
 */
#ifndef UID_SNO_CODEC_H
#define UID_SNO_CODEC_H

#include <stddef.h>
#include <stdint.h>

#include "bits.h"

#define SNO_LEN			10
#define SNO_TEXT_LEN	16
#define SNO_UNIT_MS		4
#define SNO_EPOCH_UNIX_MS INT64_C(1262304000000)	/* 2010-01-01T00:00:00Z */
#define SNO_UNITS_MAX	((UINT64_C(1) << 39) - 1)
#define SNO_SEQ_MAX		0xFFFF

/*
 * The generator's clock (codec/registry.h): 4 ms units from 2010, 65,536
 * IDs each, on two timelines (the tick bit: a clock that went back takes
 * the other one).
 */
#define SNO_CLOCK (SNO_EPOCH_UNIX_MS * 1000, SNO_UNIT_MS * 1000, SNO_UNITS_MAX, SNO_SEQ_MAX, 0, 1, 0)

/*
 * The identity it embeds (codec/registry.h): the partition, uid.partition
 * by hand, else drawn at the server's start.
 */
#define SNO_PARTITION_MAX 65535
#define SNO_IDENT ("partition", PARTITION, SNO_PARTITION_MAX, "1/65536", NULL, PARTITION, 0)

typedef struct sno_fields
{
	uint64_t	units;			/* 0 .. SNO_UNITS_MAX */
	unsigned	tick;			/* 0 or 1 */
	unsigned	meta;			/* 0 .. 255 */
	unsigned	partition;		/* 0 .. 65535 */
	unsigned	sequence;		/* 0 .. 65535 */
} sno_fields;

/* Fields must be in range (callers validate); excess bits are masked off. */
extern void sno_pack(const sno_fields *f, uint8_t out[SNO_LEN]);
extern void sno_unpack(const uint8_t in[SNO_LEN], sno_fields *f);

/* Writes exactly SNO_TEXT_LEN characters, no terminator. */
extern void sno_encode(const uint8_t in[SNO_LEN], char out[SNO_TEXT_LEN]);

/*
 * Decodes len characters.  Accepts the 32-letter alphabet and its
 * upper-case letters (folded).  On UID_BAD_CHAR, *bad_pos is the offset of
 * the first bad character.
 */
extern uid_status sno_decode(const char *in, size_t len, uint8_t out[SNO_LEN],
							 size_t *bad_pos);

#endif							/* UID_SNO_CODEC_H */
