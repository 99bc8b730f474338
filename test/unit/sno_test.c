/*
 * sno_test.c
 *		Unit tests of the sno codec (src/codec/sno_codec.c).
 *
 * Included by codec_test.c (see there); exposes test_sno().
 * The reference vectors are those of doc/formats.md, section "sno".
 */
#include <stdlib.h>

#include "harness.h"
#include "codec/sno_codec.h"

static const char sno_ref_alphabet[] = "23456789abcdefghijklmnopqrstuvwx";

/*
 * Reference encoder written straight from the spec, bit by bit:
 * char[i] = ALPHABET[(n >> (75 - 5*i)) & 31], n the 80-bit big-endian value.
 */
static void
sno_ref_encode(const uint8_t in[SNO_LEN], char out[SNO_TEXT_LEN])
{
	for (int i = 0; i < SNO_TEXT_LEN; i++)
	{
		unsigned	d = 0;

		for (int k = 5 * i; k < 5 * i + 5; k++)
			d = d << 1 | ((in[k / 8] >> (7 - k % 8)) & 1);
		out[i] = sno_ref_alphabet[d];
	}
}

/* Value of one text character, folding A-X, or -1. */
static int
sno_ref_digit(unsigned char c)
{
	const char *p;

	if (c >= 'A' && c <= 'X')
		c = (unsigned char) (c - 'A' + 'a');
	if (c == '\0' || (p = strchr(sno_ref_alphabet, c)) == NULL)
		return -1;
	return (int) (p - sno_ref_alphabet);
}

/* Reference decoder of 16 characters, bit by bit; returns the first bad offset or -1. */
static int
sno_ref_decode(const char *in, uint8_t out[SNO_LEN])
{
	memset(out, 0, SNO_LEN);
	for (int i = 0; i < SNO_TEXT_LEN; i++)
	{
		int			d = sno_ref_digit((unsigned char) in[i]);

		if (d < 0)
			return i;
		for (int b = 0; b < 5; b++)
			if (d & (16 >> b))
			{
				int			k = 5 * i + b;

				out[k / 8] |= (uint8_t) (0x80 >> (k % 8));
			}
	}
	return -1;
}

/* ---- (a) reference vectors ---- */

typedef struct sno_vector
{
	const char *hex;
	const char *text;
	sno_fields	f;
	int64_t		unix_ms;		/* epoch + units * 4 ms */
} sno_vector;

