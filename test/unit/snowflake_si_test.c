/*
 * snowflake_si_test.c
 *		Unit tests of the Snowflake-SI codec (src/codec/snowflake_si_codec.c).
 *
 * Included by codec_test.c (see there); exposes test_snowflake_si().
 * The reference vectors are those of doc/formats.md, section
 * "snowflake_si".
 */
#include <ctype.h>
#include <stdlib.h>

#include "harness.h"
#include "codec/snowflake_si_codec.h"

#define SSI_MAX_TEXT	"9007199254740991"	/* 2^53 - 1 */

/* C isspace() in the "C" locale (the test never calls setlocale). */
static int
ssi_ref_space(unsigned char c)
{
	return isspace(c) != 0;
}

/*
 * Reference decoder written from the spec with strings rather than
 * arithmetic: trim C white space, require digits only, strip leading zeros,
 * compare the digit string with "9007199254740991" by length and then
 * lexicographically, and only then convert with strtoull.
 */
static uid_status
ssi_ref_decode(const char *in, size_t len, uint64_t *out, size_t *bad_pos)
{
	size_t		i = 0;
	size_t		end = len;
	size_t		n;
	char		buf[SNOWFLAKE_SI_TEXT_MAX + 1];

	while (i < end && ssi_ref_space((unsigned char) in[i]))
		i++;
	while (end > i && ssi_ref_space((unsigned char) in[end - 1]))
		end--;
	if (i == end)
	{
		*bad_pos = len;
		return UID_BAD_CHAR;
	}
	for (size_t j = i; j < end; j++)
		if (in[j] < '0' || in[j] > '9')
		{
			*bad_pos = j;
			return UID_BAD_CHAR;
		}
	while (end - i > 1 && in[i] == '0')
		i++;
	n = end - i;
	if (n > SNOWFLAKE_SI_TEXT_MAX ||
		(n == SNOWFLAKE_SI_TEXT_MAX && memcmp(in + i, SSI_MAX_TEXT, n) > 0))
		return UID_OUT_OF_RANGE;
	memcpy(buf, in + i, n);
	buf[n] = '\0';
	*out = strtoull(buf, NULL, 10);
	return UID_OK;
}

/* The spec's arithmetic: id = MAB * 8192 + MID * 2^k + UIN. */
static uint64_t
ssi_ref_pack(uint64_t mab, uint64_t mid, uint64_t uin, int k)
{
	return mab * 8192 + mid * (UINT64_C(1) << k) + uin;
}

static int
ssi_fields_eq(const snowflake_si_fields *a, const snowflake_si_fields *b)
{
	return a->mab == b->mab && a->mid == b->mid && a->uin == b->uin;
}

/* -1, 0 or 1 comparing (mab, mid, uin) lexicographically */
static int
ssi_fields_cmp(const snowflake_si_fields *a, const snowflake_si_fields *b)
{
	if (a->mab != b->mab)
		return a->mab < b->mab ? -1 : 1;
	if (a->mid != b->mid)
		return a->mid < b->mid ? -1 : 1;
	if (a->uin != b->uin)
		return a->uin < b->uin ? -1 : 1;
	return 0;
}

/*
 * Encodes v into a guarded buffer and checks what every encode must
 * satisfy: the return value is the digit count, a terminator follows, the
 * bytes after it are untouched, the text equals snprintf("%llu") and has no
 * leading zero.  Copies the text to text (SNOWFLAKE_SI_TEXT_MAX + 1 bytes).
 */
static int
ssi_encode_checked(uint64_t v, char *text)
{
	char		buf[SNOWFLAKE_SI_TEXT_MAX + 1 + 8];
	char		want[32];
	int			n;
	int			ok = 1;

	memset(buf, 0x5A, sizeof buf);
	n = snowflake_si_encode(v, buf);
	snprintf(want, sizeof want, "%llu", (unsigned long long) v);
	ok &= CHECK_EQ_U64(n, strlen(want));
	if (n < 1 || n > SNOWFLAKE_SI_TEXT_MAX)
	{
		CHECK(0 && "encode length out of 1..16");
		return 0;
	}
	ok &= CHECK_EQ_U64((unsigned char) buf[n], 0);
	for (size_t i = (size_t) n + 1; i < sizeof buf; i++)
		if (buf[i] != 0x5A)
		{
			CHECK(0 && "encode wrote past its terminator");
			ok = 0;
			break;
		}
	ok &= CHECK_MEM(buf, want, (size_t) n + 1);
	ok &= CHECK(buf[0] != '0' || n == 1);
	memcpy(text, buf, (size_t) n + 1);
	return ok;
}

/* ---- (a) constants and reference vectors ---- */

typedef struct ssi_vector
{
	int64_t		base_ms;		/* base clock, ms since the unix epoch */
	int64_t		time_ms;		/* time of the ID, ms since the unix epoch */
	unsigned	mid;
	unsigned	uin;
	uint64_t	id;
	const char *text;
} ssi_vector;

