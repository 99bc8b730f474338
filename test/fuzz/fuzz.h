/*
 * fuzz.h
 *		What the libFuzzer targets share (make fuzzcheck): their entry point,
 *		and the checks of the codecs of a 64-bit value with a fixed-length
 *		text (revts8, uid60).  Each check aborts, so that libFuzzer reports
 *		it.
 */
#ifndef UID_FUZZ_H
#define UID_FUZZ_H

#include <stdint.h>
#include <stdlib.h>

#include "codec/bits.h"

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * A decoder's refusal of size bytes, for a text of text_len characters:
 * UID_BAD_LENGTH exactly when size is not text_len, UID_BAD_CHAR with bad
 * on first_bad (the first character outside the alphabet, size if none),
 * and bad untouched ((size_t) -1) unless UID_BAD_CHAR.  Any other status
 * aborts.
 */
static inline void
fuzz_check_refusal(uid_status st, size_t size, size_t text_len, size_t bad,
				   size_t first_bad)
{
	switch (st)
	{
		case UID_BAD_LENGTH:
			if (size == text_len || bad != (size_t) -1)
				abort();
			break;
		case UID_BAD_CHAR:
			if (size != text_len || bad != first_bad || first_bad == size)
				abort();
			break;
		default:
			abort();
	}
}

/* The key of a type whose value is its own key. */
#define FUZZ_SAME_KEY(v)	(v)

/*
 * Defines check_values(data, size, decoded) for a codec T of 64-bit values
 * whose fields, T_fields, are a 64-bit ts and three unsigned ones, packed
 * by T_pack; the target defines check_value(v), every property of one
 * valid value.  With at least 8 bytes of input: check_value of a, their
 * big-endian value masked with valid (the bits a value may have), and of
 * the decoded value, if any.  With at least 16: check_value of b, from
 * bytes 8-15; key(a) and key(b) are in the order of their fields as the
 * reference reads them (ref_unpack, ref_cmp); and fields taken from bytes
 * 0-15 (8, 4, 2 and 2 bytes) as they are, out of range as they may be,
 * pack as the fields masked to their widths (ts_max, max1, max2, max3)
 * do, into a valid value the reference reads back as those.
 */
#define FUZZ_VALUE_CHECKS(T, valid, key, ref_unpack, ref_cmp, ts_max, max1, max2, max3) \
static void \
check_fields(const uint8_t *data, uint64_t a, uint64_t b) \
{ \
	uint64_t	ts = uid_load_be(data, 8); \
	unsigned	f1 = (unsigned) uid_load_be(data + 8, 4); \
	unsigned	f2 = (unsigned) uid_load_be(data + 12, 2); \
	unsigned	f3 = (unsigned) uid_load_be(data + 14, 2); \
	T##_fields	big = {ts, f1, f2, f3}; \
	T##_fields	masked = {ts & (ts_max), f1 & (max1), f2 & (max2), f3 & (max3)}; \
	T##_fields	fa; \
	T##_fields	fb; \
	T##_fields	g; \
	uint64_t	l; \
\
	ref_unpack(a, &fa); \
	ref_unpack(b, &fb); \
	if ((key(a) > key(b)) - (key(a) < key(b)) != ref_cmp(&fa, &fb)) \
		abort(); \
	l = T##_pack(&big); \
	if (l != T##_pack(&masked) || (l & ~(uint64_t) (valid)) != 0) \
		abort(); \
	ref_unpack(l, &g); \
	if (ref_cmp(&g, &masked) != 0) \
		abort(); \
} \
static void \
check_values(const uint8_t *data, size_t size, const uint64_t *decoded) \
{ \
	uint64_t	a; \
	uint64_t	b; \
\
	if (size < 8) \
		return; \
	a = uid_load_be(data, 8) & (valid); \
	check_value(a); \
	if (decoded != NULL) \
		check_value(*decoded); \
	if (size < 16) \
		return; \
	b = uid_load_be(data + 8, 8) & (valid); \
	check_value(b); \
	check_fields(data, a, b); \
}

#endif							/* UID_FUZZ_H */
