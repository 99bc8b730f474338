/*
 * revts8_ref.h
 *		An independent reference for the revts8 layout, written from
 *		doc/formats.md bit by bit without the codec's helpers; shared by the unit
 *		test and the fuzz target.
 */
#ifndef UID_REVTS8_REF_H
#define UID_REVTS8_REF_H

#include <stdint.h>
#include <string.h>

#include "codec/revts8_codec.h"

/* Fields from L, bit by bit; the reserved bits go nowhere. */
static inline void
rts8_ref_unpack(uint64_t l, revts8_fields *f)
{
	f->ts = 0;
	f->seq = f->generator = f->cluster = 0;
	for (int i = 0; i < 42; i++)
		if ((l >> (63 - i)) & 1)
			f->ts |= UINT64_C(1) << i;
	for (int i = 0; i < 6; i++)
		if ((l >> (16 + i)) & 1)
			f->seq |= 1u << i;
	for (int i = 0; i < 6; i++)
		if ((l >> (4 + i)) & 1)
			f->generator |= 1u << i;
	for (int i = 0; i < 4; i++)
		if ((l >> i) & 1)
			f->cluster |= 1u << i;
}

/* Value of a hex digit found by table look-up, or -1. */
static inline int
rts8_ref_hex(unsigned char c)
{
	const char *digits = "0123456789abcdefABCDEF";
	const char *p;

	if (c == '\0' || (p = strchr(digits, c)) == NULL)
		return -1;
	return (int) (p - digits < 16 ? p - digits : p - digits - 6);
}

/* -1, 0 or 1 comparing (ts, seq, generator, cluster) lexicographically */
static inline int
rts8_fields_cmp(const revts8_fields *a, const revts8_fields *b)
{
	if (a->ts != b->ts)
		return a->ts < b->ts ? -1 : 1;
	if (a->seq != b->seq)
		return a->seq < b->seq ? -1 : 1;
	if (a->generator != b->generator)
		return a->generator < b->generator ? -1 : 1;
	if (a->cluster != b->cluster)
		return a->cluster < b->cluster ? -1 : 1;
	return 0;
}

#endif							/* UID_REVTS8_REF_H */
