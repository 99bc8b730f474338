/*
 * uid60_test.c
 *		Unit tests of the uid60 codec (src/codec/uid60_codec.c and the inline
 *		display function of src/codec/uid60_codec.h).
 *
 * Included by codec_test.c (see there); exposes test_uid60().
 * The reference vector is that of doc/formats.md, section "uid60"
 * (abyss-club/uexky __tests__/uid/index.test.js); the others were computed
 * with Python's integers and strings from the same section.  The codec is
 * also checked against two references of test/unit/uid60_ref.h that share
 * no code with it: one bit by bit, one the original's hex-digit method.
 */
#include <stdlib.h>

#include "harness.h"
#include "codec/uid60_codec.h"
#include "uid60_ref.h"

#define U60_RANDOM_N		1000000
#define U60_ORDER_PAIRS		300000

static int
u60_fields_eq(const uid60_fields *a, const uid60_fields *b)
{
	return u60_fields_cmp(a, b) == 0;
}

/* In-range random fields, now and then a field at its minimum or maximum. */
static void
u60_random_fields(harness_rng *r, uid60_fields *f)
{
	f->ts = rng_field(r, UID60_TS_MAX);
	f->worker = (unsigned) rng_field(r, UID60_WORKER_MAX);
	f->seq = (unsigned) rng_field(r, UID60_SEQ_MAX);
	f->rand = (unsigned) rng_field(r, UID60_RAND_MAX);
}

/* One value through every function and reference. */
static void
u60_check_value(uint64_t n)
{
	char		text[UID60_TEXT_LEN + 1];
	char		ref[UID60_TEXT_LEN + 1];
	char		ref_hex[UID60_TEXT_LEN + 1];
	uid60_fields g;
	uid60_fields want;
	uint64_t	out = ~n;
	size_t		bad = 777;

	memset(text, '?', sizeof text);
	uid60_encode(n, text);
	CHECK_EQ_U64((unsigned char) text[UID60_TEXT_LEN], '?');	/* no terminator */
	u60_ref_encode(n, ref);
	u60_ref_encode_hex(n, ref_hex);
	CHECK_MEM(text, ref, UID60_TEXT_LEN);
	CHECK_MEM(text, ref_hex, UID60_TEXT_LEN);
	CHECK_EQ_U64(uid60_decode(text, UID60_TEXT_LEN, &out, &bad), UID_OK);
	CHECK_EQ_U64(out, n);
	CHECK_EQ_U64(bad, 777);		/* untouched on success */
	CHECK_EQ_U64(uid60_display(n), u60_ref_display(n));
	CHECK_EQ_U64(uid60_display(uid60_display(n)), n);

	memset(&g, 0x5A, sizeof g);
	uid60_unpack(n, &g);
	u60_ref_unpack(n, &want);
	CHECK(u60_fields_eq(&g, &want));
	CHECK_EQ_U64(uid60_pack(&g), n);
}

/* ---- (a) constants and reference vectors ---- */

typedef struct u60_vector
{
	uid60_fields f;
	uint64_t	n;
	const char *text;
} u60_vector;