static void
test_sno_vectors(void)
{
	const sno_vector v[] = {
		{"00000000000000000000", "2222222222222222",
			{0, 0, 0, 0, 0},
		harness_unix_ms(2010, 1, 1, 0, 0, 0, 0)},
		{"4e6f2160a0ff9a0a1033", "brpk4q72xwf2m63l",
			{UINT64_C(168435953744), 0, 255, 39434, 4147},
		harness_unix_ms(2031, 5, 8, 23, 3, 34, 976)},
		{"ffffffffffffffffffff", "xxxxxxxxxxxxxxxx",
			{(UINT64_C(1) << 39) - 1, 1, 255, 65535, 65535},
		harness_unix_ms(2079, 9, 7, 15, 47, 35, 548)},
	};

	harness_ctx = "sno constants";
	CHECK_EQ_U64(SNO_LEN, 10);
	CHECK_EQ_U64(SNO_TEXT_LEN, 16);
	CHECK_EQ_U64(SNO_UNIT_MS, 4);
	CHECK_EQ_U64(SNO_EPOCH_UNIX_MS, harness_unix_ms(2010, 1, 1, 0, 0, 0, 0));
	CHECK_EQ_U64(SNO_EPOCH_UNIX_MS, INT64_C(1262304000) * 1000);
	CHECK_EQ_U64(SNO_UNITS_MAX, (UINT64_C(1) << 39) - 1);
	CHECK_EQ_U64(SNO_SEQ_MAX, 65535);

	harness_ctx = "sno reference vectors";
	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
	{
		uint8_t		bytes[SNO_LEN];
		uint8_t		out[SNO_LEN];
		char		text[SNO_TEXT_LEN];
		char		upper[SNO_TEXT_LEN];
		sno_fields	f;
		size_t		bad = 12345;

		harness_iter = i;
		if (!CHECK(harness_hex(v[i].hex, bytes, SNO_LEN)))
			continue;
		CHECK_EQ_U64(strlen(v[i].text), SNO_TEXT_LEN);

		/* bytes -> text, and the spec's own formula agrees */
		memset(text, '?', sizeof text);
		sno_encode(bytes, text);
		CHECK_MEM(text, v[i].text, SNO_TEXT_LEN);
		sno_ref_encode(bytes, text);
		CHECK_MEM(text, v[i].text, SNO_TEXT_LEN);

		/* text -> bytes */
		memset(out, 0x5A, sizeof out);
		CHECK_EQ_U64(sno_decode(v[i].text, SNO_TEXT_LEN, out, &bad), UID_OK);
		CHECK_MEM(out, bytes, SNO_LEN);
		CHECK_EQ_U64(bad, 12345);	/* untouched on success */

		/* upper-case text -> the same bytes */
		for (int k = 0; k < SNO_TEXT_LEN; k++)
			upper[k] = (char) ((v[i].text[k] >= 'a' && v[i].text[k] <= 'x')
							   ? v[i].text[k] - 'a' + 'A' : v[i].text[k]);
		memset(out, 0x5A, sizeof out);
		CHECK_EQ_U64(sno_decode(upper, SNO_TEXT_LEN, out, NULL), UID_OK);
		CHECK_MEM(out, bytes, SNO_LEN);

		/* bytes -> fields */
		memset(&f, 0x77, sizeof f);
		sno_unpack(bytes, &f);
		CHECK_EQ_U64(f.units, v[i].f.units);
		CHECK_EQ_U64(f.tick, v[i].f.tick);
		CHECK_EQ_U64(f.meta, v[i].f.meta);
		CHECK_EQ_U64(f.partition, v[i].f.partition);
		CHECK_EQ_U64(f.sequence, v[i].f.sequence);
		CHECK_EQ_U64(SNO_EPOCH_UNIX_MS + (int64_t) f.units * SNO_UNIT_MS,
					 v[i].unix_ms);

		/* fields -> bytes */
		memset(out, 0x5A, sizeof out);
		sno_pack(&v[i].f, out);
		CHECK_MEM(out, bytes, SNO_LEN);
	}

	/* one field at a time lands where the layout says */
	harness_ctx = "sno field placement";
	{
		sno_fields	f = {0, 0, 0, 0, 0};
		uint8_t		out[SNO_LEN];
		uint8_t		want[SNO_LEN];

		f.units = 1;
		sno_pack(&f, out);
		harness_hex("00000000020000000000", want, SNO_LEN);
		CHECK_MEM(out, want, SNO_LEN);
		f.units = 0;
		f.tick = 1;
		sno_pack(&f, out);
		harness_hex("00000000010000000000", want, SNO_LEN);
		CHECK_MEM(out, want, SNO_LEN);
		f.tick = 0;
		f.meta = 0xA5;
		sno_pack(&f, out);
		harness_hex("0000000000a500000000", want, SNO_LEN);
		CHECK_MEM(out, want, SNO_LEN);
		f.meta = 0;
		f.partition = 0x1234;
		sno_pack(&f, out);
		harness_hex("00000000000012340000", want, SNO_LEN);
		CHECK_MEM(out, want, SNO_LEN);
		f.partition = 0;
		f.sequence = 0xBEEF;
		sno_pack(&f, out);
		harness_hex("0000000000000000beef", want, SNO_LEN);
		CHECK_MEM(out, want, SNO_LEN);
		f.sequence = 0;
		f.units = SNO_UNITS_MAX;
		sno_pack(&f, out);
		harness_hex("fffffffffe0000000000", want, SNO_LEN);
		CHECK_MEM(out, want, SNO_LEN);
	}

	/* "excess bits are masked off" (sno_codec.h) */
	harness_ctx = "sno pack masks excess bits";
	{
		sno_fields	big = {UINT64_MAX, 0xFFFFFFFEu, 0x1FFu, 0x3FFFFu, 0x10001u};
		sno_fields	f;
		uint8_t		out[SNO_LEN];

		sno_pack(&big, out);
		sno_unpack(out, &f);
		CHECK_EQ_U64(f.units, SNO_UNITS_MAX);
		CHECK_EQ_U64(f.tick, 0);
		CHECK_EQ_U64(f.meta, 0xFF);
		CHECK_EQ_U64(f.partition, 0xFFFF);
		CHECK_EQ_U64(f.sequence, 1);
	}
	harness_ctx = NULL;
}

/* ---- (b) random round trips and order ---- */

#define SNO_RANDOM_N	1000000
#define SNO_ORDER_PAIRS	300000

