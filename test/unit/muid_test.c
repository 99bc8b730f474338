/*
 * muid_test.c
 *		Unit tests of the muid codec (src/codec/muid_codec.c).
 *
 * Included by codec_test.c (see there); exposes test_muid().
 * The reference vectors are those of doc/formats.md, section "muid".
 */
#include <stdlib.h>

#include "harness.h"
#include "codec/muid_codec.h"

/* Bit k (0 = most significant) of a 16-byte big-endian value. */
static unsigned
muid_ref_bit(const uint8_t in[MUID_LEN], int k)
{
	return (in[k / 8] >> (7 - k % 8)) & 1;
}

/* Reference unpack straight from the spec: bits 0-51, 52-95, 96-127. */
static void
muid_ref_unpack(const uint8_t in[MUID_LEN], uint64_t *ts, uint64_t *med, uint32_t *off)
{
	*ts = *med = 0;
	*off = 0;
	for (int k = 0; k < 128; k++)
	{
		unsigned	b = muid_ref_bit(in, k);

		if (k < 52)
			*ts = *ts << 1 | b;
		else if (k < 96)
			*med = *med << 1 | b;
		else
			*off = *off << 1 | b;
	}
}

/* Reference text: the three fields through printf. */
static void
muid_ref_encode(const uint8_t in[MUID_LEN], char out[MUID_TEXT_LEN + 1])
{
	uint64_t	ts,
				med;
	uint32_t	off;

	muid_ref_unpack(in, &ts, &med, &off);
	snprintf(out, MUID_TEXT_LEN + 1, "%013" PRIX64 "-%011" PRIX64 "-%08" PRIX32,
			 ts, med, off);
}

/* ---- (a) reference vectors ---- */

typedef struct muid_vector
{
	muid_fields f;
	const char *hex;
	const char *text;
} muid_vector;

static const muid_vector muid_vectors[] = {
	{{UINT64_C(1642579230975519), UINT64_C(1923190821165), 11},
	"5d5eac793e61f1bfc71b112d0000000b", "5D5EAC793E61F-1BFC71B112D-0000000B"},
	{{UINT64_C(1642579230975519), UINT64_C(1923190821165), -1},
	"5d5eac793e61f1bfc71b112dffffffff", "5D5EAC793E61F-1BFC71B112D-FFFFFFFF"},
	{{MUID_TS_MAX, MUID_MEDALLION_MAX, 4},
	"ffffffffffffffffffffffff00000004", "FFFFFFFFFFFFF-FFFFFFFFFFF-00000004"},
	{{0, 0, 0},
	"00000000000000000000000000000000", "0000000000000-00000000000-00000000"},
};

static void
muid_lower(const char *in, char *out, size_t n)
{
	for (size_t i = 0; i < n; i++)
		out[i] = (in[i] >= 'A' && in[i] <= 'F') ? (char) (in[i] + 32) : in[i];
}

static void
muid_test_vectors(void)
{
	harness_ctx = "muid vectors";
	for (size_t i = 0; i < sizeof muid_vectors / sizeof muid_vectors[0]; i++)
	{
		const muid_vector *v = &muid_vectors[i];
		uint8_t		want[MUID_LEN],
					got[MUID_LEN];
		char		text[MUID_TEXT_LEN];
		char		lower[MUID_TEXT_LEN];
		muid_fields f;
		size_t		bad = 99;

		harness_iter = i;
		if (!CHECK(harness_hex(v->hex, want, MUID_LEN)))
			continue;
		muid_pack(&v->f, got);
		CHECK_MEM(got, want, MUID_LEN);
		muid_unpack(want, &f);
		CHECK_EQ_U64(f.timestamp, v->f.timestamp);
		CHECK_EQ_U64(f.medallion, v->f.medallion);
		CHECK_EQ_U64((uint32_t) f.offset, (uint32_t) v->f.offset);
		CHECK(f.offset == v->f.offset);
		muid_encode(want, text);
		CHECK_MEM(text, v->text, MUID_TEXT_LEN);
		memset(got, 0xAA, MUID_LEN);
		CHECK(muid_decode(v->text, MUID_TEXT_LEN, got, &bad) == UID_OK);
		CHECK_MEM(got, want, MUID_LEN);
		muid_lower(v->text, lower, MUID_TEXT_LEN);
		memset(got, 0x55, MUID_LEN);
		CHECK(muid_decode(lower, MUID_TEXT_LEN, got, &bad) == UID_OK);
		CHECK_MEM(got, want, MUID_LEN);
	}

	/* the spec's example as the signed offset -1 from its fields */
	{
		uint8_t		got[MUID_LEN];
		muid_fields f;

		CHECK(muid_decode("5D5EAC793E61F-1BFC71B112D-FFFFFFFF", MUID_TEXT_LEN, got, NULL) == UID_OK);
		muid_unpack(got, &f);
		CHECK(f.offset == -1);
	}
}