static void
test_u60_vectors(void)
{
	const u60_vector v[] = {
		/* doc/formats.md: storage 800000000000000 (hex) displays as AAAAAQAAAA */
		{{UINT64_C(0x80000000), 0, 0, 0}, UINT64_C(0x800000000000000), "AAAAAQAAAA"},
		{{0, 0, 0, 0}, 0, "AAAAAAAAAA"},
		{{UID60_TS_MAX, 511, 1023, 511}, UINT64_C(0xfffffffffffffff), "__________"},
		{{1, 0, 0, 0}, UINT64_C(0x10000000), "gAAAAAAAAA"},
		{{0, 0, 0, 1}, 1, "AAAAAAAAAB"},
		{{0, 1, 0, 0}, UINT64_C(0x80000), "AAAAAACAAA"},
		{{0, 0, 1, 0}, UINT64_C(0x200), "AAAAAAAAIA"},
		/* 2024-01-01T00:00:00Z is second 184204800 */
		{{184204800, 300, 777, 123}, UINT64_C(49447099643073147), "AH1fUJZhJ7"},
		{{184204801, 300, 777, 123}, UINT64_C(49447099911508603), "gH1fUJZhJ7"},
		{{184204800, 511, 1023, 511}, UINT64_C(49447099753824255), "AH1fUP____"},
		{{123456789, 42, 5, 400}, UINT64_C(33140179473533840), "qLPa4BUAuQ"},
	};

	harness_ctx = "uid60 constants";
	CHECK_EQ_U64(UID60_TEXT_LEN, 10);
	CHECK_EQ_U64(UID60_MAX, UINT64_C(1152921504606846975));
	CHECK_EQ_U64(UID60_TS_MAX, UINT64_C(4294967295));
	CHECK_EQ_U64(UID60_WORKER_MAX, 511);
	CHECK_EQ_U64(UID60_SEQ_MAX, 1023);
	CHECK_EQ_U64(UID60_RAND_MAX, 511);
	CHECK_EQ_U64(UID60_LOW_BITS, 28);
	CHECK_EQ_U64(UID60_LOW_MASK, UINT64_C(0xFFFFFFF));
	CHECK_EQ_U64(UID60_EPOCH_UNIX_S * 1000, harness_unix_ms(2018, 3, 1, 0, 0, 0, 0));
	/* 32 bits of seconds last "until 2154": the last one is 2154-04-07 06:28:15Z */
	CHECK_EQ_U64((UID60_EPOCH_UNIX_S + (int64_t) UID60_TS_MAX) * 1000,
				 harness_unix_ms(2154, 4, 7, 6, 28, 15, 0));
	/* the fields fill the 60 bits exactly */
	CHECK_EQ_U64(u60_ref_pack(UID60_TS_MAX, 511, 1023, 511), UID60_MAX);

	harness_ctx = "uid60 reference vectors";
	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
	{
		char		text[UID60_TEXT_LEN];
		uid60_fields g;
		uint64_t	out = 0;

		harness_iter = i;
		CHECK_EQ_U64(uid60_pack(&v[i].f), v[i].n);
		CHECK_EQ_U64(u60_ref_pack(v[i].f.ts, v[i].f.worker, v[i].f.seq, v[i].f.rand), v[i].n);
		uid60_unpack(v[i].n, &g);
		CHECK(u60_fields_eq(&g, &v[i].f));
		uid60_encode(v[i].n, text);
		CHECK_MEM(text, v[i].text, UID60_TEXT_LEN);
		CHECK_EQ_U64(uid60_decode(v[i].text, UID60_TEXT_LEN, &out, NULL), UID_OK);
		CHECK_EQ_U64(out, v[i].n);
		u60_check_value(v[i].n);
	}

	/*
	 * A 32-bit bit reversal of the timestamp, not a byte reversal: timestamp
	 * bit i is display bit 59 - i, so it lands in character (i / 6) at bit
	 * 5 - i % 6; the low 28 bits stay where they are.
	 */
	harness_ctx = "uid60 single bits";
	for (int b = 0; b < 60; b++)
	{
		uint64_t	n = UINT64_C(1) << b;
		int			d = b >= 28 ? 59 - (b - 28) : b;	/* display bit */
		char		text[UID60_TEXT_LEN];

		harness_iter = (unsigned long long) b;
		CHECK_EQ_U64(uid60_display(n), UINT64_C(1) << d);
		uid60_encode(n, text);
		for (int g = 0; g < UID60_TEXT_LEN; g++)
		{
			int			want = g == (59 - d) / 6 ? 1 << (5 - (59 - d) % 6) : 0;

			CHECK_EQ_U64(u60_ref_char((unsigned char) text[g]), want);
		}
		u60_check_value(n);
	}
	/* the display differs from a byte reversal of the timestamp */
	CHECK(uid60_display(UINT64_C(1) << 28) != (uint64_t) __builtin_bswap32(1) << 28);

	/* every bit of n lands in one field bit */
	harness_ctx = "uid60 field bit positions";
	for (int b = 0; b < 64; b++)
	{
		uid60_fields g;
		uid60_fields want;

		harness_iter = (unsigned long long) b;
		memset(&g, 0x5A, sizeof g);
		uid60_unpack(UINT64_C(1) << b, &g);
		u60_ref_unpack(UINT64_C(1) << b, &want);
		CHECK(u60_fields_eq(&g, &want));
		if (b >= 60)			/* above the format: ignored */
			CHECK(g.ts == 0 && g.worker == 0 && g.seq == 0 && g.rand == 0);
	}
	harness_ctx = NULL;
}

/* ---- (b) random round trips ---- */