static void
test_ssi_vectors(void)
{
	const ssi_vector v[] = {
		{INT64_C(1072915200000), INT64_C(1072915200001), 0, 0,
		UINT64_C(8192), "8192"},
		{INT64_C(1072915200000), INT64_C(1704067200000), 1, 0,
		UINT64_C(5170397184000256), "5170397184000256"},
		{INT64_C(1047972019225), INT64_C(2147483647000), 31, 255,
		UINT64_C(9007199254740991), "9007199254740991"},
	};
	const int	k = 8;

	harness_ctx = "snowflake_si constants";
	CHECK_EQ_U64(SNOWFLAKE_SI_MAX, UINT64_C(9007199254740991));
	CHECK_EQ_U64(SNOWFLAKE_SI_MAX, (UINT64_C(1) << 53) - 1);
	CHECK_EQ_U64(SNOWFLAKE_SI_MAB_MAX, (UINT64_C(1) << 40) - 1);
	CHECK_EQ_U64(SNOWFLAKE_SI_LOW_BITS, 13);
	CHECK_EQ_U64(SNOWFLAKE_SI_K_MIN, 1);
	CHECK_EQ_U64(SNOWFLAKE_SI_K_MAX, 13);
	CHECK_EQ_U64(SNOWFLAKE_SI_TEXT_MAX, strlen(SSI_MAX_TEXT));
	CHECK_EQ_U64(SNOWFLAKE_SI_EPOCH_MIN_MS, INT64_C(1047972019225));
	CHECK_EQ_U64(SNOWFLAKE_SI_EPOCH_MIN_MS,
				 harness_unix_ms(2003, 3, 18, 7, 20, 19, 225));
	/* the last base clock: its last ID's Unix microseconds are an int64's */
	CHECK_EQ_U64(SNOWFLAKE_SI_EPOCH_MAX_MS,
				 harness_unix_ms(294212, 3, 8, 8, 7, 7, 0));
	CHECK_EQ_U64((SNOWFLAKE_SI_EPOCH_MAX_MS + SNOWFLAKE_SI_MAB_MAX) * 1000,
				 INT64_MAX / 1000 * 1000);
	CHECK_EQ_U64(SNOWFLAKE_SI_EPOCH_MAX_MS + SNOWFLAKE_SI_MAB_MAX,
				 harness_unix_ms(294247, 1, 10, 4, 0, 54, 775));
	/* the dates the spec gives for the vectors' numbers */
	CHECK_EQ_U64(v[0].base_ms, harness_unix_ms(2004, 1, 1, 0, 0, 0, 0));
	CHECK_EQ_U64(v[1].time_ms, harness_unix_ms(2024, 1, 1, 0, 0, 0, 0));
	CHECK_EQ_U64(v[2].time_ms, harness_unix_ms(2038, 1, 19, 3, 14, 7, 0));
	CHECK_EQ_U64(v[2].time_ms - v[2].base_ms, SNOWFLAKE_SI_MAB_MAX);
	/* the default k gives the spec's 5-bit MID and 8-bit UIN */
	CHECK_EQ_U64(snowflake_si_mid_max(8), 31);
	CHECK_EQ_U64(snowflake_si_uin_max(8), 255);

	harness_ctx = "snowflake_si reference vectors";
	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
	{
		snowflake_si_fields f;
		snowflake_si_fields g;
		char		text[SNOWFLAKE_SI_TEXT_MAX + 1];
		uint64_t	out = 0x5A5A;
		size_t		bad = 12345;

		harness_iter = i;
		f.mab = (uint64_t) (v[i].time_ms - v[i].base_ms);
		f.mid = v[i].mid;
		f.uin = v[i].uin;

		/* fields -> id, and the spec's arithmetic agrees */
		CHECK_EQ_U64(snowflake_si_pack(&f, k), v[i].id);
		CHECK_EQ_U64(ssi_ref_pack(f.mab, f.mid, f.uin, k), v[i].id);

		/* id -> fields -> time */
		memset(&g, 0x5A, sizeof g);
		snowflake_si_unpack(v[i].id, k, &g);
		CHECK_EQ_U64(g.mab, f.mab);
		CHECK_EQ_U64(g.mid, v[i].mid);
		CHECK_EQ_U64(g.uin, v[i].uin);
		CHECK_EQ_U64((int64_t) g.mab + v[i].base_ms, v[i].time_ms);

		/* id -> text -> id */
		if (ssi_encode_checked(v[i].id, text))
			CHECK_MEM(text, v[i].text, strlen(v[i].text) + 1);
		CHECK_EQ_U64(snowflake_si_decode(v[i].text, strlen(v[i].text), &out, &bad),
					 UID_OK);
		CHECK_EQ_U64(out, v[i].id);
		CHECK_EQ_U64(bad, 12345);	/* untouched on success */
		out = 0;
		CHECK_EQ_U64(snowflake_si_decode(v[i].text, strlen(v[i].text), &out, NULL),
					 UID_OK);
		CHECK_EQ_U64(out, v[i].id);
	}

	/* a few more hand-checked values at k = 8 */
	harness_ctx = "snowflake_si fixed k=8";
	{
		snowflake_si_fields f = {0, 0, 1};

		CHECK_EQ_U64(snowflake_si_pack(&f, 8), 1);
		f.uin = 0;
		f.mid = 1;
		CHECK_EQ_U64(snowflake_si_pack(&f, 8), 256);
		f.mid = 31;
		f.uin = 255;
		CHECK_EQ_U64(snowflake_si_pack(&f, 8), 8191);
		f.mab = 1;
		f.mid = 0;
		f.uin = 0;
		CHECK_EQ_U64(snowflake_si_pack(&f, 8), 8192);
	}
	harness_ctx = NULL;
}

/* ---- (b) pack / unpack for every k ---- */

#define SSI_FIELDS_N	100000

