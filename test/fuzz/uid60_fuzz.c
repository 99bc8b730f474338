/*
 * uid60_fuzz.c
 *		libFuzzer target for the uid60 codec (make fuzzcheck).
 *
 * Properties, each checked with abort() so that libFuzzer reports it:
 *	- arbitrary input never crashes uid60_decode (ASan/UBSan watch reads);
 *	- the status is consistent with the input: UID_BAD_LENGTH exactly when
 *	  the length is not 10; UID_BAD_CHAR with bad_pos on the first
 *	  character outside the alphabet; UID_OK exactly for 10 characters of
 *	  the alphabet, the decoded value is the references' value, at most
 *	  2^60 - 1, and encodes back to the input itself (case-sensitive);
 *	  bad_pos is untouched unless UID_BAD_CHAR;
 *	- when the input has at least 8 bytes, their big-endian value cut to
 *	  60 bits, n: both references (bit by bit, and the original's hex
 *	  digits) encode n as encode does, the text decodes back to n, unpack
 *	  agrees with the bit-by-bit reference, pack(unpack(n)) == n, and the
 *	  display change is its own inverse;
 *	- when the input has at least 16 bytes, bytes 8-15 give a second such
 *	  value, and integer order equals the (ts, worker, seq, rand) order of
 *	  their fields; fields taken from bytes 0-15 as they are, out of range
 *	  as they may be, pack as the fields masked to their widths.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "codec/uid60_codec.h"
#include "../unit/uid60_ref.h"

/* Every property of one value n <= UID60_MAX; returns its fields. */
static void
check_value(uint64_t n, uid60_fields *f)
{
	uid60_fields g;
	char		text[UID60_TEXT_LEN];
	char		ref[UID60_TEXT_LEN + 1];
	uint64_t	back = ~n;

	u60_ref_unpack(n, f);
	memset(&g, 0x5A, sizeof g);
	uid60_unpack(n, &g);
	if (u60_fields_cmp(&g, f) != 0 || uid60_pack(&g) != n)
		abort();
	if (uid60_display(uid60_display(n)) != n || uid60_display(n) != u60_ref_display(n))
		abort();

	uid60_encode(n, text);
	u60_ref_encode(n, ref);
	if (memcmp(text, ref, UID60_TEXT_LEN) != 0)
		abort();
	u60_ref_encode_hex(n, ref);
	if (memcmp(text, ref, UID60_TEXT_LEN) != 0)
		abort();
	if (uid60_decode(text, UID60_TEXT_LEN, &back, NULL) != UID_OK || back != n)
		abort();
}

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t	out = 0;
	size_t		bad = (size_t) -1;
	size_t		first_bad = size;
	uint64_t	want = 0;
	uid_status	st;

	st = uid60_decode((const char *) data, size, &out, &bad);

	/* what the input is, independently of the decoder */
	if (size == UID60_TEXT_LEN)
	{
		size_t		refbad = size;

		if (u60_ref_decode((const char *) data, size, &want, &refbad) == UID_BAD_CHAR)
			first_bad = refbad;
	}

	switch (st)
	{
		case UID_OK:
			if (size != UID60_TEXT_LEN || first_bad != size)
				abort();
			if (out != want || out > UID60_MAX || bad != (size_t) -1)
				abort();
			{
				char		text[UID60_TEXT_LEN];

				uid60_encode(out, text);
				if (memcmp(text, data, UID60_TEXT_LEN) != 0)
					abort();
			}
			break;
		case UID_BAD_LENGTH:
			if (size == UID60_TEXT_LEN || bad != (size_t) -1)
				abort();
			break;
		case UID_BAD_CHAR:
			if (size != UID60_TEXT_LEN || bad != first_bad || first_bad == size)
				abort();
			break;
		default:
			abort();
	}

	if (size >= 8)
	{
		uid60_fields fa;
		uint64_t	a = uid_load_be(data, 8) & UID60_MAX;

		check_value(a, &fa);
		if (st == UID_OK)
		{
			uid60_fields fo;

			check_value(out, &fo);
		}

		if (size >= 16)
		{
			uid60_fields fb;
			uid60_fields big;
			uid60_fields masked;
			uid60_fields g;
			uint64_t	b = uid_load_be(data + 8, 8) & UID60_MAX;
			uint64_t	n;

			check_value(b, &fb);
			if ((a > b) - (a < b) != u60_fields_cmp(&fa, &fb))
				abort();

			big.ts = uid_load_be(data, 8);
			big.worker = (unsigned) uid_load_be(data + 8, 4);
			big.seq = (unsigned) uid_load_be(data + 12, 2);
			big.rand = (unsigned) uid_load_be(data + 14, 2);
			masked.ts = big.ts & UID60_TS_MAX;
			masked.worker = big.worker & UID60_WORKER_MAX;
			masked.seq = big.seq & UID60_SEQ_MAX;
			masked.rand = big.rand & UID60_RAND_MAX;
			n = uid60_pack(&big);
			if (n != uid60_pack(&masked) || n > UID60_MAX)
				abort();
			u60_ref_unpack(n, &g);
			if (u60_fields_cmp(&g, &masked) != 0)
				abort();
		}
	}
	return 0;
}