static void
test_u60_random(void)
{
	harness_rng r = rng_seeded(0x6060);

	harness_ctx = "uid60 random fields round trip";
	for (long i = 0; i < U60_RANDOM_N / 4; i++)
	{
		uid60_fields f;
		uid60_fields g;
		uint64_t	n;

		harness_iter = (unsigned long long) i;
		u60_random_fields(&r, &f);
		n = uid60_pack(&f);
		CHECK_EQ_U64(n, u60_ref_pack(f.ts, f.worker, f.seq, f.rand));
		CHECK(n <= UID60_MAX);
		memset(&g, 0x5A, sizeof g);
		uid60_unpack(n, &g);
		CHECK(u60_fields_eq(&g, &f));
		u60_check_value(n);
	}

	harness_ctx = "uid60 random n round trip";
	for (long i = 0; i < U60_RANDOM_N; i++)
	{
		harness_iter = (unsigned long long) i;
		u60_check_value(rng_next(&r) & UID60_MAX);
	}

	/* every string of 10 alphabet characters is an ID, and encodes back */
	harness_ctx = "uid60 random text round trip";
	for (long i = 0; i < U60_RANDOM_N / 4; i++)
	{
		char		t[UID60_TEXT_LEN];
		char		again[UID60_TEXT_LEN];
		uint64_t	out = 0;
		uint64_t	want = 0;
		size_t		refbad = 0;

		harness_iter = (unsigned long long) i;
		for (int k = 0; k < UID60_TEXT_LEN; k++)
			t[k] = u60_ref_alphabet[rng_below(&r, 64)];
		CHECK_EQ_U64(u60_ref_decode(t, UID60_TEXT_LEN, &want, &refbad), UID_OK);
		if (!CHECK_EQ_U64(uid60_decode(t, UID60_TEXT_LEN, &out, NULL), UID_OK))
			continue;
		CHECK_EQ_U64(out, want);
		CHECK(out <= UID60_MAX);
		uid60_encode(out, again);
		CHECK_MEM(again, t, UID60_TEXT_LEN);
	}

	harness_ctx = "uid60 display is its own inverse";
	for (long i = 0; i < U60_RANDOM_N / 10; i++)
	{
		uint64_t	x = rng_next(&r);

		harness_iter = (unsigned long long) i;
		CHECK_EQ_U64(uid60_display(uid60_display(x)), x & UID60_MAX);
		CHECK(uid60_display(x) <= UID60_MAX);
	}
	harness_ctx = NULL;
}

/* ---- (c) order ---- */

static void
test_u60_order(void)
{
	harness_rng r = rng_seeded(0x0DE6);

	/*
	 * Integer order = (ts, worker, seq, rand) order.  Fully random pairs
	 * nearly always differ in ts, so most kinds tie the leading fields.
	 */
	harness_ctx = "uid60 integer order";
	for (long i = 0; i < U60_ORDER_PAIRS; i++)
	{
		uid60_fields a;
		uid60_fields b;

		harness_iter = (unsigned long long) i;
		u60_random_fields(&r, &a);
		u60_random_fields(&r, &b);
		switch (i % 6)
		{
			case 0:				/* fully random */
				break;
			case 1:				/* same second */
				b.ts = a.ts;
				break;
			case 2:				/* same second and worker */
				b.ts = a.ts;
				b.worker = a.worker;
				break;
			case 3:				/* only rand may differ */
				b.ts = a.ts;
				b.worker = a.worker;
				b.seq = a.seq;
				break;
			case 4:				/* neighbouring seconds */
				b.ts = a.ts < UID60_TS_MAX ? a.ts + 1 : a.ts - 1;
				break;
			default:			/* equal */
				b = a;
				break;
		}
		CHECK_EQ_U64(harness_cmp_u64(uid60_pack(&a), uid60_pack(&b)) + 1,
					 u60_fields_cmp(&a, &b) + 1);
	}

	/*
	 * Consecutive seconds: bit 0 of the timestamp is the top bit of the
	 * display, so the first character always changes and text order is not
	 * time order (as the original means: the text looks random).
	 */
	harness_ctx = "uid60 consecutive seconds";
	{
		unsigned long long text_down = 0;
		uint64_t	base = rng_next(&r) & UID60_TS_MAX >> 1;

		for (uint64_t t = base; t < base + 100000; t++)
		{
			uid60_fields a = {t, 3, 9, 27};
			uid60_fields b = {t + 1, 3, 9, 27};
			char		ta[UID60_TEXT_LEN];
			char		tb[UID60_TEXT_LEN];

			harness_iter = (unsigned long long) (t - base);
			CHECK(uid60_pack(&a) < uid60_pack(&b));
			uid60_encode(uid60_pack(&a), ta);
			uid60_encode(uid60_pack(&b), tb);
			CHECK(ta[0] != tb[0]);
			CHECK_MEM(ta + 6, tb + 6, 4);	/* the low 24 bits are the same */
			if (memcmp(ta, tb, UID60_TEXT_LEN) > 0)
				text_down++;
		}
		CHECK(text_down > 40000);
	}
	harness_ctx = NULL;
}