static void
test_sno_random(void)
{
	harness_rng r = rng_seeded(0x5A0);

	harness_ctx = "sno random round trip";
	for (long i = 0; i < SNO_RANDOM_N; i++)
	{
		uint8_t		in[SNO_LEN];
		uint8_t		out[SNO_LEN];
		char		text[SNO_TEXT_LEN];
		char		ref[SNO_TEXT_LEN];
		sno_fields	f;
		size_t		bad = 0;

		harness_iter = (unsigned long long) i;
		rng_fill(&r, in, SNO_LEN);

		sno_encode(in, text);
		sno_ref_encode(in, ref);
		CHECK_MEM(text, ref, SNO_TEXT_LEN);
		CHECK_EQ_U64(sno_decode(text, SNO_TEXT_LEN, out, &bad), UID_OK);
		CHECK_MEM(out, in, SNO_LEN);

		sno_unpack(in, &f);
		CHECK(f.units <= SNO_UNITS_MAX && f.tick <= 1 && f.meta <= 255 &&
			  f.partition <= 0xFFFF && f.sequence <= 0xFFFF);
		memset(out, 0x5A, sizeof out);
		sno_pack(&f, out);
		CHECK_MEM(out, in, SNO_LEN);
	}

	/* fields -> bytes -> fields, over in-range random fields */
	harness_ctx = "sno random fields";
	for (long i = 0; i < 100000; i++)
	{
		sno_fields	f;
		sno_fields	g;
		uint8_t		b[SNO_LEN];
		uint64_t	x = rng_next(&r);
		uint64_t	y = rng_next(&r);

		harness_iter = (unsigned long long) i;
		f.units = x & SNO_UNITS_MAX;
		f.tick = (unsigned) (x >> 63);
		f.meta = (unsigned) (y & 0xFF);
		f.partition = (unsigned) ((y >> 8) & 0xFFFF);
		f.sequence = (unsigned) ((y >> 24) & 0xFFFF);
		sno_pack(&f, b);
		sno_unpack(b, &g);
		CHECK(f.units == g.units && f.tick == g.tick && f.meta == g.meta &&
			  f.partition == g.partition && f.sequence == g.sequence);
	}

	/*
	 * memcmp order of the bytes = strcmp order of the text.  Fully random
	 * pairs almost always differ in the first byte, so also test pairs that
	 * share a random-length prefix, pairs one bit apart, and n vs n+1.
	 */
	harness_ctx = "sno order";
	for (long i = 0; i < SNO_ORDER_PAIRS; i++)
	{
		uint8_t		a[SNO_LEN];
		uint8_t		b[SNO_LEN];
		char		ta[SNO_TEXT_LEN + 1];
		char		tb[SNO_TEXT_LEN + 1];
		int			kind = (int) (i % 4);

		harness_iter = (unsigned long long) i;
		rng_fill(&r, a, SNO_LEN);
		if (kind == 0)
			rng_fill(&r, b, SNO_LEN);
		else if (kind == 1)
		{
			size_t		prefix = (size_t) rng_below(&r, SNO_LEN + 1);

			memcpy(b, a, prefix);
			rng_fill(&r, b + prefix, SNO_LEN - prefix);
		}
		else if (kind == 2)
		{
			int			bit = (int) rng_below(&r, 8 * SNO_LEN);

			memcpy(b, a, SNO_LEN);
			b[bit / 8] ^= (uint8_t) (1 << (bit % 8));
		}
		else
		{
			/* b = a + 1 as an 80-bit number (wrapping at the top) */
			memcpy(b, a, SNO_LEN);
			for (int k = SNO_LEN - 1; k >= 0 && ++b[k] == 0; k--)
				;
		}
		sno_encode(a, ta);
		sno_encode(b, tb);
		ta[SNO_TEXT_LEN] = tb[SNO_TEXT_LEN] = '\0';
		CHECK_EQ_U64(harness_sgn(strcmp(ta, tb)) + 1, harness_sgn(memcmp(a, b, SNO_LEN)) + 1);
	}
	harness_ctx = NULL;
}

/* ---- (c) case folding ---- */

