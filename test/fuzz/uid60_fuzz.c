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
#include "fuzz.h"

/* Every property of one value n <= UID60_MAX. */
static void
check_value(uint64_t n)
{
	uid60_fields f;
	uid60_fields g;
	char		text[UID60_TEXT_LEN];
	char		ref[UID60_TEXT_LEN + 1];
	uint64_t	back = ~n;

	u60_ref_unpack(n, &f);
	memset(&g, 0x5A, sizeof g);
	uid60_unpack(n, &g);
	if (u60_fields_cmp(&g, &f) != 0 || uid60_pack(&g) != n)
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

FUZZ_VALUE_CHECKS(uid60, UID60_MAX, FUZZ_SAME_KEY, u60_ref_unpack, u60_fields_cmp,
				  UID60_TS_MAX, UID60_WORKER_MAX, UID60_SEQ_MAX, UID60_RAND_MAX)

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
		default:
			fuzz_check_refusal(st, size, UID60_TEXT_LEN, bad, first_bad);
	}

	check_values(data, size, st == UID_OK ? &out : NULL);
	return 0;
}
