/*
 * revts8_fuzz.c
 *		libFuzzer target for the revts8 codec (make fuzzcheck).
 *
 * Properties, each checked with abort() so that libFuzzer reports it:
 *	- arbitrary input never crashes revts8_decode (ASan/UBSan watch reads);
 *	- the status is consistent with the input: UID_BAD_LENGTH exactly when
 *	  the length is not 16; UID_BAD_CHAR with bad_pos on the first non-hex
 *	  character; UID_BAD_RESERVED only for 16 hex digits whose value has one
 *	  of bits 15..10 set; UID_OK only for 16 hex digits whose value has them
 *	  all clear, the decoded value is that value, and encode(decoded)
 *	  equals the input lower-cased; bad_pos is untouched unless UID_BAD_CHAR;
 *	- when the input has at least 8 bytes, their big-endian value L with
 *	  the reserved bits cleared: canonical(key(L)) == L, key(L) is
 *	  ts << 22 | seq << 16 | generator << 4 | cluster of unpack(L) (read bit
 *	  by bit from L), pack(unpack(L)) == L, and L encodes to 16 lower-case
 *	  hex digits that decode back to L, in lower and in upper case;
 *	- when the input has at least 16 bytes, bytes 8-15 give a second such
 *	  value M, and key order of L and M equals the (ts, seq, generator,
 *	  cluster) order of their fields; and fields taken from bytes 0-15 as
 *	  they are, out of range as they may be, pack as the fields masked to
 *	  their widths, with the reserved bits clear.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "codec/revts8_codec.h"
#include "../unit/revts8_ref.h"
#include "fuzz.h"

#define RESERVED UINT64_C(0xFC00)	/* bits 15..10, from the spec */


static char
lower(unsigned char c)
{
	return (char) (c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
}



/* Every property of one valid canonical value. */
static void
check_value(uint64_t l)
{
	revts8_fields f;
	revts8_fields g;
	char		text[REVTS8_TEXT_LEN];
	char		upper[REVTS8_TEXT_LEN];
	uint64_t	back;
	uint64_t	k;

	rts8_ref_unpack(l, &f);
	k = revts8_key(l);
	if (k != (f.ts << 22 | (uint64_t) f.seq << 16 |
			  (uint64_t) f.generator << 4 | f.cluster))
		abort();
	if (revts8_canonical(k) != l)
		abort();

	memset(&g, 0x5A, sizeof g);
	revts8_unpack(l, &g);
	if (g.ts != f.ts || g.seq != f.seq || g.generator != f.generator ||
		g.cluster != f.cluster)
		abort();
	if (revts8_pack(&g) != l)
		abort();

	revts8_encode(l, text);
	for (int i = 0; i < REVTS8_TEXT_LEN; i++)
	{
		unsigned char c = (unsigned char) text[i];

		if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
			abort();			/* encode must emit lower-case hex */
		if ((uint64_t) rts8_ref_hex(c) != ((l >> (60 - 4 * i)) & 15))
			abort();
		upper[i] = (char) (c >= 'a' ? c - 'a' + 'A' : c);
	}
	back = ~l;
	if (revts8_decode(text, REVTS8_TEXT_LEN, &back, NULL) != UID_OK || back != l)
		abort();
	back = ~l;
	if (revts8_decode(upper, REVTS8_TEXT_LEN, &back, NULL) != UID_OK || back != l)
		abort();
}

FUZZ_VALUE_CHECKS(revts8, ~RESERVED, revts8_key, rts8_ref_unpack, rts8_fields_cmp,
				  REVTS8_TS_MAX, 63, 63, 15)

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t	out = 0;
	size_t		bad = (size_t) -1;
	size_t		first_bad = size;
	uint64_t	v = 0;
	uid_status	st;

	st = revts8_decode((const char *) data, size, &out, &bad);

	/* what the input is, independently of the decoder */
	if (size == REVTS8_TEXT_LEN)
		for (size_t i = 0; i < size; i++)
		{
			int			d = rts8_ref_hex(data[i]);

			if (d < 0)
			{
				first_bad = i;
				break;
			}
			v = v << 4 | (uint64_t) d;
		}

	switch (st)
	{
		case UID_OK:
			if (size != REVTS8_TEXT_LEN || first_bad != size || (v & RESERVED))
				abort();
			if (out != v || bad != (size_t) -1)
				abort();
			{
				char		text[REVTS8_TEXT_LEN];

				revts8_encode(out, text);
				for (size_t i = 0; i < REVTS8_TEXT_LEN; i++)
					if (text[i] != lower(data[i]))
						abort();
			}
			break;
		case UID_BAD_RESERVED:
			if (size != REVTS8_TEXT_LEN || first_bad != size || !(v & RESERVED))
				abort();
			if (bad != (size_t) -1)
				abort();
			break;
		default:
			fuzz_check_refusal(st, size, REVTS8_TEXT_LEN, bad, first_bad);
	}

	check_values(data, size, st == UID_OK ? &out : NULL);
	return 0;
}