/* ---- (b) the two short forms ---- */

static void
muid_test_short_forms(void)
{
	uint8_t		got[MUID_LEN],
				want[MUID_LEN];
	muid_fields f = {UINT64_C(1642579230975519), UINT64_C(1923190821165), 0};

	harness_ctx = "muid short forms";
	muid_pack(&f, want);
	CHECK(muid_decode("5D5EAC793E61F-1BFC71B112D", 25, got, NULL) == UID_OK);
	CHECK_MEM(got, want, MUID_LEN);
	CHECK(muid_decode("5d5eac793e61f-1bfc71b112d", 25, got, NULL) == UID_OK);
	CHECK_MEM(got, want, MUID_LEN);
	f.medallion = 0;
	muid_pack(&f, want);
	CHECK(muid_decode("5D5EAC793E61F", 13, got, NULL) == UID_OK);
	CHECK_MEM(got, want, MUID_LEN);
	CHECK(muid_decode("5d5eac793e61f", 13, got, NULL) == UID_OK);
	CHECK_MEM(got, want, MUID_LEN);
	/* the spec's old 14/13/5-digit layout is invalid */
	CHECK(muid_decode("05D5EAC793E61F-1BFC71B112D0-0000B", 33, got, NULL) == UID_BAD_LENGTH);
	CHECK(muid_decode("5D5EAC793E61F-1BFC71B112D-", 26, got, NULL) == UID_BAD_LENGTH);
	CHECK(muid_decode("5D5EAC793E61F-", 14, got, NULL) == UID_BAD_LENGTH);
}

/* ---- (c) random round trips against the reference ---- */

static void
muid_random_value(harness_rng *r, uint8_t v[MUID_LEN])
{
	rng_fill(r, v, MUID_LEN);
	/* bias some values to the edges of each field */
	switch (rng_below(r, 8))
	{
		case 0:
			memset(v, 0, 7);
			break;
		case 1:
			memset(v + 12, 0xFF, 4);
			break;
		case 2:
			memset(v + 6, 0, 6);
			break;
		default:
			break;
	}
}