static void
test_sno_case(void)
{
	harness_rng r = rng_seeded(0xCA5E);

	harness_ctx = "sno upper/mixed case";
	for (long i = 0; i < 100000; i++)
	{
		uint8_t		in[SNO_LEN];
		uint8_t		out[SNO_LEN];
		char		text[SNO_TEXT_LEN];
		char		upper[SNO_TEXT_LEN];
		char		mixed[SNO_TEXT_LEN];
		uint64_t	coin = rng_next(&r);

		harness_iter = (unsigned long long) i;
		rng_fill(&r, in, SNO_LEN);
		sno_encode(in, text);
		for (int k = 0; k < SNO_TEXT_LEN; k++)
		{
			char		c = text[k];
			char		u = (char) ((c >= 'a' && c <= 'x') ? c - 'a' + 'A' : c);

			upper[k] = u;
			mixed[k] = (coin >> k) & 1 ? u : c;
		}
		memset(out, 0, sizeof out);
		CHECK_EQ_U64(sno_decode(upper, SNO_TEXT_LEN, out, NULL), UID_OK);
		CHECK_MEM(out, in, SNO_LEN);
		memset(out, 0, sizeof out);
		CHECK_EQ_U64(sno_decode(mixed, SNO_TEXT_LEN, out, NULL), UID_OK);
		CHECK_MEM(out, in, SNO_LEN);
	}

	/* each letter A-X, at each position, decodes as its lower-case twin */
	harness_ctx = "sno each upper-case letter";
	for (int pos = 0; pos < SNO_TEXT_LEN; pos++)
		for (char c = 'a'; c <= 'x'; c++)
		{
			char		lo[SNO_TEXT_LEN + 1] = "2222222222222222";
			char		up[SNO_TEXT_LEN + 1] = "2222222222222222";
			uint8_t		olo[SNO_LEN];
			uint8_t		oup[SNO_LEN];

			harness_iter = (unsigned long long) (pos * 256 + c);
			lo[pos] = c;
			up[pos] = (char) (c - 'a' + 'A');
			CHECK_EQ_U64(sno_decode(lo, SNO_TEXT_LEN, olo, NULL), UID_OK);
			CHECK_EQ_U64(sno_decode(up, SNO_TEXT_LEN, oup, NULL), UID_OK);
			CHECK_MEM(oup, olo, SNO_LEN);
		}

	/* the output of encode is always lower-case, whatever the input case */
	harness_ctx = "sno encode is lower-case";
	{
		uint8_t		out[SNO_LEN];
		char		text[SNO_TEXT_LEN];

		CHECK_EQ_U64(sno_decode("BRPK4Q72XWF2M63L", SNO_TEXT_LEN, out, NULL), UID_OK);
		sno_encode(out, text);
		CHECK_MEM(text, "brpk4q72xwf2m63l", SNO_TEXT_LEN);
	}
	harness_ctx = NULL;
}

/* ---- (d) rejections ---- */

