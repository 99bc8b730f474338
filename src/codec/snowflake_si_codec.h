/*
 * snowflake_si_codec.h
 *		The Snowflake-SI format (npm @litert/uuid): a 53-bit non-negative
 *		integer, id = MAB * 8192 + MID * 2^k + UIN, so that JavaScript holds
 *		it exactly.  MAB: 40 bits of milliseconds after a base clock; MID: the
 *		machine id, 13 - k bits; UIN: the index within the millisecond, k bits
 *		(1 <= k <= 13).  Text is the plain decimal integer.
 */
#ifndef UID_SNOWFLAKE_SI_CODEC_H
#define UID_SNOWFLAKE_SI_CODEC_H

#include <stddef.h>
#include <stdint.h>

#include "bits.h"

#define SNOWFLAKE_SI_MAX		((UINT64_C(1) << 53) - 1)	/* 9007199254740991 */
#define SNOWFLAKE_SI_MAB_MAX	((UINT64_C(1) << 40) - 1)
#define SNOWFLAKE_SI_LOW_BITS	13
#define SNOWFLAKE_SI_K_MIN		1
#define SNOWFLAKE_SI_K_MAX		13
/* the original refuses base clocks before 2003-03-18T07:20:19.225Z */
#define SNOWFLAKE_SI_EPOCH_MIN_MS INT64_C(1047972019225)
/*
 * The last base clock whose IDs, to the 40-bit end of MAB, have their Unix
 * microseconds in an int64: 294212-03-08T08:07:07Z, whose last millisecond
 * is 294247-01-10T04:00:54.775Z (timestamptz runs on to 294276).  Later
 * ones would overflow the microseconds of the base clock or of its IDs.
 */
#define SNOWFLAKE_SI_EPOCH_MAX_MS (INT64_MAX / 1000 - (int64_t) SNOWFLAKE_SI_MAB_MAX)
/*
 * The defaults of uid.snowflake_si_epoch (2024-01-01T00:00:00Z) and
 * uid.snowflake_si_index_bits, which uid-inspect assumes too
 */
#define SNOWFLAKE_SI_DEFAULT_EPOCH_MS INT64_C(1704067200000)
#define SNOWFLAKE_SI_DEFAULT_K	8

/*
 * The generator's clock (codec/registry.h): Unix milliseconds, as far as
 * the generator's state holds them (core/alloc.h's UID_TICK_MAX, checked in
 * snowflake_si.c).  The format's own range and sequence width follow the
 * base clock and the index width, which the generator sets on each call.
 */
#define SNOWFLAKE_SI_UNIX_MS_MAX ((UINT64_C(1) << 44) - 1)
#define SNOWFLAKE_SI_CLOCK (0, 1000, SNOWFLAKE_SI_UNIX_MS_MAX, 0, 0, 0, 0)

/*
 * The identity it embeds (codec/registry.h): the machine id, uid.generator,
 * in the bits the index width leaves (UID_IDENT_INDEX_BITS: where the
 * identity is read, the width in force).
 */
#define SNOWFLAKE_SI_IDENT ("machine id", GENERATOR, snowflake_si_mid_max(UID_IDENT_INDEX_BITS), \
							NULL, NULL, GENERATOR, 0)
/* digits of SNOWFLAKE_SI_MAX */
#define SNOWFLAKE_SI_TEXT_MAX	16

typedef struct snowflake_si_fields
{
	uint64_t	mab;			/* 0 .. SNOWFLAKE_SI_MAB_MAX */
	unsigned	mid;			/* 0 .. 2^(13-k) - 1 */
	unsigned	uin;			/* 0 .. 2^k - 1 */
} snowflake_si_fields;

/* Largest machine id and index for a UIN width k. */
static inline unsigned
snowflake_si_mid_max(int k)
{
	return (1u << (SNOWFLAKE_SI_LOW_BITS - k)) - 1;
}

static inline unsigned
snowflake_si_uin_max(int k)
{
	return (1u << k) - 1;
}

/* Fields must be in range for k (callers validate); excess bits are masked. */
extern uint64_t snowflake_si_pack(const snowflake_si_fields *f, int k);
extern void snowflake_si_unpack(uint64_t id, int k, snowflake_si_fields *f);

/* Writes the decimal digits and a terminator; returns the number of digits. */
extern int	snowflake_si_encode(uint64_t id, char out[SNOWFLAKE_SI_TEXT_MAX + 1]);

/*
 * Decodes len characters: decimal digits, optionally surrounded by white
 * space (as bigint input allows).  No sign.  UID_BAD_CHAR with *bad_pos at
 * the first character that is neither (or at len when the input is empty or
 * nothing but white space); otherwise UID_OUT_OF_RANGE above
 * SNOWFLAKE_SI_MAX.  *bad_pos is untouched on success and may be NULL.
 */
extern uid_status snowflake_si_decode(const char *in, size_t len, uint64_t *out,
									  size_t *bad_pos);

#endif							/* UID_SNOWFLAKE_SI_CODEC_H */