static void
muid_test_round_trips(void)
{
	harness_rng r = rng_seeded(0x6d756964);
	const int	n = 1000000;

	harness_ctx = "muid round trips";
	for (int i = 0; i < n; i++)
	{
		uint8_t		v[MUID_LEN],
					back[MUID_LEN],
					packed[MUID_LEN];
		char		text[MUID_TEXT_LEN],
					ref[MUID_TEXT_LEN + 1],
					lower[MUID_TEXT_LEN];
		muid_fields f;
		uint64_t	ts,
					med;
		uint32_t	off;

		harness_iter = (unsigned long long) i;
		muid_random_value(&r, v);
		muid_unpack(v, &f);
		muid_ref_unpack(v, &ts, &med, &off);
		if (!CHECK_EQ_U64(f.timestamp, ts) || !CHECK_EQ_U64(f.medallion, med) ||
			!CHECK_EQ_U64((uint32_t) f.offset, off))
			continue;
		muid_pack(&f, packed);
		CHECK_MEM(packed, v, MUID_LEN);
		muid_encode(v, text);
		muid_ref_encode(v, ref);
		CHECK_MEM(text, ref, MUID_TEXT_LEN);
		memset(back, 0, MUID_LEN);
		CHECK(muid_decode(text, MUID_TEXT_LEN, back, NULL) == UID_OK);
		CHECK_MEM(back, v, MUID_LEN);
		if (i % 16 == 0)
		{
			muid_lower(text, lower, MUID_TEXT_LEN);
			memset(back, 0, MUID_LEN);
			CHECK(muid_decode(lower, MUID_TEXT_LEN, back, NULL) == UID_OK);
			CHECK_MEM(back, v, MUID_LEN);
		}
	}

	/* pack masks bits beyond each field */
	harness_ctx = "muid pack masks";
	for (int i = 0; i < 10000; i++)
	{
		muid_fields wide = {rng_next(&r), rng_next(&r), (int32_t) rng_next(&r)};
		muid_fields narrow = {wide.timestamp & MUID_TS_MAX,
		wide.medallion & MUID_MEDALLION_MAX, wide.offset};
		uint8_t		a[MUID_LEN],
					b[MUID_LEN];

		harness_iter = (unsigned long long) i;
		muid_pack(&wide, a);
		muid_pack(&narrow, b);
		CHECK_MEM(a, b, MUID_LEN);
	}
}

/* ---- (d) text order = byte order = field order ---- */

static int
muid_field_cmp(const uint8_t a[MUID_LEN], const uint8_t b[MUID_LEN])
{
	uint64_t	ta,
				ma,
				tb,
				mb;
	uint32_t	oa,
				ob;

	muid_ref_unpack(a, &ta, &ma, &oa);
	muid_ref_unpack(b, &tb, &mb, &ob);
	if (ta != tb)
		return ta < tb ? -1 : 1;
	if (ma != mb)
		return ma < mb ? -1 : 1;
	if (oa != ob)
		return oa < ob ? -1 : 1;
	return 0;
}

static void
muid_test_order(void)
{
	harness_rng r = rng_seeded(0x6f72646572);

	harness_ctx = "muid order";
	for (int i = 0; i < 300000; i++)
	{
		uint8_t		a[MUID_LEN],
					b[MUID_LEN];
		char		ta[MUID_TEXT_LEN],
					tb[MUID_TEXT_LEN];
		int			want;

		harness_iter = (unsigned long long) i;
		muid_random_value(&r, a);
		memcpy(b, a, MUID_LEN);
		/* make b differ from a in one random byte, often only slightly */
		b[rng_below(&r, MUID_LEN)] ^= (uint8_t) (1u << rng_below(&r, 8));
		if (i % 3 == 0)
			muid_random_value(&r, b);
		want = muid_field_cmp(a, b);
		muid_encode(a, ta);
		muid_encode(b, tb);
		CHECK(harness_sgn(memcmp(a, b, MUID_LEN)) == want);
		CHECK(harness_sgn(memcmp(ta, tb, MUID_TEXT_LEN)) == want);
	}
}

/* ---- (e) rejections ---- */