static void
test_ssi_pack_k(int k, harness_rng *r)
{
	const unsigned mid_max = snowflake_si_mid_max(k);
	const unsigned uin_max = snowflake_si_uin_max(k);
	const int	mid_bits = SNOWFLAKE_SI_LOW_BITS - k;

	harness_ctx = "snowflake_si mid/uin max";
	harness_iter = (unsigned long long) k;
	CHECK_EQ_U64(mid_max, (UINT64_C(1) << (13 - k)) - 1);
	CHECK_EQ_U64(uin_max, (UINT64_C(1) << k) - 1);
	CHECK_EQ_U64((uint64_t) (mid_max + 1) * (uin_max + 1), 8192);

	/* each field bit lands where the layout says: MAB 52..13, MID 12..k, UIN k-1..0 */
	harness_ctx = "snowflake_si field bit positions";
	for (int b = 0; b < 40; b++)
	{
		snowflake_si_fields f = {UINT64_C(1) << b, 0, 0};

		harness_iter = (unsigned long long) (k * 100 + b);
		CHECK_EQ_U64(snowflake_si_pack(&f, k), UINT64_C(1) << (13 + b));
	}
	for (int b = 0; b < mid_bits; b++)
	{
		snowflake_si_fields f = {0, 1u << b, 0};

		harness_iter = (unsigned long long) (k * 100 + b);
		CHECK_EQ_U64(snowflake_si_pack(&f, k), UINT64_C(1) << (k + b));
	}
	for (int b = 0; b < k; b++)
	{
		snowflake_si_fields f = {0, 0, 1u << b};

		harness_iter = (unsigned long long) (k * 100 + b);
		CHECK_EQ_U64(snowflake_si_pack(&f, k), UINT64_C(1) << b);
	}

	/* each id bit unpacks into exactly one field bit */
	harness_ctx = "snowflake_si unpack bit positions";
	for (int p = 0; p < 53; p++)
	{
		snowflake_si_fields g;
		snowflake_si_fields want = {0, 0, 0};

		harness_iter = (unsigned long long) (k * 100 + p);
		if (p >= 13)
			want.mab = UINT64_C(1) << (p - 13);
		else if (p >= k)
			want.mid = 1u << (p - k);
		else
			want.uin = 1u << p;
		memset(&g, 0x5A, sizeof g);
		snowflake_si_unpack(UINT64_C(1) << p, k, &g);
		CHECK(ssi_fields_eq(&g, &want));
	}

	/* extremes */
	harness_ctx = "snowflake_si extremes";
	harness_iter = (unsigned long long) k;
	{
		snowflake_si_fields f = {SNOWFLAKE_SI_MAB_MAX, mid_max, uin_max};
		snowflake_si_fields z = {0, 0, 0};
		snowflake_si_fields g;

		CHECK_EQ_U64(snowflake_si_pack(&f, k), SNOWFLAKE_SI_MAX);
		CHECK_EQ_U64(snowflake_si_pack(&z, k), 0);
		snowflake_si_unpack(SNOWFLAKE_SI_MAX, k, &g);
		CHECK(ssi_fields_eq(&g, &f));
		memset(&g, 0x5A, sizeof g);
		snowflake_si_unpack(0, k, &g);
		CHECK(ssi_fields_eq(&g, &z));
	}

	/* "excess bits are masked" (snowflake_si_codec.h) */
	harness_ctx = "snowflake_si pack masks excess bits";
	harness_iter = (unsigned long long) k;
	{
		snowflake_si_fields ones = {UINT64_MAX, UINT32_MAX, UINT32_MAX};
		snowflake_si_fields just_over = {SNOWFLAKE_SI_MAB_MAX + 1, mid_max + 1, uin_max + 1};
		snowflake_si_fields f;

		CHECK_EQ_U64(snowflake_si_pack(&ones, k), SNOWFLAKE_SI_MAX);
		CHECK_EQ_U64(snowflake_si_pack(&just_over, k), 0);
		/* one oversized field does not spill into its neighbours */
		f = (snowflake_si_fields) {0, mid_max + 1, 0};
		CHECK_EQ_U64(snowflake_si_pack(&f, k), 0);
		f = (snowflake_si_fields) {0, 0, uin_max + 1};
		CHECK_EQ_U64(snowflake_si_pack(&f, k), 0);
		f = (snowflake_si_fields) {0, UINT32_MAX, 0};
		CHECK_EQ_U64(snowflake_si_pack(&f, k), (uint64_t) mid_max << k);
		f = (snowflake_si_fields) {0, 0, UINT32_MAX};
		CHECK_EQ_U64(snowflake_si_pack(&f, k), uin_max);
		f = (snowflake_si_fields) {UINT64_MAX, 0, 0};
		CHECK_EQ_U64(snowflake_si_pack(&f, k), SNOWFLAKE_SI_MAB_MAX << 13);
	}
	for (long i = 0; i < SSI_FIELDS_N / 10; i++)
	{
		snowflake_si_fields big;
		snowflake_si_fields in_range;

		harness_iter = (unsigned long long) i;
		big.mab = rng_next(r);
		big.mid = (unsigned) rng_next(r);
		big.uin = (unsigned) rng_next(r);
		in_range.mab = big.mab & SNOWFLAKE_SI_MAB_MAX;
		in_range.mid = big.mid & mid_max;
		in_range.uin = big.uin & uin_max;
		CHECK_EQ_U64(snowflake_si_pack(&big, k), snowflake_si_pack(&in_range, k));
	}

	/* in-range random fields -> id -> the same fields */
	harness_ctx = "snowflake_si random fields";
	for (long i = 0; i < SSI_FIELDS_N; i++)
	{
		snowflake_si_fields f;
		snowflake_si_fields g;
		uint64_t	id;
		uint64_t	x = rng_next(r);

		harness_iter = (unsigned long long) i;
		f.mab = x & SNOWFLAKE_SI_MAB_MAX;
		f.mid = (unsigned) rng_below(r, (uint64_t) mid_max + 1);
		f.uin = (unsigned) rng_below(r, (uint64_t) uin_max + 1);
		/* now and then a field at its minimum or maximum */
		if ((x >> 40) % 8 == 0)
			f.mab = (x >> 44) & 1 ? SNOWFLAKE_SI_MAB_MAX : 0;
		if ((x >> 45) % 8 == 0)
			f.mid = (x >> 49) & 1 ? mid_max : 0;
		if ((x >> 50) % 8 == 0)
			f.uin = (x >> 54) & 1 ? uin_max : 0;
		id = snowflake_si_pack(&f, k);
		CHECK_EQ_U64(id, ssi_ref_pack(f.mab, f.mid, f.uin, k));
		CHECK(id <= SNOWFLAKE_SI_MAX);
		memset(&g, 0x5A, sizeof g);
		snowflake_si_unpack(id, k, &g);
		CHECK(ssi_fields_eq(&f, &g));
	}

	/* random ids in range -> fields -> the same id */
	harness_ctx = "snowflake_si random ids";
	for (long i = 0; i < SSI_FIELDS_N; i++)
	{
		snowflake_si_fields g;
		uint64_t	id = rng_next(r) & SNOWFLAKE_SI_MAX;

		harness_iter = (unsigned long long) i;
		snowflake_si_unpack(id, k, &g);
		CHECK(g.mab <= SNOWFLAKE_SI_MAB_MAX && g.mid <= mid_max && g.uin <= uin_max);
		CHECK_EQ_U64(g.mab, id >> 13);
		CHECK_EQ_U64(g.mid, (id >> k) & mid_max);
		CHECK_EQ_U64(g.uin, id & uin_max);
		CHECK_EQ_U64(snowflake_si_pack(&g, k), id);
	}

	/* integer order of the ids = (MAB, MID, UIN) order of the fields */
	harness_ctx = "snowflake_si order";
	for (long i = 0; i < SSI_FIELDS_N / 10; i++)
	{
		snowflake_si_fields a;
		snowflake_si_fields b;
		uint64_t	ia;
		uint64_t	ib;

		harness_iter = (unsigned long long) i;
		a.mab = rng_below(r, 4);	/* small, so that ties in MAB are common */
		a.mid = (unsigned) rng_below(r, (uint64_t) mid_max + 1);
		a.uin = (unsigned) rng_below(r, (uint64_t) uin_max + 1);
		b.mab = rng_below(r, 4);
		b.mid = (unsigned) rng_below(r, (uint64_t) mid_max + 1);
		b.uin = (unsigned) rng_below(r, (uint64_t) uin_max + 1);
		if (i % 2)
			b.mab = a.mab;
		ia = snowflake_si_pack(&a, k);
		ib = snowflake_si_pack(&b, k);
		CHECK_EQ_U64((ia > ib) - (ia < ib) + 1, ssi_fields_cmp(&a, &b) + 1);
	}
}

