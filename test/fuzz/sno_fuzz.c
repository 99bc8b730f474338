/*
 * sno_fuzz.c
 *		libFuzzer target for the sno decoder (make fuzzcheck).
 *
 * Properties, each checked with abort() so that libFuzzer reports it:
 *	- arbitrary input never crashes sno_decode (ASan/UBSan watch reads);
 *	- the status is consistent with the input: UID_OK only for 16 characters
 *	  of the alphabet or A-X, UID_BAD_LENGTH exactly when the length is not
 *	  16, UID_BAD_CHAR with bad_pos on the first character outside that set;
 *	- whenever decode succeeds, encode(decoded) equals the input lower-cased;
 *	- when the input has at least 10 bytes, its first 10 bytes encode to
 *	  text that decodes back to them, in lower and in upper case.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "codec/sno_codec.h"
#include "fuzz.h"

static int
sno_char_ok(unsigned char c)
{
	return (c >= '2' && c <= '9') || (c >= 'a' && c <= 'x') ||
		(c >= 'A' && c <= 'X');
}

static char
lower(unsigned char c)
{
	return (char) (c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t		out[SNO_LEN];
	char		text[SNO_TEXT_LEN];
	size_t		bad = (size_t) -1;
	uid_status	st;

	st = sno_decode((const char *) data, size, out, &bad);
	switch (st)
	{
		case UID_OK:
			if (size != SNO_TEXT_LEN)
				abort();
			for (size_t i = 0; i < size; i++)
				if (!sno_char_ok(data[i]))
					abort();
			sno_encode(out, text);
			for (size_t i = 0; i < SNO_TEXT_LEN; i++)
				if (text[i] != lower(data[i]))
					abort();
			break;
		case UID_BAD_LENGTH:
			if (size == SNO_TEXT_LEN)
				abort();
			break;
		case UID_BAD_CHAR:
			if (size != SNO_TEXT_LEN || bad >= size || sno_char_ok(data[bad]))
				abort();
			for (size_t i = 0; i < bad; i++)
				if (!sno_char_ok(data[i]))
					abort();
			break;
		default:
			abort();
	}

	if (size >= SNO_LEN)
	{
		uint8_t		back[SNO_LEN];
		char		upper[SNO_TEXT_LEN];

		sno_encode(data, text);
		memset(back, 0, sizeof back);
		if (sno_decode(text, SNO_TEXT_LEN, back, NULL) != UID_OK ||
			memcmp(back, data, SNO_LEN) != 0)
			abort();
		for (size_t i = 0; i < SNO_TEXT_LEN; i++)
		{
			if (!((text[i] >= '2' && text[i] <= '9') ||
				  (text[i] >= 'a' && text[i] <= 'x')))
				abort();		/* encode must emit the lower-case alphabet */
			upper[i] = (char) (text[i] >= 'a' ? text[i] - 'a' + 'A' : text[i]);
		}
		memset(back, 0, sizeof back);
		if (sno_decode(upper, SNO_TEXT_LEN, back, NULL) != UID_OK ||
			memcmp(back, data, SNO_LEN) != 0)
			abort();
	}
	return 0;
}
