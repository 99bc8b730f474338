/*
 * snowflake_si_fuzz.c
 *		libFuzzer target for the Snowflake-SI decoder (make fuzzcheck).
 *
 * Properties, each checked with abort() so that libFuzzer reports it:
 *	- arbitrary input never crashes snowflake_si_decode (ASan/UBSan watch
 *	  reads);
 *	- the status is consistent with the input, where "trimmed" means with
 *	  the six C white-space characters stripped from both ends:
 *	  UID_OK only when the trimmed input is a non-empty digit string whose
 *	  value is <= 2^53-1, and encode(decoded) then equals that digit string
 *	  with its leading zeros stripped ("0" for all zeros);
 *	  UID_OUT_OF_RANGE only when the trimmed input is a non-empty digit
 *	  string whose value is > 2^53-1 (compared as digit strings, by length
 *	  and then lexicographically, after stripping leading zeros);
 *	  UID_BAD_CHAR with bad_pos == size when the trimmed input is empty
 *	  (nothing but white space), else with bad_pos on the first non-digit
 *	  of the trimmed input;
 *	- when the input has at least 8 bytes, their big-endian value masked to
 *	  53 bits encodes to text that decodes back to it, and unpacks and packs
 *	  back to it with k = 1 + (byte 8 % 13), or byte 0 when there are only
 *	  8 bytes;
 *	- when the input has at least 16 bytes, fields taken from bytes 0-7
 *	  (MAB), 8-11 (MID) and 12-15 (UIN), out of range as they may be, pack
 *	  as the spec's MAB * 8192 + MID * 2^k + UIN of the fields masked to
 *	  their widths ("excess bits are masked").
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "codec/snowflake_si_codec.h"
#include "fuzz.h"

#define MAX_TEXT "9007199254740991"

static int
c_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

static int
c_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

static void
check_pack(uint64_t id, int k)
{
	snowflake_si_fields f;

	snowflake_si_unpack(id, k, &f);
	if (f.mab > SNOWFLAKE_SI_MAB_MAX || f.mid > snowflake_si_mid_max(k) ||
		f.uin > snowflake_si_uin_max(k))
		abort();
	if (f.mab != id >> 13 || f.mid != ((id >> k) & snowflake_si_mid_max(k)) ||
		f.uin != (id & snowflake_si_uin_max(k)))
		abort();
	if (snowflake_si_pack(&f, k) != id)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char		text[SNOWFLAKE_SI_TEXT_MAX + 1];
	uint64_t	out = 0;
	size_t		bad = (size_t) -1;
	size_t		i = 0;
	size_t		end = size;
	size_t		first_bad;
	size_t		z;
	size_t		ndig;
	int			too_big;
	uid_status	st;

	st = snowflake_si_decode((const char *) data, size, &out, &bad);

	/* what the input is, independently of the decoder */
	while (i < end && c_space(data[i]))
		i++;
	while (end > i && c_space(data[end - 1]))
		end--;
	first_bad = end;
	for (size_t j = i; j < end; j++)
		if (!c_digit(data[j]))
		{
			first_bad = j;
			break;
		}
	z = i;
	while (end - z > 1 && data[z] == '0')
		z++;
	ndig = end - z;
	too_big = ndig > SNOWFLAKE_SI_TEXT_MAX ||
		(ndig == SNOWFLAKE_SI_TEXT_MAX && memcmp(data + z, MAX_TEXT, ndig) > 0);

	switch (st)
	{
		case UID_OK:
			if (i == end || first_bad != end || too_big)
				abort();
			if (out > SNOWFLAKE_SI_MAX)
				abort();
			if ((size_t) snowflake_si_encode(out, text) != ndig ||
				memcmp(text, data + z, ndig) != 0 || text[ndig] != '\0')
				abort();
			break;
		case UID_OUT_OF_RANGE:
			if (i == end || first_bad != end || !too_big)
				abort();
			break;
		case UID_BAD_CHAR:
			if (i == end)
			{
				if (bad != size)
					abort();
			}
			else if (first_bad == end || bad != first_bad || c_digit(data[bad]))
				abort();
			break;
		default:
			abort();
	}

	if (size >= 8)
	{
		uint64_t	v = uid_load_be(data, 8) & SNOWFLAKE_SI_MAX;
		int			k = 1 + (size > 8 ? data[8] : data[0]) % 13;
		uint64_t	back = ~v;
		int			n;

		n = snowflake_si_encode(v, text);
		if (n < 1 || n > SNOWFLAKE_SI_TEXT_MAX || text[n] != '\0' ||
			(text[0] == '0' && n != 1))
			abort();
		for (int j = 0; j < n; j++)
			if (!c_digit((unsigned char) text[j]))
				abort();
		if (snowflake_si_decode(text, (size_t) n, &back, NULL) != UID_OK || back != v)
			abort();
		check_pack(v, k);
		if (st == UID_OK)
			check_pack(out, k);
	}

	if (size >= 16)
	{
		snowflake_si_fields f;
		int			k = 1 + data[8] % 13;

		f.mab = uid_load_be(data, 8);
		f.mid = (unsigned) uid_load_be(data + 8, 4);
		f.uin = (unsigned) uid_load_be(data + 12, 4);
		if (snowflake_si_pack(&f, k) !=
			(f.mab & SNOWFLAKE_SI_MAB_MAX) * 8192 +
			(uint64_t) (f.mid & ((1u << (13 - k)) - 1)) * (UINT64_C(1) << k) +
			(f.uin & ((1u << k) - 1)))
			abort();
	}
	return 0;
}