static void
test_ssi_pack(void)
{
	for (int k = SNOWFLAKE_SI_K_MIN; k <= SNOWFLAKE_SI_K_MAX; k++)
	{
		harness_rng r = rng_seeded(0x5F00 + (uint64_t) k);

		test_ssi_pack_k(k, &r);
	}
	harness_ctx = NULL;
}

/* ---- (c) text encode / decode ---- */

#define SSI_TEXT_N	1000000

static void
test_ssi_text(void)
{
	harness_rng r = rng_seeded(0x7E47);
	char		text[SNOWFLAKE_SI_TEXT_MAX + 1];
	uint64_t	out;

	harness_ctx = "snowflake_si encode fixed";
	{
		const struct
		{
			uint64_t	v;
			const char *s;
		}			fixed[] = {
			{0, "0"}, {1, "1"}, {9, "9"}, {10, "10"}, {11, "11"}, {99, "99"},
			{100, "100"}, {8191, "8191"}, {8192, "8192"},
			{SNOWFLAKE_SI_MAX - 1, "9007199254740990"},
			{SNOWFLAKE_SI_MAX, SSI_MAX_TEXT},
		};

		for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
		{
			harness_iter = i;
			if (ssi_encode_checked(fixed[i].v, text))
				CHECK_MEM(text, fixed[i].s, strlen(fixed[i].s) + 1);
		}
	}

	/* powers of ten and their neighbours, 10^0 .. 10^15 */
	harness_ctx = "snowflake_si encode powers of ten";
	{
		uint64_t	p = 1;

		for (int e = 0; e <= 15; e++, p *= 10)
		{
			char		want[SNOWFLAKE_SI_TEXT_MAX + 2];

			harness_iter = (unsigned long long) e;
			want[0] = '1';
			memset(want + 1, '0', (size_t) e);
			want[e + 1] = '\0';
			if (ssi_encode_checked(p, text))
				CHECK_MEM(text, want, (size_t) e + 2);
			memset(want, '9', (size_t) e);
			want[e] = '\0';
			if (e > 0 && ssi_encode_checked(p - 1, text))
				CHECK_MEM(text, want, (size_t) e + 1);
			ssi_encode_checked(p + 1, text);
			for (int j = 0; j < 2; j++)
			{
				uint64_t	v = j ? p : p - 1;

				ssi_encode_checked(v, text);
				out = ~UINT64_C(0);
				CHECK_EQ_U64(snowflake_si_decode(text, strlen(text), &out, NULL), UID_OK);
				CHECK_EQ_U64(out, v);
			}
		}
	}

	/*
	 * Random values, half spread uniformly over 0 .. 2^53-1 (mostly 16
	 * digits) and half of a random bit width, so that every length occurs.
	 * Every eighth is decoded with random leading zeros and white space.
	 */
	harness_ctx = "snowflake_si random text round trip";
	for (long i = 0; i < SSI_TEXT_N; i++)
	{
		uint64_t	v = rng_next(&r) & SNOWFLAKE_SI_MAX;
		size_t		bad = 777;

		harness_iter = (unsigned long long) i;
		if (i % 2)
			v &= (UINT64_C(1) << rng_below(&r, 54)) - 1;
		if (!ssi_encode_checked(v, text))
			continue;
		out = ~UINT64_C(0);
		CHECK_EQ_U64(snowflake_si_decode(text, strlen(text), &out, &bad), UID_OK);
		CHECK_EQ_U64(out, v);
		CHECK_EQ_U64(bad, 777);
		if (i % 8 == 0)
		{
			static const char ws[] = " \t\n\v\f\r";
			char		dec[64];
			size_t		n = 0;
			size_t		lead = (size_t) rng_below(&r, 4);
			size_t		zeros = (size_t) rng_below(&r, 24);
			size_t		trail = (size_t) rng_below(&r, 4);

			for (size_t j = 0; j < lead; j++)
				dec[n++] = ws[rng_below(&r, 6)];
			memset(dec + n, '0', zeros);
			n += zeros;
			memcpy(dec + n, text, strlen(text));
			n += strlen(text);
			for (size_t j = 0; j < trail; j++)
				dec[n++] = ws[rng_below(&r, 6)];
			out = ~UINT64_C(0);
			CHECK_EQ_U64(snowflake_si_decode(dec, n, &out, NULL), UID_OK);
			CHECK_EQ_U64(out, v);
		}
	}

	/* every value within 2000 of 2^53: accepted exactly up to 2^53-1 */
	harness_ctx = "snowflake_si decode around 2^53";
	for (int d = -2000; d <= 2000; d++)
	{
		uint64_t	v = (UINT64_C(1) << 53) + (uint64_t) (int64_t) d;
		char		s[32];
		uid_status	st;

		harness_iter = (unsigned long long) (d + 2000);
		snprintf(s, sizeof s, "%llu", (unsigned long long) v);
		out = ~UINT64_C(0);
		st = snowflake_si_decode(s, strlen(s), &out, NULL);
		if (v <= SNOWFLAKE_SI_MAX)
		{
			CHECK_EQ_U64(st, UID_OK);
			CHECK_EQ_U64(out, v);
			ssi_encode_checked(v, text);
		}
		else
			CHECK_EQ_U64(st, UID_OUT_OF_RANGE);
	}
	harness_ctx = NULL;
}

