/*
 * muid_fuzz.c
 *		libFuzzer target for the muid decoder (make fuzzcheck).
 *
 * Properties, each checked with abort() so that libFuzzer reports it:
 *	- arbitrary input never crashes muid_decode (ASan/UBSan watch reads);
 *	- the status is consistent with the input: UID_BAD_LENGTH exactly when
 *	  the length is not 13, 25 or 34; otherwise UID_OK exactly when every
 *	  character is a hex digit except a dash at offsets 13 and 25, and on a
 *	  failure bad_pos is the first character that breaks that shape;
 *	- whenever decode succeeds, encode(decoded) is the input upper-cased,
 *	  padded with the zero groups a short form leaves out;
 *	- when the input has at least 16 bytes, its first 16 bytes encode to
 *	  text that decodes back to them.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "codec/muid_codec.h"
#include "fuzz.h"

static int
is_hex(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static char
upper(unsigned char c)
{
	return (char) (c >= 'a' && c <= 'f' ? c - 'a' + 'A' : c);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char zeros[] = "0000000000000-00000000000-00000000";
	uint8_t		out[MUID_LEN];
	char		text[MUID_TEXT_LEN];
	size_t		bad = (size_t) -1;
	size_t		first_bad = size;
	int			len_ok = size == 13 || size == 25 || size == 34;
	uid_status	st;

	for (size_t i = 0; i < size && len_ok; i++)
	{
		int			dash = i == 13 || i == 25;

		if (dash ? data[i] != '-' : !is_hex(data[i]))
		{
			first_bad = i;
			break;
		}
	}

	st = muid_decode((const char *) data, size, out, &bad);
	switch (st)
	{
		case UID_OK:
			if (!len_ok || first_bad != size)
				abort();
			muid_encode(out, text);
			for (size_t i = 0; i < MUID_TEXT_LEN; i++)
				if (text[i] != (i < size ? upper(data[i]) : zeros[i]))
					abort();
			break;
		case UID_BAD_LENGTH:
			if (len_ok)
				abort();
			break;
		case UID_BAD_CHAR:
		case UID_BAD_SHAPE:
			if (!len_ok || bad != first_bad)
				abort();
			/* a shape error is a dash or hex digit in the wrong place */
			if ((st == UID_BAD_SHAPE) != (data[bad] == '-' || is_hex(data[bad])))
				abort();
			break;
		default:
			abort();
	}

	if (size >= MUID_LEN)
	{
		uint8_t		back[MUID_LEN];

		muid_encode(data, text);
		memset(back, 0, sizeof back);
		if (muid_decode(text, MUID_TEXT_LEN, back, NULL) != UID_OK ||
			memcmp(back, data, MUID_LEN) != 0)
			abort();
	}
	return 0;
}