/* ---- (d) decode: rejections ---- */

static void
test_u60_reject(void)
{
	harness_rng r = rng_seeded(0xBAD6);
	static char longbuf[4096];
	const char *good = "AH1fUJZhJ7";
	uint64_t	out;
	size_t		bad;

	harness_ctx = "uid60 bad length";
	memset(longbuf, 'A', sizeof longbuf);
	for (size_t len = 0; len <= 40; len++)
	{
		harness_iter = len;
		bad = 999;
		out = 0x5A5A;
		if (len == UID60_TEXT_LEN)
		{
			CHECK_EQ_U64(uid60_decode(longbuf, len, &out, &bad), UID_OK);
			CHECK_EQ_U64(out, 0);
		}
		else
		{
			CHECK_EQ_U64(uid60_decode(longbuf, len, &out, &bad), UID_BAD_LENGTH);
			/* length is checked before the characters */
			CHECK_EQ_U64(uid60_decode("!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!", len, &out, &bad),
						 UID_BAD_LENGTH);
			CHECK_EQ_U64(out, 0x5A5A);
		}
		CHECK_EQ_U64(bad, 999);
	}
	CHECK_EQ_U64(uid60_decode(longbuf, sizeof longbuf, &out, &bad), UID_BAD_LENGTH);
	CHECK_EQ_U64(uid60_decode(good, 9, &out, &bad), UID_BAD_LENGTH);
	CHECK_EQ_U64(uid60_decode("AH1fUJZhJ7A", 11, &out, &bad), UID_BAD_LENGTH);
	/* a huge length is rejected before anything is read */
	CHECK_EQ_U64(uid60_decode(good, SIZE_MAX, &out, &bad), UID_BAD_LENGTH);

	/*
	 * Exhaustive over one position: of the 256 byte values exactly the 64 of
	 * the alphabet pass, and each puts its value in its own 6 bits of the
	 * display value.  At every position, on a random background.
	 */
	harness_ctx = "uid60 all 256 bytes at each position";
	for (int pos = 0; pos < UID60_TEXT_LEN; pos++)
	{
		char		base[UID60_TEXT_LEN + 1];
		uint64_t	bg = rng_next(&r) & UID60_MAX;
		int			shift = 54 - 6 * pos;
		uint64_t	group = UINT64_C(63) << shift;
		int			ok = 0;

		u60_ref_encode(bg, base);
		for (int c = 0; c < 256; c++)
		{
			char		t[UID60_TEXT_LEN];
			int			v = u60_ref_char((unsigned char) c);
			uint64_t	want = 0;
			size_t		refbad = 0;
			uid_status	st;

			harness_iter = (unsigned long long) (pos * 256 + c);
			memcpy(t, base, UID60_TEXT_LEN);
			t[pos] = (char) c;
			bad = 999;
			out = 0x5A5A;
			st = uid60_decode(t, UID60_TEXT_LEN, &out, &bad);
			CHECK_EQ_U64(st, u60_ref_decode(t, UID60_TEXT_LEN, &want, &refbad));
			if (v >= 0)
			{
				uint64_t	m;

				ok++;
				CHECK_EQ_U64(st, UID_OK);
				CHECK_EQ_U64(out, want);
				m = u60_ref_display(out);
				CHECK_EQ_U64((m & group) >> shift, (uint64_t) v);
				CHECK_EQ_U64(m & ~group, u60_ref_display(bg) & ~group);
				CHECK_EQ_U64(bad, 999);
			}
			else
			{
				CHECK_EQ_U64(st, UID_BAD_CHAR);
				CHECK_EQ_U64(bad, pos);
				CHECK_EQ_U64(out, 0x5A5A);
				/* bad_pos may be NULL */
				CHECK_EQ_U64(uid60_decode(t, UID60_TEXT_LEN, &out, NULL), UID_BAD_CHAR);
			}
		}
		harness_iter = (unsigned long long) pos;
		CHECK_EQ_U64(ok, 64);
	}

	/* with two bad characters, bad_pos names the first */
	harness_ctx = "uid60 first of two bad chars";
	for (int i = 0; i < UID60_TEXT_LEN; i++)
		for (int j = i + 1; j < UID60_TEXT_LEN; j++)
		{
			char		t[UID60_TEXT_LEN];

			harness_iter = (unsigned long long) (i * 16 + j);
			memcpy(t, good, UID60_TEXT_LEN);
			t[i] = '+';
			t[j] = '/';
			bad = 999;
			CHECK_EQ_U64(uid60_decode(t, UID60_TEXT_LEN, &out, &bad), UID_BAD_CHAR);
			CHECK_EQ_U64(bad, i);
		}

	/*
	 * Not base64 with '+' and '/', no padding, no white space; and case
	 * matters: a letter in the other case is another ID.
	 */
	harness_ctx = "uid60 named rejections and case";
	{
		const char *const rejected[] = {
			"AH1fUJZhJ+", "AH1fUJZhJ/", "AH1fUJZh==", " H1fUJZhJ7", "AH1fUJZhJ\n",
			"AH1fUJ.hJ7", "AH1f\xc3\xa9JZhJ", "AH1fUJZhJ\x7f",
		};
		uint64_t	lower = 0;
		uint64_t	upper = 0;

		for (size_t i = 0; i < sizeof rejected / sizeof rejected[0]; i++)
		{
			harness_iter = i;
			CHECK_EQ_U64(uid60_decode(rejected[i], UID60_TEXT_LEN, &out, NULL), UID_BAD_CHAR);
		}
		CHECK_EQ_U64(uid60_decode("aaaaaaaaaa", 10, &lower, NULL), UID_OK);
		CHECK_EQ_U64(uid60_decode("AAAAAAAAAA", 10, &upper, NULL), UID_OK);
		CHECK(lower != upper);
		CHECK_EQ_U64(upper, 0);
		CHECK_EQ_U64(uid60_display(lower), UINT64_C(0x69A69A69A69A69A));	/* 26 = 011010 ten times */
	}

	/* random garbage: decode agrees with the reference */
	harness_ctx = "uid60 random garbage";
	{
		unsigned long long seen[UID_OUT_OF_RANGE + 1] = {0};

		for (long i = 0; i < 200000; i++)
		{
			char		t[UID60_TEXT_LEN];
			uint64_t	want = 0;
			size_t		refbad = 0;
			uid_status	refst;
			uid_status	st;

			harness_iter = (unsigned long long) i;
			for (int k = 0; k < UID60_TEXT_LEN; k++)
				t[k] = rng_below(&r, 16) == 0 ? (char) rng_below(&r, 256)
					: u60_ref_alphabet[rng_below(&r, 64)];
			refst = u60_ref_decode(t, UID60_TEXT_LEN, &want, &refbad);
			bad = 999;
			out = 0x5A5A;
			st = uid60_decode(t, UID60_TEXT_LEN, &out, &bad);
			seen[refst]++;
			if (!CHECK_EQ_U64(st, refst))
				continue;
			if (st == UID_OK)
				CHECK_EQ_U64(out, want);
			else
				CHECK_EQ_U64(bad, refbad);
		}
		CHECK(seen[UID_OK] > 10000);
		CHECK(seen[UID_BAD_CHAR] > 10000);
	}
	harness_ctx = NULL;
}

