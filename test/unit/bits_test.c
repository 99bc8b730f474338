/*
 * bits_test.c
 *		Unit tests of the helpers in src/codec/bits.h, shared by all formats.
 *
 * Included by codec_test.c (see there); exposes test_bits().
 */
#include "harness.h"
#include "codec/bits.h"

static uint32_t
naive_bitrev32(uint32_t x)
{
	uint32_t	r = 0;

	for (int i = 0; i < 32; i++)
		if (x & (UINT32_C(1) << i))
			r |= UINT32_C(1) << (31 - i);
	return r;
}

static uint64_t
naive_bitrev64(uint64_t x)
{
	uint64_t	r = 0;

	for (int i = 0; i < 64; i++)
		if (x & (UINT64_C(1) << i))
			r |= UINT64_C(1) << (63 - i);
	return r;
}

static void
test_bitrev(void)
{
	harness_rng r = rng_seeded(0xB17);

	harness_ctx = "bitrev fixed values";
	CHECK_EQ_U64(uid_bitrev32(0), 0);
	CHECK_EQ_U64(uid_bitrev32(1), UINT32_C(0x80000000));
	CHECK_EQ_U64(uid_bitrev32(UINT32_C(0x80000000)), 1);
	CHECK_EQ_U64(uid_bitrev32(UINT32_C(0xFFFFFFFF)), UINT32_C(0xFFFFFFFF));
	CHECK_EQ_U64(uid_bitrev32(UINT32_C(0x12345678)), UINT32_C(0x1E6A2C48));
	CHECK_EQ_U64(uid_bitrev64(0), 0);
	CHECK_EQ_U64(uid_bitrev64(1), UINT64_C(0x8000000000000000));
	CHECK_EQ_U64(uid_bitrev64(UINT64_C(0x8000000000000000)), 1);
	CHECK_EQ_U64(uid_bitrev64(UINT64_MAX), UINT64_MAX);
	CHECK_EQ_U64(uid_bitrev64(UINT64_C(0x0123456789ABCDEF)),
				 UINT64_C(0xF7B3D591E6A2C480));

	/* every single-bit value */
	harness_ctx = "bitrev single bits";
	for (int i = 0; i < 32; i++)
	{
		harness_iter = (unsigned long long) i;
		CHECK_EQ_U64(uid_bitrev32(UINT32_C(1) << i), UINT32_C(1) << (31 - i));
	}
	for (int i = 0; i < 64; i++)
	{
		harness_iter = (unsigned long long) i;
		CHECK_EQ_U64(uid_bitrev64(UINT64_C(1) << i), UINT64_C(1) << (63 - i));
	}

	harness_ctx = "bitrev random values";
	for (int i = 0; i < 100000; i++)
	{
		uint64_t	x = rng_next(&r);

		harness_iter = (unsigned long long) i;
		CHECK_EQ_U64(uid_bitrev32((uint32_t) x), naive_bitrev32((uint32_t) x));
		CHECK_EQ_U64(uid_bitrev64(x), naive_bitrev64(x));
		CHECK_EQ_U64(uid_bitrev64(uid_bitrev64(x)), x);
	}
	harness_ctx = NULL;
}

static void
test_load_store_be(void)
{
	harness_rng r = rng_seeded(0xBE);
	uint8_t		buf[8 + 16];
	const uint8_t fixed[8] = {0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF};

	harness_ctx = "load_be fixed";
	CHECK_EQ_U64(uid_load_be(fixed, 0), 0);
	CHECK_EQ_U64(uid_load_be(fixed, 1), 0x01);
	CHECK_EQ_U64(uid_load_be(fixed, 2), 0x0123);
	CHECK_EQ_U64(uid_load_be(fixed, 5), UINT64_C(0x0123456789));
	CHECK_EQ_U64(uid_load_be(fixed, 8), UINT64_C(0x0123456789ABCDEF));
	CHECK_EQ_U64(uid_load_be(fixed + 7, 1), 0xEF);

	harness_ctx = "store_be fixed";
	memset(buf, 0xAA, sizeof buf);
	uid_store_be(buf + 8, 8, UINT64_C(0x0123456789ABCDEF));
	CHECK_MEM(buf + 8, fixed, 8);

	/*
	 * Random values at every width 0..8: store writes exactly nbytes bytes
	 * (the guard bytes around them are untouched), the low nbytes*8 bits of
	 * the value, most significant first; load reads them back.
	 */
	harness_ctx = "load/store random";
	for (int i = 0; i < 20000; i++)
	{
		uint64_t	v = rng_next(&r);
		int			n = (int) (i % 9);
		uint64_t	mask = n == 8 ? UINT64_MAX : (UINT64_C(1) << (8 * n)) - 1;
		uint8_t		guard[sizeof buf];
		int			ok = 1;

		harness_iter = (unsigned long long) i;
		rng_fill(&r, buf, sizeof buf);
		memcpy(guard, buf, sizeof buf);
		uid_store_be(buf + 8, n, v);
		CHECK_MEM(buf, guard, 8);
		CHECK_MEM(buf + 8 + n, guard + 8 + n, sizeof buf - 8 - (size_t) n);
		for (int k = 0; k < n; k++)
			if (buf[8 + k] != (uint8_t) (v >> (8 * (n - 1 - k))))
				ok = 0;
		CHECK(ok);
		CHECK_EQ_U64(uid_load_be(buf + 8, n), v & mask);
	}
	harness_ctx = NULL;
}

static void
test_hexval(void)
{
	harness_ctx = "hexval all bytes";
	for (int c = 0; c < 256; c++)
	{
		int			want = -1;

		if (c >= '0' && c <= '9')
			want = c - '0';
		else if (c >= 'a' && c <= 'f')
			want = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			want = c - 'A' + 10;
		harness_iter = (unsigned long long) c;
		CHECK_EQ_U64((int64_t) uid_hexval((unsigned char) c), (int64_t) want);
	}
	harness_ctx = NULL;
}

void		test_bits(void);

void
test_bits(void)
{
	test_bitrev();
	test_load_store_be();
	test_hexval();
}