/* ---- (d) decode: accepted forms and rejections ---- */

typedef struct ssi_case
{
	const char *in;
	size_t		len;
	uid_status	st;
	uint64_t	val;			/* for UID_OK */
	size_t		bad;			/* for UID_BAD_CHAR */
} ssi_case;

#define SSI_OK(s, v)	{(s), sizeof(s) - 1, UID_OK, (v), 0}
#define SSI_BAD(s, p)	{(s), sizeof(s) - 1, UID_BAD_CHAR, 0, (p)}
#define SSI_RANGE(s)	{(s), sizeof(s) - 1, UID_OUT_OF_RANGE, 0, 0}

static void
ssi_check_case(const ssi_case *c)
{
	uint64_t	out = 0xDEAD;
	uint64_t	ref_out = 0xBEEF;
	size_t		bad = 999999;
	size_t		ref_bad = 888888;
	uid_status	st;

	st = snowflake_si_decode(c->in, c->len, &out, &bad);
	CHECK_EQ_U64(st, c->st);
	if (st == c->st && st == UID_OK)
	{
		CHECK_EQ_U64(out, c->val);
		CHECK_EQ_U64(bad, 999999);
	}
	if (st == c->st && st == UID_BAD_CHAR)
		CHECK_EQ_U64(bad, c->bad);
	/* bad_pos may be NULL */
	CHECK_EQ_U64(snowflake_si_decode(c->in, c->len, &out, NULL), c->st);
	/* and the reference decoder agrees with the table */
	CHECK_EQ_U64(ssi_ref_decode(c->in, c->len, &ref_out, &ref_bad), c->st);
	if (c->st == UID_OK)
		CHECK_EQ_U64(ref_out, c->val);
	if (c->st == UID_BAD_CHAR)
		CHECK_EQ_U64(ref_bad, c->bad);
}