static void
muid_test_rejections(void)
{
	static const char valid[] = "5D5EAC793E61F-1BFC71B112D-0000000B";
	char		buf[80];
	uint8_t		out[MUID_LEN];

	harness_ctx = "muid lengths";
	for (size_t len = 0; len < sizeof buf; len++)
	{
		size_t		bad = 999;
		uid_status	st;
		int			ok_len = len == 13 || len == 25 || len == 34;

		harness_iter = len;
		/* a prefix of repeated valid strings keeps dashes in their places */
		for (size_t i = 0; i < len; i++)
			buf[i] = valid[i % MUID_TEXT_LEN];
		st = muid_decode(buf, len, out, &bad);
		CHECK((st == UID_OK) == ok_len);
		if (!ok_len)
			CHECK(st == UID_BAD_LENGTH);
	}

	/* every byte in every position of each accepted shape */
	harness_ctx = "muid characters";
	for (int shape = 0; shape < 3; shape++)
	{
		size_t		len = shape == 0 ? 34 : shape == 1 ? 25 : 13;

		for (size_t pos = 0; pos < len; pos++)
		{
			int			dash_pos = pos == 13 || pos == 25;

			for (int c = 1; c < 256; c++)
			{
				size_t		bad = 999;
				uid_status	st;
				int			hex = strchr("0123456789abcdefABCDEF", c) != NULL;
				int			want_ok = dash_pos ? c == '-' : hex;

				harness_iter = pos * 256 + (unsigned) c;
				memcpy(buf, valid, len);
				buf[pos] = (char) c;
				st = muid_decode(buf, len, out, &bad);
				if (!CHECK((st == UID_OK) == want_ok) || want_ok)
					continue;
				CHECK_EQ_U64(bad, pos);
				/* a digit where a dash belongs, or a dash inside a group, is a shape error */
				if (c == '-' || (dash_pos && hex))
					CHECK(st == UID_BAD_SHAPE);
				else
					CHECK(st == UID_BAD_CHAR);
			}
		}
	}

	/* shapes of the right length with groups in the wrong places */
	harness_ctx = "muid shapes";
	CHECK(muid_decode("5D5EAC793E61F1-BFC71B112D-0000000B", 34, out, NULL) == UID_BAD_SHAPE);
	CHECK(muid_decode("5D5EAC793E61F-1BFC71B112D0-000000B", 34, out, NULL) == UID_BAD_SHAPE);
	CHECK(muid_decode("5D5EAC793E61F+1BFC71B112D-0000000B", 34, out, NULL) == UID_BAD_CHAR);
	CHECK(muid_decode("5D5EAC793E61F-1BFC71B112D 0000000B", 34, out, NULL) == UID_BAD_CHAR);
	CHECK(muid_decode(" 5D5EAC793E61F-1BFC71B112D-000000B", 34, out, NULL) == UID_BAD_CHAR);
	CHECK(muid_decode("0x5D5EAC793E61", 14, out, NULL) == UID_BAD_LENGTH);
	CHECK(muid_decode("5D5EAC793E61F-1BFC71B112D-0000000", 33, out, NULL) == UID_BAD_LENGTH);
	CHECK(muid_decode("{5D5EAC793E61F-1BFC71B112D-0000000B}", 36, out, NULL) == UID_BAD_LENGTH);
}

/* ---- (f) offsets inside one transaction ---- */

static void
muid_test_offsets(void)
{
	int32_t		last = 0;

	harness_ctx = "muid offsets";
	for (int32_t i = 1; i <= 1000; i++)
		if (!CHECK(muid_next_offset(&last)) || !CHECK(last == i))
			break;
	last = MUID_OFFSET_MAX - 2;
	CHECK(muid_next_offset(&last) && last == MUID_OFFSET_MAX - 1);
	CHECK(muid_next_offset(&last) && last == MUID_OFFSET_MAX);
	/* used up: refused, never wrapped onto the negative offsets */
	CHECK(!muid_next_offset(&last));
	CHECK(last == MUID_OFFSET_MAX);
	CHECK(!muid_next_offset(&last));
	last = -1;
	CHECK(!muid_next_offset(&last));
	CHECK(last == -1);
	last = INT32_MIN;
	CHECK(!muid_next_offset(&last));
}

/* ---- (g) the abbreviated sort key never contradicts byte order ---- */