/* ---- (e) pack masks out-of-range fields ---- */

static void
test_u60_mask(void)
{
	harness_rng r = rng_seeded(0x3A56);

	harness_ctx = "uid60 pack masks excess bits";
	{
		uid60_fields ones = {UINT64_MAX, UINT32_MAX, UINT32_MAX, UINT32_MAX};
		uid60_fields just_over = {UID60_TS_MAX + 1, 512, 1024, 512};

		CHECK_EQ_U64(uid60_pack(&ones), UID60_MAX);
		CHECK_EQ_U64(uid60_pack(&just_over), 0);
	}
	for (long i = 0; i < 100000; i++)
	{
		uid60_fields big;
		uid60_fields in_range;
		uint64_t	n;

		harness_iter = (unsigned long long) i;
		big.ts = rng_next(&r);
		big.worker = (unsigned) rng_next(&r);
		big.seq = (unsigned) rng_next(&r);
		big.rand = (unsigned) rng_next(&r);
		in_range.ts = big.ts & UID60_TS_MAX;
		in_range.worker = big.worker & 511;
		in_range.seq = big.seq & 1023;
		in_range.rand = big.rand & 511;
		n = uid60_pack(&big);
		CHECK_EQ_U64(n, uid60_pack(&in_range));
		CHECK_EQ_U64(n, u60_ref_pack(big.ts, big.worker, big.seq, big.rand));
		CHECK(n <= UID60_MAX);
	}
	harness_ctx = NULL;
}

void		test_uid60(void);

void
test_uid60(void)
{
	test_u60_vectors();
	test_u60_random();
	test_u60_order();
	test_u60_reject();
	test_u60_mask();
}