static void
test_ssi_reject(void)
{
	harness_rng r = rng_seeded(0xBAD5);
	static char longbuf[4096 + 64];
	static const char ws[] = " \t\n\v\f\r";
	uint64_t	out;
	size_t		bad;

	harness_ctx = "snowflake_si decode table";
	{
		const ssi_case cases[] = {
			/* accepted */
			SSI_OK("0", 0),
			SSI_OK("7", 7),
			SSI_OK("42", 42),
			SSI_OK("007", 7),
			SSI_OK("00", 0),
			SSI_OK(" 42\t\n", 42),
			SSI_OK(" \t\n\v\f\r42 \t\n\v\f\r", 42),
			SSI_OK("9007199254740991", SNOWFLAKE_SI_MAX),
			SSI_OK("09007199254740991", SNOWFLAKE_SI_MAX),
			SSI_OK("0000000000000000000000009007199254740991", SNOWFLAKE_SI_MAX),
			SSI_OK("00000000000000000000000000000000", 0),
			SSI_OK("000000000000000000001", 1),
			SSI_OK("  9007199254740991  ", SNOWFLAKE_SI_MAX),
			SSI_OK("5170397184000256", UINT64_C(5170397184000256)),
			/* nothing but white space: bad_pos is the end */
			SSI_BAD("", 0),
			SSI_BAD(" ", 1),
			SSI_BAD("\t", 1),
			SSI_BAD(" \t\n\v\f\r", 6),
			/* signs */
			SSI_BAD("+1", 0),
			SSI_BAD("-1", 0),
			SSI_BAD("-0", 0),
			SSI_BAD("+", 0),
			SSI_BAD("-", 0),
			SSI_BAD(" +1", 1),
			SSI_BAD(" -42 ", 1),
			SSI_BAD("1+", 1),
			SSI_BAD("1-2", 1),
			SSI_BAD("- 1", 0),
			/* other bases, exponents, separators */
			SSI_BAD("0x10", 1),
			SSI_BAD("0X10", 1),
			SSI_BAD("0b1", 1),
			SSI_BAD("0o7", 1),
			SSI_BAD("1e3", 1),
			SSI_BAD("1.0", 1),
			SSI_BAD("1,000", 1),
			SSI_BAD("1_000", 1),
			SSI_BAD("1'000", 1),
			/* letters */
			SSI_BAD("x", 0),
			SSI_BAD("abc", 0),
			SSI_BAD("12a", 2),
			SSI_BAD("12a4b", 2),
			SSI_BAD(" x ", 1),
			SSI_BAD("inf", 0),
			SSI_BAD("NaN", 0),
			/* embedded white space */
			SSI_BAD("12 34", 2),
			SSI_BAD("12\t34", 2),
			SSI_BAD(" 12 34 ", 3),
			SSI_BAD("1 2 3", 1),
			/* embedded NUL (decode takes a length) */
			SSI_BAD("\0", 0),
			SSI_BAD("12\0", 2),
			SSI_BAD("12\0" "34", 2),
			SSI_BAD("\0" "12", 0),
			SSI_BAD(" \0 ", 1),
			SSI_BAD("42 \0", 2),	/* the space is not trailing: a NUL follows */
			/* bytes above 0x7f, and white space in other locales/languages */
			SSI_BAD("\x80", 0),
			SSI_BAD("\xff", 0),
			SSI_BAD("1\x80", 1),
			SSI_BAD("42\xff", 2),
			SSI_BAD("\xc2\xa0" "42", 0),	/* UTF-8 no-break space */
			SSI_BAD("42\xa0", 2),	/* Latin-1 no-break space */
			SSI_BAD("42\x85", 2),	/* NEL */
			SSI_BAD("\x1c" "42", 0),	/* Python's isspace, not C's */
			SSI_BAD("42\x1f", 2),
			SSI_BAD("\xd9\xa1", 0),	/* ARABIC-INDIC DIGIT ONE */
			SSI_BAD("\xef\xbc\x91", 0),	/* FULLWIDTH DIGIT ONE */
			/* a bad character wins over a too-large value (OUT_OF_RANGE means all digits) */
			SSI_BAD("99999999999999999999x", 20),
			SSI_BAD("9007199254740992 x", 16),
			SSI_BAD("x99999999999999999999", 0),
			/* out of range */
			SSI_RANGE("9007199254740992"),	/* 2^53 */
			SSI_RANGE("9007199254740993"),
			SSI_RANGE("9007199254741000"),
			SSI_RANGE("9999999999999999"),
			SSI_RANGE("10000000000000000"),
			SSI_RANGE(" 9007199254740992 "),
			SSI_RANGE("00009007199254740992"),
			SSI_RANGE("18446744073709551615"),	/* 2^64-1 */
			SSI_RANGE("18446744073709551616"),	/* 2^64: wraps to 0 */
			SSI_RANGE("18446744073709551617"),	/* wraps to 1 */
			SSI_RANGE("18446744073709551621"),	/* wraps to 5 */
			SSI_RANGE("18455751272964292607"),	/* 2^64 + 2^53-1 */
			SSI_RANGE("36893488147419103232"),	/* 2^65: wraps to 0 */
			SSI_RANGE("184467440737095516160"),	/* 10 * 2^64 */
			SSI_RANGE("99999999999999999999"),
			SSI_RANGE("100000000000000000000"),
		};

		for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		{
			harness_iter = i;
			ssi_check_case(&cases[i]);
		}
	}

	/* decode reads exactly len characters */
	harness_ctx = "snowflake_si decode honours len";
	out = 0;
	CHECK_EQ_U64(snowflake_si_decode("42x", 2, &out, NULL), UID_OK);
	CHECK_EQ_U64(out, 42);
	CHECK_EQ_U64(snowflake_si_decode("1234", 1, &out, NULL), UID_OK);
	CHECK_EQ_U64(out, 1);
	CHECK_EQ_U64(snowflake_si_decode("90071992547409919", 16, &out, NULL), UID_OK);
	CHECK_EQ_U64(out, SNOWFLAKE_SI_MAX);
	bad = 999;
	CHECK_EQ_U64(snowflake_si_decode("x", 0, &out, &bad), UID_BAD_CHAR);
	CHECK_EQ_U64(bad, 0);
	bad = 999;
	CHECK_EQ_U64(snowflake_si_decode(" 1", 1, &out, &bad), UID_BAD_CHAR);
	CHECK_EQ_U64(bad, 1);

	/* each of the six C white-space characters, around and inside */
	harness_ctx = "snowflake_si each white-space character";
	{
		int			nspace = 0;

		for (int c = 0; c < 256; c++)
			nspace += ssi_ref_space((unsigned char) c);
		CHECK_EQ_U64(nspace, 6);
	}
	for (int i = 0; i < 6; i++)
	{
		char		t[16];
		char		w = ws[i];

		harness_iter = (unsigned long long) i;
		CHECK(ssi_ref_space((unsigned char) w));
		t[0] = w; t[1] = '4'; t[2] = '2'; t[3] = w;
		out = 0;
		CHECK_EQ_U64(snowflake_si_decode(t, 4, &out, NULL), UID_OK);
		CHECK_EQ_U64(out, 42);
		/* leading only, trailing only */
		out = 0;
		CHECK_EQ_U64(snowflake_si_decode(t, 3, &out, NULL), UID_OK);
		CHECK_EQ_U64(out, 42);
		out = 0;
		CHECK_EQ_U64(snowflake_si_decode(t + 1, 3, &out, NULL), UID_OK);
		CHECK_EQ_U64(out, 42);
		/* several */
		memset(t, w, sizeof t);
		t[5] = '7';
		out = 0;
		CHECK_EQ_U64(snowflake_si_decode(t, sizeof t, &out, NULL), UID_OK);
		CHECK_EQ_U64(out, 7);
		/* alone: nothing to decode, bad_pos is the end */
		bad = 999;
		CHECK_EQ_U64(snowflake_si_decode(t, 1, &out, &bad), UID_BAD_CHAR);
		CHECK_EQ_U64(bad, 1);
		bad = 999;
		CHECK_EQ_U64(snowflake_si_decode(t, 5, &out, &bad), UID_BAD_CHAR);
		CHECK_EQ_U64(bad, 5);
		/* between digits: rejected there */
		t[0] = '4'; t[1] = w; t[2] = '2';
		bad = 999;
		CHECK_EQ_U64(snowflake_si_decode(t, 3, &out, &bad), UID_BAD_CHAR);
		CHECK_EQ_U64(bad, 1);
	}

	/* long digit strings: no wrap-around, however long */
	harness_ctx = "snowflake_si long digit strings";
	for (size_t n = 17; n <= 4096; n = n < 64 ? n + 1 : n * 2)
	{
		harness_iter = n;
		memset(longbuf, '9', n);
		CHECK_EQ_U64(snowflake_si_decode(longbuf, n, &out, NULL), UID_OUT_OF_RANGE);
		memset(longbuf, '0', n);
		longbuf[0] = '1';
		CHECK_EQ_U64(snowflake_si_decode(longbuf, n, &out, NULL), UID_OUT_OF_RANGE);
		/* 10^(n-1) + 1, 10^(n-1) + 5: no wrap to a small number */
		longbuf[n - 1] = '1';
		CHECK_EQ_U64(snowflake_si_decode(longbuf, n, &out, NULL), UID_OUT_OF_RANGE);
		longbuf[n - 1] = '5';
		CHECK_EQ_U64(snowflake_si_decode(longbuf, n, &out, NULL), UID_OUT_OF_RANGE);
		/* all zeros: 0 */
		memset(longbuf, '0', n);
		out = ~UINT64_C(0);
		CHECK_EQ_U64(snowflake_si_decode(longbuf, n, &out, NULL), UID_OK);
		CHECK_EQ_U64(out, 0);
		/* zeros then the maximum, zeros then one more */
		memcpy(longbuf + n - 16, SSI_MAX_TEXT, 16);
		out = 0;
		CHECK_EQ_U64(snowflake_si_decode(longbuf, n, &out, NULL), UID_OK);
		CHECK_EQ_U64(out, SNOWFLAKE_SI_MAX);
		memcpy(longbuf + n - 16, "9007199254740992", 16);
		CHECK_EQ_U64(snowflake_si_decode(longbuf, n, &out, NULL), UID_OUT_OF_RANGE);
		/* zeros then 1, with white space around */
		memset(longbuf, '0', n);
		longbuf[n - 1] = '7';
		memmove(longbuf + 2, longbuf, n);
		longbuf[0] = ' ';
		longbuf[1] = '\t';
		longbuf[n + 2] = '\n';
		out = 0;
		CHECK_EQ_U64(snowflake_si_decode(longbuf, n + 3, &out, NULL), UID_OK);
		CHECK_EQ_U64(out, 7);
		/* a bad character at the very end of a long overflowing string */
		memset(longbuf, '9', n);
		longbuf[n] = 'z';
		bad = 999;
		CHECK_EQ_U64(snowflake_si_decode(longbuf, n + 1, &out, &bad), UID_BAD_CHAR);
		CHECK_EQ_U64(bad, n);
	}

	/* with two bad characters, bad_pos names the first */
	harness_ctx = "snowflake_si first of two bad chars";
	for (int i = 0; i < 16; i++)
		for (int j = i + 1; j < 16; j++)
		{
			char		t[16];

			harness_iter = (unsigned long long) (i * 16 + j);
			memcpy(t, SSI_MAX_TEXT, 16);
			t[i] = 'z';
			t[j] = '-';
			bad = 999;
			CHECK_EQ_U64(snowflake_si_decode(t, 16, &out, &bad), UID_BAD_CHAR);
			CHECK_EQ_U64(bad, i);
		}

	/*
	 * Random garbage against the reference decoder: short strings drawn
	 * mostly from digits and white space, with some zeros and other bytes,
	 * so that every status and every bad_pos occur.
	 */
	harness_ctx = "snowflake_si random garbage";
	{
		unsigned long long seen[UID_OUT_OF_RANGE + 1] = {0};

		for (long i = 0; i < 300000; i++)
		{
			char		t[40];
			size_t		len = (size_t) rng_below(&r, sizeof t + 1);
			uint64_t	want = 0;
			uint64_t	got = 0;
			size_t		refbad = 0;
			uid_status	refst;
			uid_status	st;

			harness_iter = (unsigned long long) i;
			for (size_t k = 0; k < len; k++)
			{
				uint64_t	kind = rng_below(&r, 64);

				if (kind < 40)
					t[k] = (char) ('0' + rng_below(&r, 10));
				else if (kind < 52)
					t[k] = '0';
				else if (kind < 62)
					t[k] = ws[rng_below(&r, 6)];
				else
					t[k] = (char) rng_below(&r, 256);
			}
			/* sometimes frame a short number with white space */
			if (len > 4 && i % 4 == 0)
			{
				t[0] = ws[rng_below(&r, 6)];
				t[len - 1] = ws[rng_below(&r, 6)];
			}
			refst = ssi_ref_decode(t, len, &want, &refbad);
			bad = 999999;
			st = snowflake_si_decode(t, len, &got, &bad);
			seen[refst]++;
			if (!CHECK_EQ_U64(st, refst))
				continue;
			if (st == UID_OK)
				CHECK_EQ_U64(got, want);
			else if (st == UID_BAD_CHAR)
				CHECK_EQ_U64(bad, refbad);
		}
		/* the generator reaches every status the decoder can return */
		CHECK(seen[UID_OK] > 1000);
		CHECK(seen[UID_BAD_CHAR] > 1000);
		CHECK(seen[UID_OUT_OF_RANGE] > 1000);
	}
	harness_ctx = NULL;
}