/* A value near base: each field equal, one off, at an edge, or random. */
static void
muid_near(harness_rng *r, const uint8_t base[MUID_LEN], uint8_t out[MUID_LEN])
{
	muid_fields f;

	muid_unpack(base, &f);
	switch (rng_below(r, 6))
	{
		case 0:
			f.timestamp += 1;
			break;
		case 1:
			f.timestamp -= 1;
			break;
		case 2:
			f.timestamp = rng_below(r, 2) ? MUID_TS_MAX : 0;
			break;
		case 3:
			f.timestamp = rng_next(r);
			break;
		default:
			break;
	}
	switch (rng_below(r, 5))
	{
		case 0:
			f.medallion += rng_below(r, 2) ? 1 : -1;
			break;
		case 1:
			f.medallion ^= UINT64_C(1) << (32 + rng_below(r, 12));	/* the top 12 bits */
			break;
		case 2:
			f.medallion = rng_next(r);
			break;
		default:
			break;
	}
	switch (rng_below(r, 6))
	{
		case 0:
			f.offset = (int32_t) (4090 + rng_below(r, 8));	/* around the saturation */
			break;
		case 1:
			f.offset = (int32_t) rng_next(r);
			break;
		case 2:
			f.offset = -1;
			break;
		case 3:
			f.offset += 1;
			break;
		default:
			f.offset = (int32_t) rng_below(r, 5000);
			break;
	}
	muid_pack(&f, out);
}

static void
muid_test_abbrev(void)
{
	harness_rng r = rng_seeded(0x61626272);
	const int	n = 2000000;
	unsigned long long distinct_ref_offsets = 0;

	harness_ctx = "muid abbreviated key";
	for (int i = 0; i < n; i++)
	{
		uint8_t		ref[MUID_LEN],
					a[MUID_LEN],
					b[MUID_LEN];
		uint64_t	ref_hi,
					ka,
					kb;
		uint32_t	ref_med_lo;
		int			bytes;

		harness_iter = (unsigned long long) i;
		muid_random_value(&r, ref);
		if (i % 4 == 0)			/* references at the top of the range */
			memset(ref, 0xFF, 6 + rng_below(&r, 7));
		muid_near(&r, ref, a);
		muid_near(&r, i % 3 ? ref : a, b);
		ref_hi = uid_load_be(ref, 8);
		ref_med_lo = (uint32_t) uid_load_be(ref + 8, 4);
		ka = muid_abbrev_key(a, ref_hi, ref_med_lo);
		kb = muid_abbrev_key(b, ref_hi, ref_med_lo);
		bytes = memcmp(a, b, MUID_LEN);
		if (ka < kb)
			CHECK(bytes < 0);
		else if (ka > kb)
			CHECK(bytes > 0);
		else if (memcmp(a, ref, 12) == 0 && memcmp(b, ref, 12) == 0 &&
				 (ref_hi >> 12) < MUID_TS_MAX - (UINT64_C(1) << 20))
			CHECK(bytes == 0);	/* R's transaction: every offset its own key */
		if (bytes == 0)
			CHECK(ka == kb);
		if (memcmp(a, ref, 12) == 0 && memcmp(b, ref, 12) == 0 && bytes != 0)
			distinct_ref_offsets++;
	}
	/* the reference's own transaction was exercised, not only neighbours */
	CHECK(distinct_ref_offsets > (unsigned long long) n / 200);

	/* offsets 0 .. 4093 of another transaction of R's medallion are told apart */
	{
		uint8_t		ref[MUID_LEN],
					v[MUID_LEN];
		muid_fields f = {UINT64_C(1642579230975519), UINT64_C(1923190821165), 0};
		uint64_t	prev = 0;

		muid_pack(&f, ref);
		f.timestamp += 5;
		for (int32_t o = 0; o <= 4093; o++)
		{
			uint64_t	k;

			f.offset = o;
			muid_pack(&f, v);
			k = muid_abbrev_key(v, uid_load_be(ref, 8), (uint32_t) uid_load_be(ref + 8, 4));
			if (o > 0 && !CHECK(k > prev))
				break;
			prev = k;
		}
	}
}

void		test_muid(void);

void
test_muid(void)
{
	muid_test_vectors();
	muid_test_short_forms();
	muid_test_round_trips();
	muid_test_order();
	muid_test_rejections();
	muid_test_offsets();
	muid_test_abbrev();
	harness_ctx = NULL;
}