static void
test_sno_reject(void)
{
	harness_rng r = rng_seeded(0xBAD);
	static char longbuf[4096];
	const char *good = "brpk4q72xwf2m63l";
	uint8_t		out[SNO_LEN];
	size_t		bad;

	/* wrong lengths, with otherwise valid characters */
	harness_ctx = "sno bad length";
	memset(longbuf, 'a', sizeof longbuf);
	{
		const size_t lens[] = {0, 1, 8, 10, 15, 17, 20, 32, 100, 4096};

		for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++)
		{
			harness_iter = lens[i];
			bad = 999;
			CHECK_EQ_U64(sno_decode(longbuf, lens[i], out, &bad), UID_BAD_LENGTH);
		}
		for (size_t len = 0; len <= 64; len++)
		{
			harness_iter = len;
			if (len != SNO_TEXT_LEN)
				CHECK_EQ_U64(sno_decode(longbuf, len, out, NULL), UID_BAD_LENGTH);
			else
				CHECK_EQ_U64(sno_decode(longbuf, len, out, NULL), UID_OK);
		}
		/* the reference text with one character too few / too many */
		CHECK_EQ_U64(sno_decode(good, 15, out, &bad), UID_BAD_LENGTH);
		CHECK_EQ_U64(sno_decode("brpk4q72xwf2m63l2", 17, out, &bad), UID_BAD_LENGTH);
		/* a huge length is rejected before anything is read */
		CHECK_EQ_U64(sno_decode(good, SIZE_MAX, out, &bad), UID_BAD_LENGTH);
		/* length is checked before characters */
		CHECK_EQ_U64(sno_decode("!!!!!!!!!!!!!!!", 15, out, &bad), UID_BAD_LENGTH);
	}

	/* a named set of bad characters at every position */
	harness_ctx = "sno bad char at each position";
	{
		const unsigned char bads[] = {
			'0', '1', 'y', 'z', 'Y', 'Z', '!', ' ', '\0', 0x80, 0xFF,
			'/', ':', '@', '[', '`', '{', '-', '_', '\n', 0x7F, 0xC3,
		};

		for (int pos = 0; pos < SNO_TEXT_LEN; pos++)
			for (size_t j = 0; j < sizeof bads; j++)
			{
				char		t[SNO_TEXT_LEN];

				harness_iter = (unsigned long long) (pos * 256 + bads[j]);
				memcpy(t, good, SNO_TEXT_LEN);
				t[pos] = (char) bads[j];
				bad = 999;
				CHECK_EQ_U64(sno_decode(t, SNO_TEXT_LEN, out, &bad), UID_BAD_CHAR);
				CHECK_EQ_U64(bad, pos);
				/* bad_pos may be NULL */
				CHECK_EQ_U64(sno_decode(t, SNO_TEXT_LEN, out, NULL), UID_BAD_CHAR);
			}
	}

	/* with two bad characters, bad_pos names the first */
	harness_ctx = "sno first of two bad chars";
	for (int i = 0; i < SNO_TEXT_LEN; i++)
		for (int j = i + 1; j < SNO_TEXT_LEN; j++)
		{
			char		t[SNO_TEXT_LEN];

			harness_iter = (unsigned long long) (i * 16 + j);
			memcpy(t, good, SNO_TEXT_LEN);
			t[i] = 'z';
			t[j] = '0';
			bad = 999;
			CHECK_EQ_U64(sno_decode(t, SNO_TEXT_LEN, out, &bad), UID_BAD_CHAR);
			CHECK_EQ_U64(bad, i);
		}

	/*
	 * Exhaustive over one position: of the 256 byte values exactly the 32
	 * alphabet characters and the 24 letters A-X are accepted.  Done at
	 * every position, on a random valid background, against the bit-by-bit
	 * reference decoder.
	 */
	harness_ctx = "sno all 256 bytes at each position";
	for (int pos = 0; pos < SNO_TEXT_LEN; pos++)
	{
		uint8_t		bg[SNO_LEN];
		char		base[SNO_TEXT_LEN];
		int			accepted = 0;

		rng_fill(&r, bg, SNO_LEN);
		sno_encode(bg, base);
		for (int c = 0; c < 256; c++)
		{
			char		t[SNO_TEXT_LEN];
			uint8_t		want[SNO_LEN];
			int			expect_ok = (c >= '2' && c <= '9') ||
				(c >= 'a' && c <= 'x') || (c >= 'A' && c <= 'X');
			uid_status	st;

			harness_iter = (unsigned long long) (pos * 256 + c);
			memcpy(t, base, SNO_TEXT_LEN);
			t[pos] = (char) c;
			CHECK_EQ_U64(sno_ref_decode(t, want), expect_ok ? -1 : pos);
			bad = 999;
			memset(out, 0x5A, sizeof out);
			st = sno_decode(t, SNO_TEXT_LEN, out, &bad);
			if (expect_ok)
			{
				accepted++;
				CHECK_EQ_U64(st, UID_OK);
				CHECK_MEM(out, want, SNO_LEN);
			}
			else
			{
				CHECK_EQ_U64(st, UID_BAD_CHAR);
				CHECK_EQ_U64(bad, pos);
			}
		}
		CHECK_EQ_U64(accepted, 32 + 24);
	}

	/* random garbage: decode agrees with the reference decoder */
	harness_ctx = "sno random garbage";
	for (long i = 0; i < 200000; i++)
	{
		char		t[SNO_TEXT_LEN];
		uint8_t		want[SNO_LEN];
		int			refbad;
		uid_status	st;

		harness_iter = (unsigned long long) i;
		/* mostly valid characters, so that bad ones land at every offset */
		for (int k = 0; k < SNO_TEXT_LEN; k++)
			t[k] = rng_below(&r, 24) == 0 ? (char) rng_below(&r, 256)
				: sno_ref_alphabet[rng_below(&r, 32)];
		refbad = sno_ref_decode(t, want);
		bad = 999;
		st = sno_decode(t, SNO_TEXT_LEN, out, &bad);
		if (refbad < 0)
		{
			CHECK_EQ_U64(st, UID_OK);
			CHECK_MEM(out, want, SNO_LEN);
		}
		else
		{
			CHECK_EQ_U64(st, UID_BAD_CHAR);
			CHECK_EQ_U64(bad, refbad);
		}
	}
	harness_ctx = NULL;
}

void		test_sno(void);

void
test_sno(void)
{
	test_sno_vectors();
	test_sno_random();
	test_sno_case();
	test_sno_reject();
}