/* ---- (e) every single byte, and every byte around a number ---- */

static void
test_ssi_bytes(void)
{
	uint64_t	out;
	size_t		bad;
	int			accepted = 0;

	harness_ctx = "snowflake_si all 256 bytes alone";
	for (int c = 0; c < 256; c++)
	{
		char		t[1];
		uid_status	st;

		harness_iter = (unsigned long long) c;
		t[0] = (char) c;
		out = ~UINT64_C(0);
		bad = 999;
		st = snowflake_si_decode(t, 1, &out, &bad);
		if (c >= '0' && c <= '9')
		{
			accepted++;
			CHECK_EQ_U64(st, UID_OK);
			CHECK_EQ_U64(out, (uint64_t) (c - '0'));
			CHECK_EQ_U64(bad, 999);
		}
		else
		{
			CHECK_EQ_U64(st, UID_BAD_CHAR);
			/* white space alone leaves nothing: bad_pos is the end */
			CHECK_EQ_U64(bad, ssi_ref_space((unsigned char) c) ? 1 : 0);
		}
	}
	CHECK_EQ_U64(accepted, 10);

	/*
	 * Each byte before, inside and after "1234": digits are accepted
	 * everywhere, white space only at the ends, everything else rejected
	 * where it stands.
	 */
	harness_ctx = "snowflake_si all 256 bytes around a number";
	for (int c = 0; c < 256; c++)
	{
		int			digit = c >= '0' && c <= '9';
		int			space = ssi_ref_space((unsigned char) c);

		for (int pos = 0; pos <= 4; pos++)
		{
			char		t[5];
			int			edge = pos == 0 || pos == 4;
			uid_status	st;

			harness_iter = (unsigned long long) (pos * 256 + c);
			memcpy(t, "1234", 4);
			memmove(t + pos + 1, t + pos, (size_t) (4 - pos));
			t[pos] = (char) c;
			out = ~UINT64_C(0);
			bad = 999;
			st = snowflake_si_decode(t, 5, &out, &bad);
			if (digit)
			{
				char		s[6];

				memcpy(s, t, 5);
				s[5] = '\0';
				CHECK_EQ_U64(st, UID_OK);
				CHECK_EQ_U64(out, strtoull(s, NULL, 10));
			}
			else if (space && edge)
			{
				CHECK_EQ_U64(st, UID_OK);
				CHECK_EQ_U64(out, 1234);
			}
			else
			{
				CHECK_EQ_U64(st, UID_BAD_CHAR);
				CHECK_EQ_U64(bad, pos);
			}
		}
	}
	harness_ctx = NULL;
}

void		test_snowflake_si(void);

void
test_snowflake_si(void)
{
	test_ssi_vectors();
	test_ssi_pack();
	test_ssi_text();
	test_ssi_reject();
	test_ssi_bytes();
}
